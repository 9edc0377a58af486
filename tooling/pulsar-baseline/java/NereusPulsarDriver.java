// Pulsar perf driver of the Nereus-vs-Apache-Pulsar benchmark: one program, the Java client (pulsar-client-original
// and pulsar-client-admin-original 4.2.4), identical settings for every broker. Modes:
//   create-topic  partitioned topics through the admin REST API, checked through the binary protocol's metadata
//   produce       --messages of --size bytes as fast as the producer goes (after --warmup to another topic); MB/s,
//                 msg/s and send->ack latency (queueing included)
//   consume       from the earliest position, every partition, until --messages (after reading --warmup-topic);
//                 MB/s, msg/s, and how many distinct messages came (each carries its index in its first 8 bytes)
//   latency       a fixed --rate for --seconds (after --warmup-seconds); publish latency from the moment a message is
//                 due to its acknowledgement: p50, p99, p99.9, max
// Every mode prints one JSON object as its last stdout line. A failure is one stderr line
// `pulsar-driver: <mode> failed: <exception chain>` and exit code 1.
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.api.CompressionType;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;

public final class NereusPulsarDriver {
  /** Producer settings shared by every mode and broker (the client's batching defaults, written out). */
  static final int BATCH_MAX_MESSAGES = 1000;
  static final int BATCH_MAX_BYTES = 128 * 1024;
  static final int RECEIVER_QUEUE_SIZE = 1000;

  public static void main(String[] argv) {
    String mode = argv.length == 0 ? "" : argv[0];
    try {
      Args args = new Args(Arrays.copyOfRange(argv, Math.min(1, argv.length), argv.length));
      Map<String, Object> result;
      switch (mode) {
        case "create-topic":
          result = createTopic(args);
          break;
        case "produce":
          result = produce(args);
          break;
        case "consume":
          result = consume(args);
          break;
        case "latency":
          result = latency(args);
          break;
        default:
          throw new IllegalArgumentException("unknown mode '" + mode + "' (create-topic, produce, consume, latency)");
      }
      System.out.println(toJson(result));
      System.out.flush();
      System.exit(0);
    } catch (Throwable error) {
      System.err.println("pulsar-driver: " + mode + " failed: " + chain(error));
      System.err.flush();
      System.exit(1);
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Modes.

  /** Creates each of the comma-separated --topic names as a partitioned topic of --partitions partitions. */
  static Map<String, Object> createTopic(Args args) throws Exception {
    String[] topics = args.string("topic").split(",");
    int partitions = args.integer("partitions");
    if (partitions < 1) throw new IllegalArgumentException("--partitions must be >= 1");
    try (PulsarAdmin admin = PulsarAdmin.builder().serviceHttpUrl(args.string("admin-url")).build()) {
      for (String topic : topics) admin.topics().createPartitionedTopic(topic, partitions);
    }
    try (PulsarClient client = client(args)) {
      for (String topic : topics) {
        int seen = client.getPartitionsForTopic(topic, true).get(30, TimeUnit.SECONDS).size();
        if (seen != partitions)
          throw new IllegalStateException("created " + topic + " with " + partitions + " partitions but the broker's metadata lists " + seen);
      }
      Map<String, Object> out = new HashMap<>();
      out.put("topics", topics.length);
      out.put("partitions", partitions);
      return out;
    }
  }

  static Map<String, Object> produce(Args args) throws Exception {
    String topic = args.string("topic");
    long messages = args.longValue("messages");
    int size = args.integer("size");
    long warmup = args.longValue("warmup", 0);
    long timeoutMs = args.longValue("timeout-ms", 600_000);
    checkSize(size);
    try (PulsarClient client = client(args)) {
      int partitions = client.getPartitionsForTopic(topic, true).get(30, TimeUnit.SECONDS).size();
      if (warmup > 0) {
        try (Producer<byte[]> producer = producer(client, topic + "-warmup", args)) {
          SendRun run = sendAll(producer, warmup, size, timeoutMs);
          if (run.errors.get() > 0) throw new IllegalStateException("warm-up: " + run.errors.get() + " failed sends, first: " + run.firstError.get());
        }
      }
      try (Producer<byte[]> producer = producer(client, topic, args)) {
        long cpuBefore = processCpuNanos();
        SendRun run = sendAll(producer, messages, size, timeoutMs);
        long cpuNanos = processCpuNanos() - cpuBefore;
        Map<String, Object> out = throughput(messages, (long) size * messages, run.elapsedNanos);
        out.put("partitions", partitions);
        out.put("size", size);
        out.put("errors", run.errors.get());
        out.put("firstError", run.firstError.get());
        out.put("clientCpuMs", cpuNanos / 1e6);
        percentiles(out, run.latencyMicros, run.acked.get());
        return out;
      }
    }
  }

  static Map<String, Object> consume(Args args) throws Exception {
    String topic = args.string("topic");
    long messages = args.longValue("messages");
    long timeoutMs = args.longValue("timeout-ms", 600_000);
    String subscription = args.string("subscription", "nereus-bench");
    try (PulsarClient client = client(args)) {
      int partitions = client.getPartitionsForTopic(topic, true).get(30, TimeUnit.SECONDS).size();
      String warmupTopic = args.string("warmup-topic", "");
      long warmup = args.longValue("warmup", 0);
      if (!warmupTopic.isEmpty() && warmup > 0) {
        try (Consumer<byte[]> consumer = consumer(client, warmupTopic, subscription)) {
          ReadRun run = readAll(consumer, warmup, timeoutMs);
          if (run.received < warmup) throw new IllegalStateException("warm-up: read " + run.received + " of " + warmup + " messages");
        }
      }
      try (Consumer<byte[]> consumer = consumer(client, topic, subscription)) {
        long cpuBefore = processCpuNanos();
        ReadRun run = readAll(consumer, messages, timeoutMs);
        long cpuNanos = processCpuNanos() - cpuBefore;
        Map<String, Object> out = throughput(run.received, run.bytes, run.elapsedNanos);
        out.put("partitions", partitions);
        out.put("distinct", run.distinct);
        out.put("duplicates", run.received - run.distinct);
        out.put("timedOut", run.timedOut);
        out.put("clientCpuMs", cpuNanos / 1e6);
        return out;
      }
    }
  }

  static Map<String, Object> latency(Args args) throws Exception {
    String topic = args.string("topic");
    int size = args.integer("size");
    double rate = args.doubleValue("rate");
    double seconds = args.doubleValue("seconds");
    double warmupSeconds = args.doubleValue("warmup-seconds", 2);
    checkSize(size);
    if (rate <= 0 || seconds <= 0 || warmupSeconds < 0) throw new IllegalArgumentException("--rate and --seconds must be > 0");
    long warmup = Math.round(rate * warmupSeconds);
    long measured = Math.round(rate * seconds);
    long total = warmup + measured;
    long periodNanos = Math.round(1e9 / rate);
    try (PulsarClient client = client(args); Producer<byte[]> producer = producer(client, topic, args)) {
      int partitions = client.getPartitionsForTopic(topic, true).get(30, TimeUnit.SECONDS).size();
      long[] latencyMicros = new long[(int) measured];
      AtomicLong acked = new AtomicLong();
      AtomicLong errors = new AtomicLong();
      AtomicReference<String> firstError = new AtomicReference<>();
      CountDownLatch done = new CountDownLatch((int) total);
      Payloads payloads = new Payloads(size);
      long late = 0;
      long start = System.nanoTime();
      for (long i = 0; i < total; i++) {
        long due = start + i * periodNanos;
        long now;
        while ((now = System.nanoTime()) < due) LockSupport.parkNanos(Math.min(due - now, 200_000));
        if (now - due > 1_000_000) late++;
        final long index = i;
        producer.sendAsync(payloads.next(i)).whenComplete((id, error) -> {
          long micros = (System.nanoTime() - due) / 1_000;
          if (error != null) {
            errors.incrementAndGet();
            firstError.compareAndSet(null, chain(error));
          } else if (index >= warmup) {
            latencyMicros[(int) acked.getAndIncrement()] = micros;
          }
          done.countDown();
        });
      }
      long sentNanos = System.nanoTime() - start;
      if (!done.await(120, TimeUnit.SECONDS)) throw new IllegalStateException("acknowledgements still missing 120 s after the last send");
      Map<String, Object> out = new HashMap<>();
      out.put("partitions", partitions);
      out.put("messages", measured);
      out.put("rate", rate);
      out.put("achievedRate", total / (sentNanos / 1e9));
      out.put("lateSends", late);
      out.put("errors", errors.get());
      out.put("firstError", firstError.get());
      percentiles(out, latencyMicros, (int) acked.get());
      return out;
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Clients.

  static PulsarClient client(Args args) throws Exception {
    return PulsarClient.builder()
        .serviceUrl(args.string("service-url"))
        .operationTimeout(30, TimeUnit.SECONDS)
        .build();
  }

  static Producer<byte[]> producer(PulsarClient client, String topic, Args args) throws Exception {
    return client.newProducer()
        .topic(topic)
        .enableBatching(true)
        .batchingMaxPublishDelay(args.longValue("batch-delay-us", 1_000), TimeUnit.MICROSECONDS)
        .batchingMaxMessages(BATCH_MAX_MESSAGES)
        .batchingMaxBytes(BATCH_MAX_BYTES)
        .maxPendingMessages(args.integer("max-pending", 10_000))
        .blockIfQueueFull(true)
        .compressionType(CompressionType.NONE)
        .sendTimeout(30, TimeUnit.SECONDS)
        .create();
  }

  static Consumer<byte[]> consumer(PulsarClient client, String topic, String subscription) throws Exception {
    return client.newConsumer()
        .topic(topic)
        .subscriptionName(subscription)
        .subscriptionType(SubscriptionType.Exclusive)
        .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
        .receiverQueueSize(RECEIVER_QUEUE_SIZE)
        .subscribe();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Sending and reading.

  static final class SendRun {
    long[] latencyMicros;
    final AtomicLong acked = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicReference<String> firstError = new AtomicReference<>();
    long elapsedNanos;
  }

  /** Sends `count` messages as fast as the producer takes them; waits for every acknowledgement. */
  static SendRun sendAll(Producer<byte[]> producer, long count, int size, long timeoutMs) throws Exception {
    SendRun run = new SendRun();
    run.latencyMicros = new long[(int) count];
    CountDownLatch done = new CountDownLatch((int) count);
    Payloads payloads = new Payloads(size);
    long start = System.nanoTime();
    for (long i = 0; i < count; i++) {
      long sent = System.nanoTime();
      CompletableFuture<?> future = producer.sendAsync(payloads.next(i));
      future.whenComplete((id, error) -> {
        long micros = (System.nanoTime() - sent) / 1_000;
        if (error != null) {
          run.errors.incrementAndGet();
          run.firstError.compareAndSet(null, chain(error));
        } else {
          run.latencyMicros[(int) run.acked.getAndIncrement()] = micros;
        }
        done.countDown();
      });
    }
    if (!done.await(timeoutMs, TimeUnit.MILLISECONDS))
      throw new IllegalStateException(done.getCount() + " of " + count + " sends unacknowledged after " + timeoutMs + " ms");
    run.elapsedNanos = System.nanoTime() - start;
    return run;
  }

  static final class ReadRun {
    long received;
    long distinct;
    long bytes;
    long elapsedNanos;
    boolean timedOut;
  }

  /** Receives until `count` distinct messages came (or the deadline), acknowledging each. */
  static ReadRun readAll(Consumer<byte[]> consumer, long count, long timeoutMs) throws Exception {
    ReadRun run = new ReadRun();
    BitSet seen = new BitSet();
    long start = System.nanoTime();
    long deadline = start + timeoutMs * 1_000_000L;
    while (run.distinct < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        run.timedOut = true;
        break;
      }
      Message<byte[]> message = consumer.receive((int) Math.min(left / 1_000_000L + 1, Integer.MAX_VALUE), TimeUnit.MILLISECONDS);
      if (message == null) continue;
      byte[] value = message.getValue();
      run.received++;
      run.bytes += value.length;
      long index = value.length >= 8 ? readLong(value) : -1;
      if (index >= 0 && index < Integer.MAX_VALUE && !seen.get((int) index)) {
        seen.set((int) index);
        run.distinct++;
      }
      consumer.acknowledgeAsync(message.getMessageId());
    }
    run.elapsedNanos = System.nanoTime() - start;
    return run;
  }

  /** Message values: the index in the first 8 bytes, then bytes of a random pool at an offset that moves. */
  static final class Payloads {
    final int size;
    final byte[] pool = new byte[1 << 16];

    Payloads(int size) {
      this.size = size;
      new Random(42).nextBytes(pool);
    }

    byte[] next(long index) {
      byte[] value = new byte[size];
      int offset = (int) ((index * 7919) % (pool.length - size + 8));
      System.arraycopy(pool, offset, value, 8, size - 8);
      for (int b = 0; b < 8; b++) value[b] = (byte) (index >>> (56 - 8 * b));
      return value;
    }
  }

  static long readLong(byte[] value) {
    long v = 0;
    for (int b = 0; b < 8; b++) v = (v << 8) | (value[b] & 0xff);
    return v;
  }

  static void checkSize(int size) {
    if (size < 8 || size > 60_000) throw new IllegalArgumentException("--size must be in [8, 60000] (the first 8 bytes carry the index)");
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Figures and output.

  static Map<String, Object> throughput(long messages, long bytes, long elapsedNanos) {
    double seconds = elapsedNanos / 1e9;
    Map<String, Object> out = new HashMap<>();
    out.put("messages", messages);
    out.put("bytes", bytes);
    out.put("seconds", seconds);
    out.put("mbPerSec", bytes / 1e6 / seconds);
    out.put("msgPerSec", messages / seconds);
    return out;
  }

  static void percentiles(Map<String, Object> out, long[] micros, long count) {
    long[] sorted = Arrays.copyOf(micros, (int) count);
    Arrays.sort(sorted);
    out.put("p50Ms", percentile(sorted, 0.50));
    out.put("p99Ms", percentile(sorted, 0.99));
    out.put("p999Ms", percentile(sorted, 0.999));
    out.put("maxMs", sorted.length == 0 ? 0.0 : sorted[sorted.length - 1] / 1000.0);
  }

  static double percentile(long[] sorted, double q) {
    if (sorted.length == 0) return 0;
    int index = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1000.0;
  }

  static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
    if (bean instanceof com.sun.management.OperatingSystemMXBean)
      return ((com.sun.management.OperatingSystemMXBean) bean).getProcessCpuTime();
    return 0;
  }

  static String chain(Throwable error) {
    List<String> parts = new ArrayList<>();
    for (Throwable t = error; t != null && parts.size() < 6; t = t.getCause()) {
      String message = t.getMessage();
      parts.add(t.getClass().getName() + (message == null ? "" : ": " + message.replace('\n', ' ')));
    }
    return String.join(" <- ", parts);
  }

  static String toJson(Map<String, Object> map) {
    StringBuilder out = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, Object> entry : new java.util.TreeMap<>(map).entrySet()) {
      if (!first) out.append(',');
      first = false;
      out.append(quote(entry.getKey())).append(':');
      Object value = entry.getValue();
      if (value == null) out.append("null");
      else if (value instanceof Double) {
        double d = (Double) value;
        out.append(Double.isFinite(d) ? String.format(Locale.ROOT, "%.6f", d) : "null");
      } else if (value instanceof Number || value instanceof Boolean) out.append(value);
      else out.append(quote(value.toString()));
    }
    return out.append('}').toString();
  }

  static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }

  /** `--name value` pairs. */
  static final class Args {
    final Map<String, String> values = new HashMap<>();

    Args(String[] argv) {
      for (int i = 0; i < argv.length; i += 2) {
        if (!argv[i].startsWith("--") || i + 1 >= argv.length)
          throw new IllegalArgumentException("arguments are --name value pairs, got '" + argv[i] + "'");
        values.put(argv[i].substring(2), argv[i + 1]);
      }
    }

    String string(String name) {
      String value = values.get(name);
      if (value == null) throw new IllegalArgumentException("--" + name + " is required");
      return value;
    }

    String string(String name, String fallback) {
      return values.getOrDefault(name, fallback);
    }

    int integer(String name) {
      return Integer.parseInt(string(name));
    }

    int integer(String name, int fallback) {
      return values.containsKey(name) ? integer(name) : fallback;
    }

    long longValue(String name) {
      return Long.parseLong(string(name));
    }

    long longValue(String name, long fallback) {
      return values.containsKey(name) ? longValue(name) : fallback;
    }

    double doubleValue(String name) {
      return Double.parseDouble(string(name));
    }

    double doubleValue(String name, double fallback) {
      return values.containsKey(name) ? doubleValue(name) : fallback;
    }
  }
}
