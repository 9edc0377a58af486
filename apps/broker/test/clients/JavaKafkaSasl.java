// Apache Kafka's Java client (kafka-clients 4.1) over SASL for the broker's integration tests: every command logs in
// with <mechanism> (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) as <user>/<password> on a SASL_PLAINTEXT or SASL_SSL
// (<caFile>, PEM, or "-") listener. Compiled with javac at test time against the harness's "kafka" Maven set.
//   produce <auth...> <topic> <count>                 prints "ACK <key> <offset>" per acknowledged record
//   produce-slowly <auth...> <topic> <count> <pauseMs>  one record at a time, each acknowledged before a pause
//   consume <auth...> <topic> <count>                 reads partition 0 from the start; prints "REC <key> <value>"
//   alter <auth...> <user> <mechanism> <password> <iterations>   creates or replaces a SCRAM credential; "ALTERED"
//   delete <auth...> <user> <mechanism>               deletes a SCRAM credential; "DELETED"
//   describe <auth...> <user>...                      prints "CREDENTIAL <user> <mechanism> <iterations>" per credential
// <auth...> is <bootstrap> <securityProtocol> <caFile> <mechanism> <user> <password>. A failure prints
// "ERROR <exception class> <message>" (the innermost cause) and exits with status 3.
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeUserScramCredentialsResult;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public final class JavaKafkaSasl {
  public static void main(String[] args) throws Exception {
    Properties auth = auth(args[1], args[2], args[3], args[4], args[5], args[6]);
    String[] rest = Arrays.copyOfRange(args, 7, args.length);
    try {
      switch (args[0]) {
        case "produce" -> produce(auth, rest[0], Integer.parseInt(rest[1]));
        case "produce-slowly" -> produceSlowly(auth, rest[0], Integer.parseInt(rest[1]), Long.parseLong(rest[2]));
        case "consume" -> consume(auth, rest[0], Integer.parseInt(rest[1]));
        case "alter" -> alter(auth, rest[0], rest[1], rest[2], Integer.parseInt(rest[3]));
        case "delete" -> delete(auth, rest[0], rest[1]);
        case "describe" -> describe(auth, Arrays.asList(rest));
        default -> throw new IllegalArgumentException("unknown command " + args[0]);
      }
    } catch (Exception error) {
      Throwable cause = error;
      while ((cause instanceof ExecutionException || cause.getCause() != null) && cause.getCause() != null)
        cause = cause.getCause();
      System.out.println("ERROR " + cause.getClass().getName() + " " + cause.getMessage());
      System.out.flush();
      System.exit(3);
    }
  }

  static Properties auth(
      String bootstrap, String protocol, String caFile, String mechanism, String user, String password) {
    Properties properties = new Properties();
    properties.put("bootstrap.servers", bootstrap);
    properties.put("security.protocol", protocol);
    properties.put("sasl.mechanism", mechanism);
    String module =
        mechanism.equals("PLAIN")
            ? "org.apache.kafka.common.security.plain.PlainLoginModule"
            : "org.apache.kafka.common.security.scram.ScramLoginModule";
    properties.put(
        "sasl.jaas.config", module + " required username=\"" + user + "\" password=\"" + password + "\";");
    if (!caFile.equals("-")) {
      properties.put("ssl.truststore.type", "PEM");
      properties.put("ssl.truststore.location", caFile);
    }
    properties.put("request.timeout.ms", "15000");
    properties.put("default.api.timeout.ms", "30000");
    properties.put("reconnect.backoff.max.ms", "1000");
    return properties;
  }

  static void produce(Properties auth, String topic, int count) throws Exception {
    Properties properties = new Properties();
    properties.putAll(auth);
    properties.put("key.serializer", StringSerializer.class.getName());
    properties.put("value.serializer", StringSerializer.class.getName());
    properties.put("linger.ms", "5");
    properties.put("max.block.ms", "20000");
    properties.put("delivery.timeout.ms", "30000");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
      List<Future<RecordMetadata>> sends = new ArrayList<>();
      for (int index = 0; index < count; index++)
        sends.add(producer.send(new ProducerRecord<>(topic, 0, "sasl-" + index, "value-" + index)));
      for (int index = 0; index < count; index++)
        System.out.println("ACK sasl-" + index + " " + sends.get(index).get().offset());
    }
  }

  static void produceSlowly(Properties auth, String topic, int count, long pauseMs) throws Exception {
    Properties properties = new Properties();
    properties.putAll(auth);
    properties.put("key.serializer", StringSerializer.class.getName());
    properties.put("value.serializer", StringSerializer.class.getName());
    properties.put("max.block.ms", "20000");
    properties.put("delivery.timeout.ms", "30000");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
      for (int index = 0; index < count; index++) {
        RecordMetadata metadata = producer.send(new ProducerRecord<>(topic, 0, "slow-" + index, "v")).get();
        System.out.println("ACK slow-" + index + " " + metadata.offset());
        Thread.sleep(pauseMs);
      }
    }
  }

  static void consume(Properties auth, String topic, int count) throws Exception {
    Properties properties = new Properties();
    properties.putAll(auth);
    properties.put("key.deserializer", StringDeserializer.class.getName());
    properties.put("value.deserializer", StringDeserializer.class.getName());
    properties.put("enable.auto.commit", "false");
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties)) {
      TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      int read = 0;
      long deadline = System.currentTimeMillis() + 60_000;
      while (read < count && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          System.out.println("REC " + record.key() + " " + record.value());
          read++;
        }
      }
      if (read < count) throw new IllegalStateException("read " + read + " of " + count + " records");
    }
  }

  static ScramMechanism mechanism(String name) {
    return ScramMechanism.fromMechanismName(name);
  }

  static void alter(Properties auth, String user, String mechanism, String password, int iterations)
      throws Exception {
    try (Admin admin = Admin.create(auth)) {
      ScramCredentialInfo info = new ScramCredentialInfo(mechanism(mechanism), iterations);
      admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user, info, password))).all().get();
      System.out.println("ALTERED");
    }
  }

  static void delete(Properties auth, String user, String mechanism) throws Exception {
    try (Admin admin = Admin.create(auth)) {
      admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion(user, mechanism(mechanism)))).all().get();
      System.out.println("DELETED");
    }
  }

  static void describe(Properties auth, List<String> users) throws Exception {
    try (Admin admin = Admin.create(auth)) {
      DescribeUserScramCredentialsResult result = admin.describeUserScramCredentials(users);
      for (String user : users) {
        for (ScramCredentialInfo info : result.description(user).get().credentialInfos())
          System.out.println(
              "CREDENTIAL " + user + " " + info.mechanism().mechanismName() + " " + info.iterations());
      }
    }
  }
}
