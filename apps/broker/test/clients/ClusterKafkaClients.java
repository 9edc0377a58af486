// Apache Kafka's Java client (the harness's "kafka" Maven set) driving a multi-broker cluster until told to stop
// (a stop file appears). Compiled with javac at test time.
//   produce <bootstrap> <topic> <stopFile> <producers> <perSecond>
//       <producers> idempotent producers (acks=all) send unique values ("<producer>-<sequence>", the value as key)
//       at about <perSecond> records a second in all; prints "ACK <value> <partition> <offset> <sentAtMs> <ackedAtMs>"
//       per acknowledged record and "ERR <value> <exception class> <message>" per failed one; flushes at the stop.
//   group <bootstraps> <topic> <group> <stopFile>
//       one consumer of <group> per comma-separated bootstrap address (each member knows only its own broker),
//       committing after every poll; prints "REC <member> <partition> <offset> <value>", "ASSIGNED <member> <list>",
//       "COMMITFAIL <member> <exception class> <retriable>" and "FAIL <member> <exception>" (a consumer that
//       stopped early).
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public final class ClusterKafkaClients {
  private static final int IN_FLIGHT_RECORDS = 200;

  public static void main(String[] args) throws Exception {
    if (args[0].equals("produce"))
      produce(args[1], args[2], Path.of(args[3]), Integer.parseInt(args[4]), Integer.parseInt(args[5]));
    else if (args[0].equals("group")) group(args[1].split(","), args[2], args[3], Path.of(args[4]));
    else throw new IllegalArgumentException("unknown command " + args[0]);
  }

  static void println(String line) {
    synchronized (System.out) {
      System.out.println(line);
      System.out.flush();
    }
  }

  static void produce(String bootstrap, String topic, Path stopFile, int producers, int perSecond) throws Exception {
    List<Thread> threads = new ArrayList<>();
    long pauseNanos = 1_000_000_000L * producers / Math.max(1, perSecond);
    for (int index = 0; index < producers; index++) {
      String name = "p" + index;
      Thread thread = new Thread(() -> {
        Properties properties = new Properties();
        properties.put("bootstrap.servers", bootstrap);
        properties.put("client.id", name);
        properties.put("key.serializer", StringSerializer.class.getName());
        properties.put("value.serializer", StringSerializer.class.getName());
        properties.put("enable.idempotence", "true");
        properties.put("acks", "all");
        properties.put("linger.ms", "5");
        properties.put("request.timeout.ms", "5000");
        properties.put("delivery.timeout.ms", "120000");
        properties.put("retry.backoff.ms", "50");
        properties.put("retry.backoff.max.ms", "500");
        properties.put("metadata.max.age.ms", "5000");
        Semaphore inFlight = new Semaphore(IN_FLIGHT_RECORDS);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
          for (long sequence = 0; !Files.exists(stopFile); sequence++) {
            String value = name + "-" + sequence;
            inFlight.acquire();
            long sentAt = System.currentTimeMillis();
            producer.send(new ProducerRecord<>(topic, value, value), (metadata, error) -> {
              inFlight.release();
              if (error == null) {
                long ackedAt = System.currentTimeMillis();
                println("ACK " + value + " " + metadata.partition() + " " + metadata.offset() + " " + sentAt + " " + ackedAt);
              } else {
                String message = String.valueOf(error.getMessage()).replace('\n', ' ');
                println("ERR " + value + " " + error.getClass().getName() + " " + message);
              }
            });
            Thread.sleep(pauseNanos / 1_000_000, (int) (pauseNanos % 1_000_000));
          }
          producer.flush();
        } catch (Throwable failure) {
          println("FAIL " + name + " " + failure);
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) thread.join();
    println("DONE");
  }

  static void group(String[] bootstraps, String topic, String group, Path stopFile) throws Exception {
    List<Thread> threads = new ArrayList<>();
    for (int index = 0; index < bootstraps.length; index++) {
      String member = "m" + index;
      String bootstrap = bootstraps[index];
      Thread thread = new Thread(() -> {
        Properties properties = new Properties();
        properties.put("bootstrap.servers", bootstrap);
        properties.put("group.id", group);
        properties.put("client.id", member);
        properties.put("key.deserializer", StringDeserializer.class.getName());
        properties.put("value.deserializer", StringDeserializer.class.getName());
        properties.put("auto.offset.reset", "earliest");
        properties.put("enable.auto.commit", "false");
        properties.put("session.timeout.ms", "10000");
        properties.put("heartbeat.interval.ms", "500");
        properties.put("max.poll.interval.ms", "30000");
        properties.put("request.timeout.ms", "5000");
        properties.put("metadata.max.age.ms", "5000");
        properties.put("fetch.max.wait.ms", "200");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties)) {
          consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}

            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
              List<Integer> numbers = new ArrayList<>();
              for (TopicPartition partition : partitions) numbers.add(partition.partition());
              println("ASSIGNED " + member + " " + numbers.toString().replace(" ", ""));
            }
          });
          while (!Files.exists(stopFile)) {
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200)))
              println("REC " + member + " " + record.partition() + " " + record.offset() + " " + record.value());
            try {
              consumer.commitSync(Duration.ofSeconds(10));
            } catch (KafkaException failure) {
              boolean retriable = failure instanceof RetriableException;
              println("COMMITFAIL " + member + " " + failure.getClass().getName() + " " + retriable);
            }
          }
        } catch (Throwable failure) {
          println("FAIL " + member + " " + String.valueOf(failure).replace('\n', ' '));
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) thread.join();
    println("DONE");
  }
}
