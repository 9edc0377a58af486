// Apache Kafka's Java client (kafka-clients 4.1) for the ACL integration tests: the Admin client's createAcls,
// describeAcls and deleteAcls as kafka-acls calls them, and a producer and a consumer group member whose failures show
// the exception the client reports. Every command logs in with SASL PLAIN as <user>/<password> on a SASL_PLAINTEXT
// listener. Compiled with javac at test time against the harness's "kafka" Maven set.
//   create <binding>...          creates the bindings; prints "CREATED <n>"
//   describe <filter>...         prints "ACL <n> <binding>" per binding the n-th filter (from 0) matches
//   delete <filter>...           prints "DELETED <binding>" per deleted binding
//   produce <topic> <count>      prints "ACK <offset>" per acknowledged record
//   consume <topic> <group> <count>   subscribes as a group member; prints "REC <value>" per record, commits
// <binding> and <filter> are TYPE,NAME,PATTERN,PRINCIPAL,HOST,OPERATION,PERMISSION with Kafka's enum names; in a
// filter "-" stands for a null name, principal or host. Arguments before the command's own: <bootstrap> <user>
// <password>. A failure prints "ERROR <exception class> <message>" (the innermost cause) and exits with status 3.
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DeleteAclsResult;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public final class JavaKafkaAcls {
  public static void main(String[] args) throws Exception {
    Properties auth = auth(args[1], args[2], args[3]);
    String[] rest = Arrays.copyOfRange(args, 4, args.length);
    try {
      switch (args[0]) {
        case "create" -> create(auth, rest);
        case "describe" -> describe(auth, rest);
        case "delete" -> delete(auth, rest);
        case "produce" -> produce(auth, rest[0], Integer.parseInt(rest[1]));
        case "consume" -> consume(auth, rest[0], rest[1], Integer.parseInt(rest[2]));
        default -> throw new IllegalArgumentException("unknown command " + args[0]);
      }
    } catch (Exception error) {
      Throwable cause = error;
      while (cause.getCause() != null) cause = cause.getCause();
      System.out.println("ERROR " + cause.getClass().getName() + " " + cause.getMessage());
      System.out.flush();
      System.exit(3);
    }
  }

  static Properties auth(String bootstrap, String user, String password) {
    Properties properties = new Properties();
    properties.put("bootstrap.servers", bootstrap);
    properties.put("security.protocol", "SASL_PLAINTEXT");
    properties.put("sasl.mechanism", "PLAIN");
    properties.put(
        "sasl.jaas.config",
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
            + user
            + "\" password=\""
            + password
            + "\";");
    properties.put("default.api.timeout.ms", "30000");
    properties.put("request.timeout.ms", "15000");
    return properties;
  }

  static String[] fields(String spec) {
    String[] parts = spec.split(",", -1);
    if (parts.length != 7) throw new IllegalArgumentException("expected 7 comma-separated fields: " + spec);
    return parts;
  }

  static String nullable(String value) {
    return value.equals("-") ? null : value;
  }

  static AclBinding binding(String spec) {
    String[] f = fields(spec);
    return new AclBinding(
        new ResourcePattern(ResourceType.fromString(f[0]), f[1], PatternType.fromString(f[2])),
        new AccessControlEntry(f[3], f[4], AclOperation.fromString(f[5]), AclPermissionType.fromString(f[6])));
  }

  static AclBindingFilter filter(String spec) {
    String[] f = fields(spec);
    return new AclBindingFilter(
        new ResourcePatternFilter(ResourceType.fromString(f[0]), nullable(f[1]), PatternType.fromString(f[2])),
        new AccessControlEntryFilter(
            nullable(f[3]), nullable(f[4]), AclOperation.fromString(f[5]), AclPermissionType.fromString(f[6])));
  }

  static String format(AclBinding binding) {
    ResourcePattern pattern = binding.pattern();
    AccessControlEntry entry = binding.entry();
    return String.join(
        ",",
        pattern.resourceType().name(),
        pattern.name(),
        pattern.patternType().name(),
        entry.principal(),
        entry.host(),
        entry.operation().name(),
        entry.permissionType().name());
  }

  static void create(Properties auth, String[] specs) throws Exception {
    List<AclBinding> bindings = new ArrayList<>();
    for (String spec : specs) bindings.add(binding(spec));
    try (Admin admin = Admin.create(auth)) {
      admin.createAcls(bindings).all().get();
    }
    System.out.println("CREATED " + bindings.size());
  }

  static void describe(Properties auth, String[] specs) throws Exception {
    try (Admin admin = Admin.create(auth)) {
      for (int index = 0; index < specs.length; index++) {
        Collection<AclBinding> bindings = admin.describeAcls(filter(specs[index])).values().get();
        for (AclBinding binding : bindings) System.out.println("ACL " + index + " " + format(binding));
      }
    }
  }

  static void delete(Properties auth, String[] specs) throws Exception {
    List<AclBindingFilter> filters = new ArrayList<>();
    for (String spec : specs) filters.add(filter(spec));
    try (Admin admin = Admin.create(auth)) {
      DeleteAclsResult result = admin.deleteAcls(filters);
      for (AclBinding binding : result.all().get()) System.out.println("DELETED " + format(binding));
    }
  }

  static void produce(Properties auth, String topic, int count) throws Exception {
    Properties properties = new Properties();
    properties.putAll(auth);
    properties.put("key.serializer", StringSerializer.class.getName());
    properties.put("value.serializer", StringSerializer.class.getName());
    properties.put("max.block.ms", "20000");
    properties.put("delivery.timeout.ms", "30000");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
      for (int index = 0; index < count; index++) {
        long offset = producer.send(new ProducerRecord<>(topic, "k" + index, "v" + index)).get().offset();
        System.out.println("ACK " + offset);
      }
    }
  }

  static void consume(Properties auth, String topic, String group, int count) throws Exception {
    Properties properties = new Properties();
    properties.putAll(auth);
    properties.put("group.id", group);
    properties.put("auto.offset.reset", "earliest");
    properties.put("enable.auto.commit", "false");
    properties.put("key.deserializer", StringDeserializer.class.getName());
    properties.put("value.deserializer", StringDeserializer.class.getName());
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties)) {
      consumer.subscribe(List.of(topic));
      int seen = 0;
      long deadline = System.currentTimeMillis() + 60_000;
      while (seen < count && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          System.out.println("REC " + record.value());
          seen++;
        }
      }
      consumer.commitSync();
      if (seen < count) throw new IllegalStateException("consumed " + seen + " of " + count);
    }
  }
}
