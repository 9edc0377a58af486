// Interop and performance driver of @nereus/kafka-baseline, written against the public kafka-clients API only.
// The TypeScript side (src/java-driver.ts) compiles this file with javac against the cached kafka-clients jar and
// runs it against Apache Kafka and against the Nereus broker with identical client settings. Every mode prints one
// JSON object on the last line of stdout; a failure prints `kafka-driver: <mode> failed: <cause chain>` on stderr
// and exits 1. Records carry everything needed to check them: the key, the value and the headers are derived from
// the record's index, so a reader in another process verifies content without the writer's bookkeeping.
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DeletedRecords;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsResult;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class NereusKafkaDriver {
  private NereusKafkaDriver() {}

  // ---------------------------------------------------------------------------------------------- arguments

  private static final class Args {
    final String mode;
    final Map<String, String> values = new HashMap<>();
    final Map<String, String> props = new TreeMap<>();

    Args(String[] argv) {
      if (argv.length == 0) throw new IllegalArgumentException("usage: <mode> [--name value]...");
      mode = argv[0];
      for (int i = 1; i < argv.length; i++) {
        String name = argv[i];
        if (!name.startsWith("--") || i + 1 >= argv.length) throw new IllegalArgumentException("bad argument " + name);
        String value = argv[++i];
        if (name.equals("--prop")) {
          int eq = value.indexOf('=');
          if (eq <= 0) throw new IllegalArgumentException("--prop needs key=value, got " + value);
          props.put(value.substring(0, eq), value.substring(eq + 1));
        } else {
          values.put(name.substring(2), value);
        }
      }
    }

    String str(String name) {
      String v = values.get(name);
      if (v == null) throw new IllegalArgumentException("missing --" + name);
      return v;
    }

    String str(String name, String fallback) {
      return values.getOrDefault(name, fallback);
    }

    long num(String name, long fallback) {
      String v = values.get(name);
      return v == null ? fallback : Long.parseLong(v);
    }

    long num(String name) {
      return Long.parseLong(str(name));
    }
  }

  // ------------------------------------------------------------------------------------------ client settings

  /** Settings shared by every client of every mode; both brokers see exactly these. */
  private static Properties common(Args a, String clientId) {
    Properties p = new Properties();
    p.put("bootstrap.servers", a.str("bootstrap"));
    p.put("client.id", clientId);
    p.put("request.timeout.ms", "30000");
    p.put("metadata.max.age.ms", "30000");
    return p;
  }

  /** The producer: idempotent (the kafka-clients default, stated explicitly), acks=all, fixed batching. */
  static Properties producerProps(Args a, String clientId) {
    Properties p = common(a, clientId);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, "65536");
    p.put("max.in.flight.requests.per.connection", "5");
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
    p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, String.valueOf(32L * 1024 * 1024));
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    a.props.forEach((k, v) -> { if (k.startsWith("producer.")) p.put(k.substring(9), v); });
    return p;
  }

  /** The consumer: classic group protocol, manual commits, fixed fetch sizes. */
  static Properties consumerProps(Args a, String clientId, String groupId) {
    Properties p = common(a, clientId);
    if (groupId != null) p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
    p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
    p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "1");
    p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "500");
    p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(50L * 1024 * 1024));
    p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(1024 * 1024));
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    a.props.forEach((k, v) -> { if (k.startsWith("consumer.")) p.put(k.substring(9), v); });
    return p;
  }

  // ------------------------------------------------------------------------------------ records of the tests

  static byte[] keyOf(long i) {
    return ("key-" + i).getBytes(StandardCharsets.UTF_8);
  }

  /** A value whose length varies with the index (16..527 bytes) and whose bytes are derived from it. */
  static byte[] valueOf(long i) {
    int len = 16 + (int) ((i * 7919) % 512);
    byte[] v = new byte[len];
    byte[] prefix = ("value-" + i + ":").getBytes(StandardCharsets.UTF_8);
    System.arraycopy(prefix, 0, v, 0, Math.min(prefix.length, len));
    for (int j = prefix.length; j < len; j++) v[j] = (byte) ((i * 31 + j * 17) & 0xff);
    return v;
  }

  static long crc(byte[] b) {
    CRC32 c = new CRC32();
    c.update(b);
    return c.getValue();
  }

  /** Headers: the index as text, the value's CRC32, a binary header, a null-valued one and a repeated key. */
  static RecordHeaders headersOf(long i, byte[] value) {
    RecordHeaders h = new RecordHeaders();
    h.add("idx", Long.toString(i).getBytes(StandardCharsets.UTF_8));
    h.add("crc", Long.toString(crc(value)).getBytes(StandardCharsets.UTF_8));
    byte[] bin = new byte[(int) (i % 32)];
    for (int j = 0; j < bin.length; j++) bin[j] = (byte) (255 - j - i);
    h.add("bin", bin);
    h.add("nil", null);
    h.add("rep", "a".getBytes(StandardCharsets.UTF_8));
    h.add("rep", "b".getBytes(StandardCharsets.UTF_8));
    return h;
  }

  /** Index of a test record, or -1 when key, value or headers are not exactly what record `idx` was sent with. */
  static long verify(ConsumerRecord<byte[], byte[]> r) {
    Header idxHeader = r.headers().lastHeader("idx");
    if (idxHeader == null || idxHeader.value() == null) return -1;
    long i;
    try {
      i = Long.parseLong(new String(idxHeader.value(), StandardCharsets.UTF_8));
    } catch (NumberFormatException e) {
      return -1;
    }
    if (!Arrays.equals(r.key(), keyOf(i))) return -1;
    byte[] value = valueOf(i);
    if (!Arrays.equals(r.value(), value)) return -1;
    Header[] got = r.headers().toArray();
    Header[] want = headersOf(i, value).toArray();
    if (got.length != want.length) return -1;
    for (int j = 0; j < got.length; j++) {
      if (!got[j].key().equals(want[j].key()) || !Arrays.equals(got[j].value(), want[j].value())) return -1;
    }
    return i;
  }

  // ------------------------------------------------------------------------------------------------ modes

  public static void main(String[] argv) {
    String mode = argv.length > 0 ? argv[0] : "?";
    try {
      Args a = new Args(argv);
      String out;
      switch (a.mode) {
        case "create-topic": out = createTopic(a); break;
        case "produce": out = produce(a); break;
        case "consume-group": out = consumeGroup(a); break;
        case "committed": out = committed(a); break;
        case "delete-records": out = deleteRecords(a); break;
        case "alter-configs": out = alterConfigs(a); break;
        case "log-dirs": out = logDirs(a); break;
        case "partitions-and-groups": out = partitionsAndGroups(a); break;
        case "interop": out = interop(a); break;
        case "produce-perf": out = producePerf(a); break;
        case "consume-perf": out = consumePerf(a); break;
        default: throw new IllegalArgumentException("unknown mode " + a.mode);
      }
      System.out.println(out);
      System.out.flush();
      System.exit(0);
    } catch (Throwable t) {
      System.out.flush();
      System.err.println("kafka-driver: " + mode + " failed: " + chain(t));
      System.err.flush();
      System.exit(1);
    }
  }

  static String chain(Throwable t) {
    StringBuilder sb = new StringBuilder();
    Set<Throwable> seen = new HashSet<>();
    for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
      if (c instanceof ExecutionException && c.getCause() != null) continue;
      if (sb.length() > 0) sb.append(" <- ");
      sb.append(c.getClass().getName()).append(": ").append(String.valueOf(c.getMessage()).replace('\n', ' '));
    }
    return sb.toString();
  }

  static String createTopic(Args a) throws Exception {
    String topic = a.str("topic");
    int partitions = (int) a.num("partitions", 1);
    Properties p = common(a, "nereus-driver-admin");
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
    boolean created = true;
    try (Admin admin = Admin.create(p)) {
      try {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) throw e;
        created = false;
      }
    }
    return new Json().put("topic", topic).put("partitions", partitions).put("created", created).toString();
  }

  static String produce(Args a) throws Exception {
    String topic = a.str("topic");
    long from = a.num("from", 0);
    long count = a.num("count");
    AtomicLong acked = new AtomicLong();
    AtomicReference<Throwable> firstError = new AtomicReference<>();
    AtomicLong errors = new AtomicLong();
    Map<Integer, long[]> ranges = new ConcurrentHashMap<>(); // partition -> {min, max, count}
    long started = System.nanoTime();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps(a, "nereus-driver-producer"))) {
      for (long i = from; i < from + count; i++) {
        byte[] value = valueOf(i);
        ProducerRecord<byte[], byte[]> rec = new ProducerRecord<>(topic, null, null, keyOf(i), value, headersOf(i, value));
        producer.send(rec, (md, e) -> {
          if (e != null) {
            errors.incrementAndGet();
            firstError.compareAndSet(null, e);
            return;
          }
          acked.incrementAndGet();
          ranges.compute(md.partition(), (k, r) -> {
            if (r == null) return new long[] {md.offset(), md.offset(), 1};
            r[0] = Math.min(r[0], md.offset());
            r[1] = Math.max(r[1], md.offset());
            r[2]++;
            return r;
          });
        });
      }
      producer.flush();
    }
    Json parts = new Json();
    new TreeMap<>(ranges).forEach((k, r) -> parts.put(String.valueOf(k), new Json().put("first", r[0]).put("last", r[1]).put("count", r[2])));
    Json out = new Json().put("topic", topic).put("from", from).put("count", count).put("acked", acked.get()).put("errors", errors.get())
        .put("partitions", parts).put("seconds", (System.nanoTime() - started) / 1e9);
    if (firstError.get() != null) out.put("firstError", chain(firstError.get()));
    return out.toString();
  }

  /** One member of a consumer group: reads until the group has seen every expected record, then commits. */
  private static final class Member implements Runnable {
    final int id;
    final Args args;
    final Group group;
    final AtomicReference<Set<TopicPartition>> assignment = new AtomicReference<>(Set.of());
    final AtomicLong consumed = new AtomicLong();
    final AtomicInteger rebalances = new AtomicInteger();
    volatile Throwable failure;
    volatile Map<TopicPartition, OffsetAndMetadata> lastCommit = Map.of();

    Member(int id, Args args, Group group) {
      this.id = id;
      this.args = args;
      this.group = group;
    }

    @Override
    public void run() {
      Properties p = consumerProps(args, "nereus-driver-consumer-" + id, args.str("group"));
      try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
        consumer.subscribe(List.of(args.str("topic")), new ConsumerRebalanceListener() {
          @Override
          public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
            commit(consumer, revoked);
            assignment.set(Set.of());
          }

          @Override
          public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
            rebalances.incrementAndGet();
            assignment.set(Set.copyOf(assigned));
            group.assignments.add(id + ":" + new TreeMap<>(partitionMap(assigned)).keySet());
            if (!group.shared.get()) consumer.pause(assigned);
          }
        });
        boolean paused = true;
        while (!group.done() && System.nanoTime() < group.deadline) {
          if (paused && group.shared.get()) {
            consumer.resume(consumer.paused());
            paused = false;
          }
          ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
          for (ConsumerRecord<byte[], byte[]> r : records) {
            consumed.incrementAndGet();
            group.accept(r);
          }
          group.checkShared();
          if (!records.isEmpty()) commit(consumer, consumer.assignment());
        }
        commit(consumer, consumer.assignment());
        group.finished.incrementAndGet();
        // Stay in the group until every member is done so no partition moves while others still commit.
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (group.finished.get() < group.members.length && System.nanoTime() < until) consumer.poll(Duration.ofMillis(100));
      } catch (Throwable t) {
        failure = t;
        group.finished.incrementAndGet();
      }
    }

    void commit(KafkaConsumer<byte[], byte[]> consumer, Collection<TopicPartition> partitions) {
      Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
      for (TopicPartition tp : partitions) offsets.put(tp, new OffsetAndMetadata(consumer.position(tp)));
      if (offsets.isEmpty()) return;
      consumer.commitSync(offsets);
      lastCommit = offsets;
    }
  }

  static Map<Integer, TopicPartition> partitionMap(Collection<TopicPartition> tps) {
    Map<Integer, TopicPartition> m = new HashMap<>();
    for (TopicPartition tp : tps) m.put(tp.partition(), tp);
    return m;
  }

  private static final class Group {
    final long from;
    final long count;
    final long deadline;
    final AtomicReferenceArray<Integer> seen;
    final AtomicLong distinct = new AtomicLong();
    final AtomicLong duplicates = new AtomicLong();
    final AtomicLong unexpected = new AtomicLong();
    final AtomicLong bad = new AtomicLong();
    final AtomicInteger finished = new AtomicInteger();
    final AtomicBoolean shared = new AtomicBoolean();
    final boolean requireShared;
    final List<String> assignments = java.util.Collections.synchronizedList(new ArrayList<>());
    final Map<Integer, List<Long>> offsets = new ConcurrentHashMap<>();
    Member[] members;

    Group(long from, long count, long timeoutMs, boolean requireShared) {
      this.from = from;
      this.count = count;
      this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
      this.seen = new AtomicReferenceArray<>((int) count);
      this.requireShared = requireShared;
      if (!requireShared) shared.set(true);
    }

    boolean done() {
      return distinct.get() >= count;
    }

    void checkShared() {
      if (shared.get()) return;
      for (Member m : members) if (m.assignment.get().isEmpty()) return;
      shared.set(true);
    }

    void accept(ConsumerRecord<byte[], byte[]> r) {
      offsets.computeIfAbsent(r.partition(), k -> java.util.Collections.synchronizedList(new ArrayList<>())).add(r.offset());
      long i = verify(r);
      if (i < 0) {
        bad.incrementAndGet();
        return;
      }
      if (i < from || i >= from + count) {
        unexpected.incrementAndGet();
        return;
      }
      int slot = (int) (i - from);
      if (seen.compareAndSet(slot, null, 1)) distinct.incrementAndGet();
      else {
        seen.updateAndGet(slot, v -> v + 1);
        duplicates.incrementAndGet();
      }
    }
  }

  static String consumeGroup(Args a) throws Exception {
    int n = (int) a.num("members", 2);
    Group group = new Group(a.num("from", 0), a.num("count"), a.num("timeout-ms", 90_000), n > 1 && !a.str("require-shared", "true").equals("false"));
    group.members = new Member[n];
    Thread[] threads = new Thread[n];
    for (int i = 0; i < n; i++) {
      group.members[i] = new Member(i, a, group);
      threads[i] = new Thread(group.members[i], "member-" + i);
    }
    long started = System.nanoTime();
    for (Thread t : threads) t.start();
    for (Thread t : threads) t.join();
    double seconds = (System.nanoTime() - started) / 1e9;
    Json members = new Json();
    Throwable failure = null;
    for (Member m : group.members) {
      Json mj = new Json().put("consumed", m.consumed.get()).put("rebalances", m.rebalances.get());
      if (m.failure != null) {
        mj.put("error", chain(m.failure));
        if (failure == null) failure = m.failure;
      }
      members.put(String.valueOf(m.id), mj);
    }
    long missing = 0;
    long firstMissing = -1;
    for (int i = 0; i < group.count; i++) {
      if (group.seen.get(i) == null) {
        missing++;
        if (firstMissing < 0) firstMissing = group.from + i;
      }
    }
    Json gaps = new Json();
    for (Map.Entry<Integer, List<Long>> e : new TreeMap<>(group.offsets).entrySet()) {
      List<Long> offs = new ArrayList<>(e.getValue());
      offs.sort(null);
      long dup = 0;
      long holes = 0;
      for (int i = 1; i < offs.size(); i++) {
        long d = offs.get(i) - offs.get(i - 1);
        if (d == 0) dup++;
        else if (d > 1) holes += d - 1;
      }
      gaps.put(String.valueOf(e.getKey()), new Json().put("first", offs.isEmpty() ? -1 : offs.get(0)).put("last", offs.isEmpty() ? -1 : offs.get(offs.size() - 1))
          .put("records", offs.size()).put("duplicateOffsets", dup).put("offsetHoles", holes));
    }
    Json out = new Json().put("group", a.str("group")).put("expected", group.count).put("distinct", group.distinct.get()).put("missing", missing)
        .put("firstMissing", firstMissing).put("duplicates", group.duplicates.get()).put("unexpected", group.unexpected.get()).put("bad", group.bad.get())
        .put("shared", group.shared.get()).put("timedOut", !group.done()).put("seconds", seconds).put("members", members)
        .put("assignments", group.assignments.toString()).put("partitions", gaps)
        .putRaw("committed", committedJson(a, a.str("group")));
    if (failure != null) out.put("error", chain(failure));
    return out.toString();
  }

  /** Committed offsets of the group and log end offsets, read by a fresh consumer that never joins. */
  static String committedJson(Args a, String groupId) {
    Properties p = consumerProps(a, "nereus-driver-committed", groupId);
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
      List<TopicPartition> tps = new ArrayList<>();
      for (PartitionInfo info : c.partitionsFor(a.str("topic"), Duration.ofSeconds(30))) tps.add(new TopicPartition(info.topic(), info.partition()));
      tps.sort((x, y) -> Integer.compare(x.partition(), y.partition()));
      Map<TopicPartition, OffsetAndMetadata> committed = c.committed(new HashSet<>(tps), Duration.ofSeconds(30));
      Map<TopicPartition, Long> ends = c.endOffsets(tps, Duration.ofSeconds(30));
      Json out = new Json();
      for (TopicPartition tp : tps) {
        OffsetAndMetadata om = committed.get(tp);
        out.put(String.valueOf(tp.partition()), new Json().put("committed", om == null ? -1 : om.offset()).put("end", ends.getOrDefault(tp, -1L)));
      }
      return out.toString();
    }
  }

  static String committed(Args a) {
    return new Json().put("group", a.str("group")).putRaw("committed", committedJson(a, a.str("group"))).toString();
  }

  /**
   * Admin deleteRecords on one partition before `--offset` (-1 = the high watermark), then Admin listOffsets: the
   * low watermark the deletion answered, and the earliest and latest offsets read afterwards.
   */
  static String deleteRecords(Args a) throws Exception {
    TopicPartition tp = new TopicPartition(a.str("topic"), (int) a.num("partition", 0));
    long offset = a.num("offset");
    Properties p = common(a, "nereus-driver-admin");
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
    try (Admin admin = Admin.create(p)) {
      DeletedRecords deleted = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(offset))).lowWatermarks().get(tp).get(60, TimeUnit.SECONDS);
      ListOffsetsResult.ListOffsetsResultInfo earliest = admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp).get(60, TimeUnit.SECONDS);
      ListOffsetsResult.ListOffsetsResultInfo latest = admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp).get(60, TimeUnit.SECONDS);
      return new Json()
          .put("topic", tp.topic())
          .put("partition", tp.partition())
          .put("lowWatermark", deleted.lowWatermark())
          .put("earliest", earliest.offset())
          .put("latest", latest.offset())
          .toString();
    }
  }

  /**
   * Admin describeLogDirs of every broker (describeCluster's nodes) and describeReplicaLogDirs of `--topic`'s
   * partitions: per broker its log directories, the first one's error (exception class or "none"), the sizes of the
   * topic's partitions in it, whether every offset lag is 0 and no log is a future one, whether the volume's total
   * and usable bytes are reported (and usable <= total), and whether each replica's current log directory is that
   * directory.
   */
  static String logDirs(Args a) throws Exception {
    String topic = a.str("topic");
    Properties p = common(a, "nereus-driver-admin");
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
    try (Admin admin = Admin.create(p)) {
      Collection<Node> nodes = admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
      List<Integer> ids = new ArrayList<>();
      for (Node node : nodes) ids.add(node.id());
      Map<Integer, Map<String, LogDirDescription>> all = admin.describeLogDirs(ids).allDescriptions().get(60, TimeUnit.SECONDS);
      StringBuilder brokers = new StringBuilder("[");
      for (int id : ids) {
        Map<String, LogDirDescription> dirs = all.get(id);
        Map.Entry<String, LogDirDescription> first = dirs.entrySet().iterator().next();
        LogDirDescription dir = first.getValue();
        TreeMap<Integer, Long> sizes = new TreeMap<>();
        boolean lagsZero = true;
        boolean noFuture = true;
        for (Map.Entry<TopicPartition, ReplicaInfo> replica : dir.replicaInfos().entrySet()) {
          if (!replica.getKey().topic().equals(topic)) continue;
          sizes.put(replica.getKey().partition(), replica.getValue().size());
          lagsZero &= replica.getValue().offsetLag() == 0;
          noFuture &= !replica.getValue().isFuture();
        }
        List<TopicPartitionReplica> replicas = new ArrayList<>();
        for (int partition : sizes.keySet()) replicas.add(new TopicPartitionReplica(topic, partition, id));
        boolean replicaDirsMatch = true;
        for (Map.Entry<TopicPartitionReplica, DescribeReplicaLogDirsResult.ReplicaLogDirInfo> info : admin.describeReplicaLogDirs(replicas).all().get(60, TimeUnit.SECONDS).entrySet()) {
          replicaDirsMatch &= first.getKey().equals(info.getValue().getCurrentReplicaLogDir());
        }
        Json sizesJson = new Json();
        for (Map.Entry<Integer, Long> size : sizes.entrySet()) sizesJson.put(String.valueOf(size.getKey()), size.getValue());
        boolean capacity = dir.totalBytes().isPresent() && dir.usableBytes().isPresent();
        if (brokers.length() > 1) brokers.append(',');
        brokers.append(new Json()
            .put("logDirs", dirs.size())
            .put("error", dir.error() == null ? "none" : dir.error().getClass().getSimpleName())
            .put("sizes", sizesJson)
            .put("offsetLagsZero", lagsZero)
            .put("noFutureLogs", noFuture)
            .put("capacityReported", capacity)
            .put("usableWithinTotal", capacity && dir.usableBytes().getAsLong() <= dir.totalBytes().getAsLong())
            .put("replicaLogDirsMatch", replicaDirsMatch && !replicas.isEmpty()));
      }
      return new Json().put("topic", topic).putRaw("brokers", brokers.append(']').toString()).toString();
    }
  }

  /**
   * Admin incrementalAlterConfigs on topic `--topic`, step by step, each followed by describeConfigs: the topic's
   * explicitly set configs (source DYNAMIC_TOPIC_CONFIG, other than nereus.*) after (1) SET retention.ms and
   * max.message.bytes, (2) APPEND compact to cleanup.policy and DELETE max.message.bytes, (3) SET retention.ms to a
   * non-number (the error class the client raised, or "none"), (4) validateOnly SET retention.ms. Steps 1 and 2 read
   * until the broker reports the change (see settledConfigs).
   */
  static String alterConfigs(Args a) throws Exception {
    ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, a.str("topic"));
    Properties p = common(a, "nereus-driver-admin");
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
    try (Admin admin = Admin.create(p)) {
      Json steps = new Json();
      alter(admin, topic, List.of(set("retention.ms", "3600000"), set("max.message.bytes", "2000")), false);
      steps.put("set", settledConfigs(admin, topic, Map.of("retention.ms", "3600000", "max.message.bytes", "2000")));
      alter(admin, topic, List.of(new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.APPEND), new AlterConfigOp(new ConfigEntry("max.message.bytes", null), AlterConfigOp.OpType.DELETE)), false);
      steps.put("appendDelete", settledConfigs(admin, topic, Map.of("cleanup.policy", "delete,compact", "retention.ms", "3600000")));
      String refused = "none";
      try {
        alter(admin, topic, List.of(set("retention.ms", "soon")), false);
      } catch (ExecutionException e) {
        refused = e.getCause().getClass().getSimpleName();
      }
      steps.put("refused", refused).put("afterRefusal", explicitConfigs(admin, topic));
      alter(admin, topic, List.of(set("retention.ms", "1")), true);
      steps.put("afterValidateOnly", explicitConfigs(admin, topic));
      return steps.toString();
    }
  }

  /**
   * Admin on topic `--topic` (created with one partition) and group `--group`: createPartitions to 3, then to 2 (the
   * exception class raised); the partition count describeTopics reports; a consumer of the group, subscribed to the
   * topic, commits offsets of it and of `<topic>-other` and, while it is still a member: deleteConsumerGroups,
   * deleteConsumerGroupOffsets of the subscribed topic and of the other one (exception classes), and the committed
   * partitions left; after it closed, deleteConsumerGroups again, whether listConsumerGroups still lists the group, and
   * a third deletion's exception.
   */
  static String partitionsAndGroups(Args a) throws Exception {
    String topic = a.str("topic");
    String group = a.str("group");
    Properties p = common(a, "nereus-driver-admin");
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
    try (Admin admin = Admin.create(p)) {
      Json out = new Json();
      admin.createTopics(List.of(new NewTopic(topic + "-other", 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
      admin.createPartitions(Map.of(topic, org.apache.kafka.clients.admin.NewPartitions.increaseTo(3))).all().get(60, TimeUnit.SECONDS);
      out.put("lowerCount", failure(() -> admin.createPartitions(Map.of(topic, org.apache.kafka.clients.admin.NewPartitions.increaseTo(2))).all().get(60, TimeUnit.SECONDS)));
      out.put("partitions", settledPartitionCount(admin, topic, 3));
      try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps(a, "nereus-driver-group", group))) {
        consumer.subscribe(List.of(topic));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (consumer.assignment().isEmpty() && System.nanoTime() < deadline) consumer.poll(Duration.ofMillis(200));
        TopicPartition other = new TopicPartition(topic + "-other", 0);
        consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(1), other, new OffsetAndMetadata(2)));
        out.put("whileMember", failure(() -> admin.deleteConsumerGroups(List.of(group)).all().get(60, TimeUnit.SECONDS)));
        out.put("offsetsOfSubscribed", failure(() -> admin.deleteConsumerGroupOffsets(group, Set.of(new TopicPartition(topic, 0))).all().get(60, TimeUnit.SECONDS)));
        out.put("offsetsOfOther", failure(() -> admin.deleteConsumerGroupOffsets(group, Set.of(other)).all().get(60, TimeUnit.SECONDS)));
        Map<TopicPartition, OffsetAndMetadata> left = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(60, TimeUnit.SECONDS);
        out.put("committedAfter", left.keySet().stream().map(tp -> tp.topic().equals(topic) ? "topic-" + tp.partition() : "other-" + tp.partition()).sorted().collect(java.util.stream.Collectors.joining(",")));
      }
      out.put("afterClose", failure(() -> admin.deleteConsumerGroups(List.of(group)).all().get(60, TimeUnit.SECONDS)));
      boolean listed = admin.listConsumerGroups().all().get(60, TimeUnit.SECONDS).stream().anyMatch(listing -> listing.groupId().equals(group));
      out.put("listedAfterDelete", listed);
      out.put("again", failure(() -> admin.deleteConsumerGroups(List.of(group)).all().get(60, TimeUnit.SECONDS)));
      return out.toString();
    }
  }

  /**
   * The partition count describeTopics reports once it is `expected`, or as last seen after 15 s (a KRaft broker
   * applies a new partition after the controller has acknowledged it).
   */
  private static int settledPartitionCount(Admin admin, String topic, int expected) throws Exception {
    return settled(() -> admin.describeTopics(List.of(topic)).allTopicNames().get(60, TimeUnit.SECONDS).get(topic).partitions().size(), seen -> seen == expected);
  }

  /** A read that may throw. */
  private interface Reading<T> {
    T read() throws Exception;
  }

  /**
   * Reads until `done` accepts the value or 15 s passed (every 100 ms), and returns the last value read: what the
   * broker reported, accepted or not.
   */
  private static <T> T settled(Reading<T> reading, java.util.function.Predicate<T> done) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    T seen = reading.read();
    while (!done.test(seen) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      seen = reading.read();
    }
    return seen;
  }

  /** Something that may throw. */
  private interface Attempt {
    void run() throws Exception;
  }

  /** "none" when `attempt` succeeds, else the class of the exception it failed with (unwrapping ExecutionException). */
  private static String failure(Attempt attempt) {
    try {
      attempt.run();
      return "none";
    } catch (ExecutionException e) {
      return e.getCause().getClass().getSimpleName();
    } catch (Exception e) {
      return e.getClass().getSimpleName();
    }
  }

  private static AlterConfigOp set(String name, String value) {
    return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
  }

  private static void alter(Admin admin, ConfigResource resource, List<AlterConfigOp> ops, boolean validateOnly) throws Exception {
    admin.incrementalAlterConfigs(Map.of(resource, ops), new org.apache.kafka.clients.admin.AlterConfigsOptions().validateOnly(validateOnly)).all().get(60, TimeUnit.SECONDS);
  }

  private static Json explicitConfigs(Admin admin, ConfigResource resource) throws Exception {
    return toJson(describeExplicit(admin, resource));
  }

  /**
   * The explicitly set configs once they equal `expected`, or as last seen after 15 s. An Apache Kafka (KRaft) broker
   * applies a config change from the metadata log after the controller has acknowledged it, so a describe right after
   * the alter may still show the previous configs; the result is what the broker reported, never `expected` itself.
   */
  private static Json settledConfigs(Admin admin, ConfigResource resource, Map<String, String> expected) throws Exception {
    TreeMap<String, String> wanted = new TreeMap<>(expected);
    return toJson(settled(() -> describeExplicit(admin, resource), wanted::equals));
  }

  private static TreeMap<String, String> describeExplicit(Admin admin, ConfigResource resource) throws Exception {
    Config config = admin.describeConfigs(List.of(resource)).all().get(60, TimeUnit.SECONDS).get(resource);
    TreeMap<String, String> sorted = new TreeMap<>();
    for (ConfigEntry entry : config.entries()) {
      if (entry.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG && !entry.name().startsWith("nereus.")) sorted.put(entry.name(), entry.value());
    }
    return sorted;
  }

  private static Json toJson(TreeMap<String, String> configs) {
    Json out = new Json();
    for (Map.Entry<String, String> entry : configs.entrySet()) out.put(entry.getKey(), entry.getValue());
    return out;
  }

  static String interop(Args a) throws Exception {
    String created = createTopic(a);
    String produced = produce(a);
    String consumed = consumeGroup(a);
    return new Json().putRaw("topic", created).putRaw("produce", produced).putRaw("consume", consumed).toString();
  }

  // ------------------------------------------------------------------------------------------------- perf

  static double percentile(long[] sorted, double q) {
    if (sorted.length == 0) return 0;
    int idx = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, idx))] / 1e6;
  }

  /**
   * This JVM's CPU time and JIT compilation time over one measured phase: how much of the machine the client itself
   * took (on two cores shared with the broker, that decides as much as the broker's own CPU does). -1 where the JVM
   * does not tell.
   */
  static final class ClientCost {
    private final long cpuNanosAtStart = processCpuNanos();
    private final long jitMsAtStart = jitMillis();
    private double cpuMs = -1;
    private long jitMs = -1;

    static long processCpuNanos() {
      return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
    }

    static long jitMillis() {
      CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
      return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    /** Ends the span: takes the readings again. */
    void end() {
      long cpu = processCpuNanos();
      long jit = jitMillis();
      cpuMs = cpu < 0 || cpuNanosAtStart < 0 ? -1 : (cpu - cpuNanosAtStart) / 1e6;
      jitMs = jit < 0 || jitMsAtStart < 0 ? -1 : jit - jitMsAtStart;
    }

    /** Adds {@code clientCpuMs} and {@code clientJitMs} of the ended span. */
    Json putInto(Json out) {
      return out.put("clientCpuMs", cpuMs).put("clientJitMs", jitMs);
    }
  }

  /** What one timed send loop observed: per-record send->ack latencies, the last acknowledgement, the client's cost. */
  static final class SendRun {
    final long[] latencies;
    final AtomicLong errors = new AtomicLong();
    final AtomicReference<Throwable> firstError = new AtomicReference<>();
    final AtomicLong lastAck = new AtomicLong();
    long start;
    ClientCost cost;
    /** Mean of the producer's requests-in-flight gauge, sampled every few ms from the first send to the flush's end; -1 without the gauge. */
    double inFlightMean = -1;

    SendRun(int records) {
      latencies = new long[records];
    }
  }

  /**
   * Sends {@code run.latencies.length} records to {@code topic} (at {@code rate} records/s, or as fast as the producer
   * goes when 0) and waits for every acknowledgement. The warm-up and the measured phase both run this one method,
   * so the measured phase starts with its code (send, callback, completion) already run and profiled by the JIT
   * (before, the warm-up sent without a callback).
   */
  static void sendTimed(KafkaProducer<byte[], byte[]> producer, String topic, byte[] value, double rate, SendRun run) throws InterruptedException {
    long[] latencies = run.latencies;
    InFlightSampler inFlight = InFlightSampler.start(producer);
    run.cost = new ClientCost();
    run.start = System.nanoTime();
    long start = run.start;
    for (int i = 0; i < latencies.length; i++) {
      if (rate > 0) {
        long due = start + (long) (i * 1e9 / rate);
        long now;
        while ((now = System.nanoTime()) < due) LockSupport.parkNanos(Math.min(due - now, 200_000));
      }
      final int idx = i;
      final long sent = System.nanoTime();
      producer.send(new ProducerRecord<>(topic, value), (RecordMetadata md, Exception e) -> {
        long now = System.nanoTime();
        latencies[idx] = now - sent;
        run.lastAck.accumulateAndGet(now, Math::max);
        if (e != null) {
          run.errors.incrementAndGet();
          run.firstError.compareAndSet(null, e);
        }
      });
    }
    producer.flush();
    run.cost.end();
    run.inFlightMean = inFlight.stop();
  }

  /**
   * Samples the producer's {@code requests-in-flight} gauge (Produce requests sent and not answered, on every
   * connection) every {@link #PERIOD_MS} ms on a daemon thread, so the mean number of requests in flight covers
   * exactly one send loop. The windowed {@code request-latency-avg} cannot: its samples span the last 30-60 s, the
   * end of the warm-up included. Reading one gauge is a few field reads; the thread sleeps between samples.
   */
  static final class InFlightSampler {
    static final long PERIOD_MS = 2;
    private final Thread thread;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private double sum;
    private long samples;

    private InFlightSampler(org.apache.kafka.common.Metric gauge) {
      thread = gauge == null ? null : new Thread(() -> {
        while (running.get()) {
          Object value = gauge.metricValue();
          if (value instanceof Number number) {
            sum += number.doubleValue();
            samples += 1;
          }
          LockSupport.parkNanos(PERIOD_MS * 1_000_000L);
        }
      }, "in-flight-sampler");
      if (thread != null) {
        thread.setDaemon(true);
        thread.start();
      }
    }

    static InFlightSampler start(KafkaProducer<byte[], byte[]> producer) {
      for (Map.Entry<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> metric : producer.metrics().entrySet()) {
        if (metric.getKey().group().equals("producer-metrics") && metric.getKey().name().equals("requests-in-flight")) return new InFlightSampler(metric.getValue());
      }
      return new InFlightSampler(null);
    }

    /** Stops sampling; the mean, or -1 when the producer has no such gauge or no sample was taken. */
    double stop() throws InterruptedException {
      if (thread == null) return -1;
      running.set(false);
      thread.join();
      return samples == 0 ? -1 : sum / samples;
    }
  }

  static String producePerf(Args a) throws Exception {
    String topic = a.str("topic");
    int records = (int) a.num("records");
    int size = (int) a.num("size", 1024);
    long warmup = a.num("warmup", 0);
    double rate = Double.parseDouble(a.str("rate", "0"));
    byte[] value = new byte[size];
    new java.util.Random(42).nextBytes(value);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps(a, "nereus-driver-perf-producer"))) {
      if (warmup > 0) {
        SendRun warm = new SendRun((int) warmup);
        sendTimed(producer, a.str("warmup-topic", topic + "-warmup"), value, rate, warm);
        if (warm.firstError.get() != null) throw new IllegalStateException("warm-up produce failed", warm.firstError.get());
      }
      SendRun run = new SendRun(records);
      sendTimed(producer, topic, value, rate, run);
      double seconds = (run.lastAck.get() - run.start) / 1e9;
      long[] sorted = run.latencies.clone();
      Arrays.sort(sorted);
      double mb = (double) records * size / (1024.0 * 1024.0);
      Json out = new Json().put("topic", topic).put("records", records).put("size", size).put("rate", rate).put("seconds", seconds)
          .put("mbPerSec", mb / seconds).put("recordsPerSec", records / seconds).put("p50Ms", percentile(sorted, 0.50))
          .put("p99Ms", percentile(sorted, 0.99)).put("p999Ms", percentile(sorted, 0.999)).put("maxMs", sorted[sorted.length - 1] / 1e6)
          .put("errors", run.errors.get());
      run.cost.putInto(out);
      out.put("requestsInFlightMean", run.inFlightMean);
      out.put("requestLatencyAvgMs", producerMetric(producer, "request-latency-avg"))
          .put("recordsPerRequestAvg", producerMetric(producer, "records-per-request-avg"))
          .put("batchSizeAvg", producerMetric(producer, "batch-size-avg"));
      if (run.firstError.get() != null) out.put("firstError", chain(run.firstError.get()));
      return out.toString();
    }
  }

  /**
   * A windowed metric of group producer-metrics as the producer reports it now (its last 30-60 s of samples: the
   * measured phase and the end of the warm-up), or -1 when it has none.
   */
  static double producerMetric(KafkaProducer<byte[], byte[]> producer, String name) {
    for (Map.Entry<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> metric : producer.metrics().entrySet()) {
      if (metric.getKey().group().equals("producer-metrics") && metric.getKey().name().equals(name) && metric.getValue().metricValue() instanceof Double value && !value.isNaN()) return value;
    }
    return -1;
  }

  /** What one read loop saw: records, their key+value bytes, when it started and when its last non-empty poll returned. */
  static final class ReadRun {
    final ClientCost cost = new ClientCost();
    long count;
    long bytes;
    long start;
    long last;
  }

  /**
   * Reads {@code topic} from the beginning until {@code records} records arrived or {@code timeoutMs} passed. The
   * warm-up and the measured pass both run this one method (see {@link #sendTimed}).
   */
  static ReadRun readFromBeginning(KafkaConsumer<byte[], byte[]> consumer, String topic, long records, long timeoutMs) {
    List<TopicPartition> tps = new ArrayList<>();
    for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) tps.add(new TopicPartition(topic, info.partition()));
    consumer.assign(tps);
    consumer.seekToBeginning(tps);
    ReadRun run = new ReadRun();
    run.start = System.nanoTime();
    run.last = run.start;
    long deadline = run.start + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (run.count < records && System.nanoTime() < deadline) {
      ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(500));
      for (ConsumerRecord<byte[], byte[]> r : batch) {
        run.count++;
        run.bytes += r.serializedValueSize() + Math.max(0, r.serializedKeySize());
      }
      if (!batch.isEmpty()) run.last = System.nanoTime();
    }
    run.cost.end();
    return run;
  }

  static String consumePerf(Args a) {
    String topic = a.str("topic");
    long records = a.num("records");
    long timeoutMs = a.num("timeout-ms", 120_000);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps(a, "nereus-driver-perf-consumer", null))) {
      long warmup = a.num("warmup", 0);
      // Untimed: the same consumer first reads the warm-up topic, so client and broker code paths are warm.
      if (warmup > 0) readFromBeginning(consumer, a.str("warmup-topic", topic + "-warmup"), warmup, timeoutMs);
      ReadRun run = readFromBeginning(consumer, topic, records, timeoutMs);
      double seconds = (run.last - run.start) / 1e9;
      double mb = run.bytes / (1024.0 * 1024.0);
      Json out = new Json().put("topic", topic).put("records", run.count).put("expected", records).put("bytes", run.bytes).put("seconds", seconds)
          .put("mbPerSec", seconds > 0 ? mb / seconds : 0).put("recordsPerSec", seconds > 0 ? run.count / seconds : 0).put("timedOut", run.count < records);
      return run.cost.putInto(out).toString();
    }
  }

  // ------------------------------------------------------------------------------------------------- JSON

  /** A JSON object written in insertion order (numbers, booleans, strings, nested objects). */
  static final class Json {
    private final StringBuilder sb = new StringBuilder("{");

    private Json key(String k) {
      if (sb.length() > 1) sb.append(',');
      quote(k);
      sb.append(':');
      return this;
    }

    private void quote(String s) {
      sb.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        switch (c) {
          case '"': sb.append("\\\""); break;
          case '\\': sb.append("\\\\"); break;
          case '\n': sb.append("\\n"); break;
          case '\r': sb.append("\\r"); break;
          case '\t': sb.append("\\t"); break;
          default:
            if (c < 0x20) sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            else sb.append(c);
        }
      }
      sb.append('"');
    }

    Json put(String k, String v) {
      key(k);
      quote(v);
      return this;
    }

    Json put(String k, long v) {
      key(k).sb.append(v);
      return this;
    }

    Json put(String k, double v) {
      key(k).sb.append(Double.isFinite(v) ? String.format(Locale.ROOT, "%.6f", v) : "null");
      return this;
    }

    Json put(String k, boolean v) {
      key(k).sb.append(v);
      return this;
    }

    Json put(String k, Json v) {
      key(k).sb.append(v);
      return this;
    }

    Json putRaw(String k, String rawJson) {
      key(k).sb.append(rawJson);
      return this;
    }

    @Override
    public String toString() {
      return sb + "}";
    }
  }
}
