// Apache Kafka's Java client (kafka-clients 4.1, defaults: idempotent producer, classic consumer group protocol)
// for the broker's integration tests. Compiled with javac at test time against the harness's "kafka" Maven set.
//   produce <bootstrap> <topic> <count>          prints "ACK <key> <partition> <offset>" per acknowledged record
//   group <bootstrap> <topic> <group> <count>    two consumers of one group share the topic until <count> records
//                                                 arrived; both commit; prints "REC <member> <key> <value> <header>
//                                                 <partition> <offset>" and "ASSIGNED <member> <partitions>"
// Either takes a properties file of client settings as its last argument (e.g. security.protocol=SSL).
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.io.FileInputStream;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public final class JavaKafkaClients {
  public static void main(String[] args) throws Exception {
    boolean producing = args[0].equals("produce");
    // An optional last argument: a properties file of client settings (e.g. security.protocol=SSL and its stores).
    int extra = producing ? 4 : 5;
    if (args.length > extra) {
      try (FileInputStream input = new FileInputStream(args[extra])) {
        CLIENT.load(input);
      }
    }
    if (producing) produce(args[1], args[2], Integer.parseInt(args[3]));
    else group(args[1], args[2], args[3], Integer.parseInt(args[4]));
  }

  /** Settings every client of this run gets (from the optional properties file). */
  static final Properties CLIENT = new Properties();

  static void produce(String bootstrap, String topic, int count) throws Exception {
    Properties properties = new Properties();
    properties.putAll(CLIENT);
    properties.put("bootstrap.servers", bootstrap);
    properties.put("key.serializer", StringSerializer.class.getName());
    properties.put("value.serializer", StringSerializer.class.getName());
    properties.put("linger.ms", "5");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
      List<Future<RecordMetadata>> sends = new ArrayList<>();
      for (int index = 0; index < count; index++) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, "java-" + index, "value-" + index);
        record.headers().add("index", Integer.toString(index).getBytes(StandardCharsets.UTF_8));
        sends.add(producer.send(record));
      }
      for (int index = 0; index < count; index++) {
        RecordMetadata metadata = sends.get(index).get();
        System.out.println("ACK java-" + index + " " + metadata.partition() + " " + metadata.offset());
      }
    }
  }

  static void group(String bootstrap, String topic, String group, int count) throws Exception {
    ConcurrentHashMap<String, Boolean> seen = new ConcurrentHashMap<>();
    AtomicBoolean done = new AtomicBoolean(false);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (String member : new String[] {"alpha", "beta"}) {
      Thread thread = new Thread(() -> {
        Properties properties = new Properties();
        properties.putAll(CLIENT);
        properties.put("bootstrap.servers", bootstrap);
        properties.put("group.id", group);
        properties.put("client.id", member);
        properties.put("key.deserializer", StringDeserializer.class.getName());
        properties.put("value.deserializer", StringDeserializer.class.getName());
        properties.put("auto.offset.reset", "earliest");
        properties.put("enable.auto.commit", "false");
        properties.put("session.timeout.ms", "10000");
        properties.put("heartbeat.interval.ms", "500");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties)) {
          consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}

            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
              List<Integer> numbers = new ArrayList<>();
              for (TopicPartition partition : partitions) numbers.add(partition.partition());
              synchronized (System.out) {
                System.out.println("ASSIGNED " + member + " " + numbers);
              }
            }
          });
          long deadline = System.currentTimeMillis() + 90_000;
          while (!done.get() && System.currentTimeMillis() < deadline) {
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
              Header header = record.headers().lastHeader("index");
              String index = header == null ? "-" : new String(header.value(), StandardCharsets.UTF_8);
              synchronized (System.out) {
                System.out.println("REC " + member + " " + record.key() + " " + record.value() + " " + index + " " + record.partition() + " " + record.offset());
              }
              seen.put(record.key(), Boolean.TRUE);
            }
            consumer.commitSync();
            if (seen.size() >= count) done.set(true);
          }
        } catch (Throwable failure) {
          synchronized (failures) {
            failures.add(failure);
          }
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) thread.join();
    if (!failures.isEmpty()) throw new RuntimeException(failures.get(0));
    if (seen.size() < count) throw new IllegalStateException("received " + seen.size() + " of " + count);
  }
}
