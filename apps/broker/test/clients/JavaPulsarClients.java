// Apache Pulsar's Java client (pulsar-client-original 4.2.4, the harness's "pulsar-client" Maven set) for the
// broker's integration tests, compiled with javac at test time. Arguments after the command are key=value pairs;
// every fact goes to stdout as one line, for the test to check:
//   produce url= topic= count= [start=0 batching=true keys=0 name= delayMs=0 sendTimeoutMs=30000 batchMax=1000
//           pauseEvery=0 pauseMs=0]
//       ACK <index> <messageId> <key> <sha> per acknowledged send (in completion order), SENDFAIL <index> <error>,
//       PRODUCED <acknowledged>
//   consume url= topic= sub= type= count= [consumers=1 ack=all|none|even|odd|redelivered nack=false
//           ackTimeoutMs=0 nackDelayMs=200 dlqMax=0 batchIndexAck=false queue=1000 settleMs=500 idleMs=0
//           leaveAfter=0 leaveUnacked=0 position=earliest pauseEvery=0 pauseMs=0 until=received|acked|deliveries]
//       RECV <consumer> <index> <messageId> <key> <sha> <redeliveryCount> <ack|nack|keep> <publishTime>;
//       ACKED <consumer> <index> once the broker confirmed an ack, ACKFAIL <consumer> <index> when it did not;
//       SUBSCRIBED once every consumer subscribed; LEFT <consumer>: the first consumer to receive leaveAfter
//       messages kept the next leaveUnacked ones unacknowledged and closed; DONE <distinct> <deliveries>. It stops
//       settleMs after <count> distinct messages were received (until=acked: acknowledged; until=deliveries:
//       <count> deliveries in all), or after idleMs without a message.
//   seek url= topic= sub= seeks=<target>,... count=
//       per target (id:<ledger>:<entry>:<partition>:<batch>[:inclusive] or time:<ms>) a new consumer (built
//       startMessageIdInclusive with :inclusive) on subscription <sub>-<n> receives one message, seeks, prints
//       SEEKED <n> and RECV lines (consumer seek<n>) of the next <count> messages
// A message's index, key and payload are functions of each other (payloadOf); <sha> is the first 16 hex digits of
// the payload's SHA-256; a message id is ledger:entry:partition:batchIndex. pauseEvery/pauseMs slow a producer or
// each consumer down (a pause of pauseMs after every pauseEvery messages); sendTimeoutMs=0: sends never time out.
// Each command ends within timeoutMs (default 120000): TIMEOUT and exit status 2 otherwise.
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pulsar.client.api.BatcherBuilder;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.ClientBuilder;
import org.apache.pulsar.client.api.ConsumerBuilder;
import org.apache.pulsar.client.api.DeadLetterPolicy;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.MessageIdAdv;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.ProducerBuilder;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;
import org.apache.pulsar.client.api.TypedMessageBuilder;
import org.apache.pulsar.client.impl.BatchMessageIdImpl;
import org.apache.pulsar.client.impl.MessageIdImpl;

public final class JavaPulsarClients {
  private static final PrintStream OUT =
      new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false);

  private JavaPulsarClients() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int index = 1; index < args.length; index++) {
      int split = args[index].indexOf('=');
      options.put(args[index].substring(0, split), args[index].substring(split + 1));
    }
    Options opts = new Options(options);
    startFlusher();
    startWatchdog(opts.number("timeoutMs", 120_000));
    try (PulsarClient client = clientOf(opts)) {
      switch (args[0]) {
        case "produce" -> produce(client, opts);
        case "consume" -> consume(client, opts);
        case "seek" -> seek(client, opts);
        default -> throw new IllegalArgumentException("unknown command " + args[0]);
      }
    }
    synchronized (OUT) {
      OUT.flush();
    }
    System.exit(0);
  }

  // ---- commands ----

  static void produce(PulsarClient client, Options opts) throws Exception {
    long start = opts.number("start", 0);
    long count = opts.number("count", -1);
    int keys = (int) opts.number("keys", 0);
    boolean batching = opts.flag("batching", true);
    long delayMs = opts.number("delayMs", 0);
    ProducerBuilder<byte[]> builder = client.newProducer()
        .topic(opts.text("topic"))
        .enableBatching(batching)
        .batchingMaxMessages((int) opts.number("batchMax", 1_000))
        .batchingMaxPublishDelay(5, TimeUnit.MILLISECONDS)
        .blockIfQueueFull(true)
        .maxPendingMessages(1_000)
        .sendTimeout((int) opts.number("sendTimeoutMs", 30_000), TimeUnit.MILLISECONDS);
    if (batching && keys > 0) builder.batcherBuilder(BatcherBuilder.KEY_BASED);
    if (opts.has("name")) builder.producerName(opts.text("name"));
    AtomicInteger acknowledged = new AtomicInteger();
    List<CompletableFuture<MessageId>> sends = new ArrayList<>();
    try (Producer<byte[]> producer = builder.create()) {
      for (long index = start; index < start + count; index++) {
        long current = index;
        byte[] payload = payloadOf(index);
        String key = keys > 0 ? "k" + (index % keys) : "-";
        TypedMessageBuilder<byte[]> message = producer.newMessage().value(payload);
        if (keys > 0) message.key(key);
        CompletableFuture<MessageId> sent = message.sendAsync().whenComplete((id, error) -> {
          if (error != null) emit("SENDFAIL " + current + " " + oneLine(error));
          else {
            acknowledged.incrementAndGet();
            emit("ACK " + current + " " + idOf(id) + " " + key + " " + sha(payload));
          }
        });
        sends.add(sent);
        pause(opts, index - start + 1);
        if (delayMs > 0) {
          sent.join();
          Thread.sleep(delayMs);
        }
      }
      producer.flush();
      for (CompletableFuture<MessageId> sent : sends) sent.exceptionally(error -> null).join();
    }
    emit("PRODUCED " + acknowledged.get());
  }

  static void consume(PulsarClient client, Options opts) throws Exception {
    int consumers = (int) opts.number("consumers", 1);
    long count = opts.number("count", -1);
    long settleMs = opts.number("settleMs", 500);
    long idleMs = opts.number("idleMs", 0);
    Set<Long> distinct = ConcurrentHashMap.newKeySet();
    Set<Long> acked = ConcurrentHashMap.newKeySet();
    String until = opts.text("until", "received");
    AtomicLong deliveries = new AtomicLong();
    AtomicLong lastReceive = new AtomicLong(System.nanoTime());
    AtomicBoolean stop = new AtomicBoolean(false);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    List<Consumer<byte[]>> opened = new ArrayList<>();
    AtomicBoolean leaverChosen = new AtomicBoolean(opts.number("leaveAfter", 0) <= 0);
    for (int number = 0; number < consumers; number++) opened.add(consumerOf(client, opts, "c" + number).subscribe());
    emit("SUBSCRIBED");
    for (int number = 0; number < consumers; number++) {
      Consumer<byte[]> consumer = opened.get(number);
      String name = "c" + number;
      Thread thread = new Thread(() -> {
        try {
          receiveLoop(consumer, name, opts, leaverChosen, stop, distinct, acked, deliveries, lastReceive);
        } catch (Throwable error) {
          synchronized (failures) {
            failures.add(error);
          }
        }
      });
      thread.start();
      threads.add(thread);
    }
    long reachedAt = -1;
    while (failures.isEmpty()) {
      long now = System.nanoTime();
      long reached = switch (until) {
        case "acked" -> acked.size();
        case "deliveries" -> deliveries.get();
        default -> distinct.size();
      };
      if (reachedAt < 0 && count >= 0 && reached >= count) reachedAt = now;
      if (reachedAt >= 0 && now - reachedAt >= TimeUnit.MILLISECONDS.toNanos(settleMs)) break;
      if (idleMs > 0 && now - lastReceive.get() >= TimeUnit.MILLISECONDS.toNanos(idleMs)) break;
      Thread.sleep(20);
    }
    stop.set(true);
    for (Thread thread : threads) thread.join();
    for (Consumer<byte[]> consumer : opened) if (consumer.isConnected()) consumer.close();
    if (!failures.isEmpty()) throw new RuntimeException(failures.get(0));
    emit("DONE " + distinct.size() + " " + deliveries.get());
  }

  static void receiveLoop(
      Consumer<byte[]> consumer,
      String name,
      Options opts,
      AtomicBoolean leaverChosen,
      AtomicBoolean stop,
      Set<Long> distinct,
      Set<Long> acked,
      AtomicLong deliveries,
      AtomicLong lastReceive)
      throws Exception {
    String ackPolicy = opts.text("ack", "all");
    boolean nack = opts.flag("nack", false);
    long leaveAfter = opts.number("leaveAfter", 0);
    long leaveUnacked = opts.number("leaveUnacked", 0);
    long received = 0;
    boolean leaver = false;
    List<CompletableFuture<Void>> acks = new ArrayList<>();
    while (!stop.get()) {
      Message<byte[]> message = consumer.receive(50, TimeUnit.MILLISECONDS);
      if (message == null) continue;
      lastReceive.set(System.nanoTime());
      received++;
      if (received == leaveAfter + 1 && leaverChosen.compareAndSet(false, true)) leaver = true;
      long index = indexOf(message.getValue());
      boolean keep = leaver && received > leaveAfter;
      boolean ack = !keep && shouldAck(ackPolicy, index, message.getRedeliveryCount());
      String verdict = ack ? "ack" : nack && !keep ? "nack" : "keep";
      emit("RECV " + name + " " + index + " " + idOf(message.getMessageId()) + " "
          + (message.hasKey() ? message.getKey() : "-") + " " + sha(message.getValue()) + " "
          + message.getRedeliveryCount() + " " + verdict + " " + message.getPublishTime());
      distinct.add(index);
      if (ack) acked.add(index);
      deliveries.incrementAndGet();
      if (ack) {
        acks.add(consumer.acknowledgeAsync(message.getMessageId()).whenComplete((done, error) ->
            emit((error == null ? "ACKED " : "ACKFAIL ") + name + " " + index)));
      }
      else if (verdict.equals("nack")) consumer.negativeAcknowledge(message);
      pause(opts, received);
      if (leaver && received == leaveAfter + leaveUnacked) {
        for (CompletableFuture<Void> pending : acks) settle(pending);
        consumer.close();
        emit("LEFT " + name);
        return;
      }
    }
    for (CompletableFuture<Void> pending : acks) settle(pending);
  }

  /** Waits (bounded) for an ack; a failed one was reported as ACKFAIL already. */
  static void settle(CompletableFuture<Void> pending) throws Exception {
    try {
      pending.get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException failed) {
      // ACKFAIL was printed; the message comes back to some consumer.
    }
  }

  /** Sleeps pauseMs after every pauseEvery messages. */
  static void pause(Options opts, long done) throws InterruptedException {
    long every = opts.number("pauseEvery", 0);
    if (every > 0 && done % every == 0) Thread.sleep(opts.number("pauseMs", 0));
  }

  static boolean shouldAck(String policy, long index, int redeliveryCount) {
    return switch (policy) {
      case "all" -> true;
      case "none" -> false;
      case "even" -> index % 2 == 0;
      case "odd" -> index % 2 == 1;
      case "redelivered" -> redeliveryCount > 0;
      default -> throw new IllegalArgumentException("unknown ack policy " + policy);
    };
  }

  static ConsumerBuilder<byte[]> consumerOf(PulsarClient client, Options opts, String name) {
    ConsumerBuilder<byte[]> builder = client.newConsumer()
        .topic(opts.text("topic"))
        .subscriptionName(opts.text("sub"))
        .subscriptionType(SubscriptionType.valueOf(opts.text("type", "Exclusive")))
        .subscriptionInitialPosition(
            opts.text("position", "earliest").equals("earliest")
                ? SubscriptionInitialPosition.Earliest
                : SubscriptionInitialPosition.Latest)
        .consumerName(name)
        .receiverQueueSize((int) opts.number("queue", 1_000))
        .isAckReceiptEnabled(true)
        .enableBatchIndexAcknowledgment(opts.flag("batchIndexAck", false))
        .negativeAckRedeliveryDelay(opts.number("nackDelayMs", 200), TimeUnit.MILLISECONDS);
    long ackTimeoutMs = opts.number("ackTimeoutMs", 0);
    if (ackTimeoutMs > 0) {
      builder.ackTimeout(ackTimeoutMs, TimeUnit.MILLISECONDS).ackTimeoutTickTime(100, TimeUnit.MILLISECONDS);
    }
    long dlqMax = opts.number("dlqMax", 0);
    if (dlqMax > 0) {
      builder.deadLetterPolicy(DeadLetterPolicy.builder().maxRedeliverCount((int) dlqMax).build());
    }
    if (opts.flag("inclusive", false)) builder.startMessageIdInclusive();
    return builder;
  }

  static void seek(PulsarClient client, Options opts) throws Exception {
    long count = opts.number("count", 1);
    String[] targets = opts.text("seeks").split(",");
    for (int number = 0; number < targets.length; number++) {
      String target = targets[number];
      boolean inclusive = target.endsWith(":inclusive");
      Map<String, String> values = new HashMap<>(opts.values());
      values.put("sub", opts.text("sub") + "-" + number);
      values.put("inclusive", String.valueOf(inclusive));
      String name = "seek" + number;
      try (Consumer<byte[]> consumer = consumerOf(client, new Options(values), name).subscribe()) {
        Message<byte[]> first = consumer.receive(30, TimeUnit.SECONDS);
        if (first == null) throw new IllegalStateException("no message before seek " + number);
        if (target.startsWith("time:")) consumer.seek(Long.parseLong(target.substring("time:".length())));
        else consumer.seek(messageIdOf(target.substring("id:".length()).replace(":inclusive", "")));
        emit("SEEKED " + number);
        for (long received = 0; received < count; received++) {
          Message<byte[]> message = consumer.receive(30, TimeUnit.SECONDS);
          if (message == null) throw new IllegalStateException("no message " + received + " after seek " + number);
          emit("RECV " + name + " " + indexOf(message.getValue()) + " " + idOf(message.getMessageId()) + " "
              + (message.hasKey() ? message.getKey() : "-") + " " + sha(message.getValue()) + " "
              + message.getRedeliveryCount() + " ack " + message.getPublishTime());
          consumer.acknowledge(message);
        }
      }
    }
  }

  // ---- messages ----

  /** The payload of message `index`: "<index>:" and 8 to 64 pseudo-random bytes derived from the index. */
  static byte[] payloadOf(long index) {
    byte[] prefix = (index + ":").getBytes(StandardCharsets.US_ASCII);
    byte[] random = new byte[8 + (int) (index % 57)];
    new SplittableRandom(index * 0x9E3779B97F4A7C15L + 17).nextBytes(random);
    byte[] payload = new byte[prefix.length + random.length];
    System.arraycopy(prefix, 0, payload, 0, prefix.length);
    System.arraycopy(random, 0, payload, prefix.length, random.length);
    return payload;
  }

  static long indexOf(byte[] payload) {
    int colon = 0;
    while (payload[colon] != ':') colon++;
    return Long.parseLong(new String(payload, 0, colon, StandardCharsets.US_ASCII));
  }

  static String sha(byte[] payload) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(payload);
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (Exception error) {
      throw new IllegalStateException(error);
    }
  }

  static String idOf(MessageId id) {
    MessageIdAdv adv = (MessageIdAdv) id;
    return adv.getLedgerId() + ":" + adv.getEntryId() + ":" + adv.getPartitionIndex() + ":" + adv.getBatchIndex();
  }

  static MessageId messageIdOf(String text) {
    String[] parts = text.split(":");
    long ledger = Long.parseLong(parts[0]);
    long entry = Long.parseLong(parts[1]);
    int partition = Integer.parseInt(parts[2]);
    int batch = Integer.parseInt(parts[3]);
    return batch < 0 ? new MessageIdImpl(ledger, entry, partition) : new BatchMessageIdImpl(ledger, entry, partition, batch);
  }

  // ---- plumbing ----

  static PulsarClient clientOf(Options opts) throws Exception {
    ClientBuilder builder = PulsarClient.builder();
    // pulsar+ssl:// URLs: the broker's certificate must chain to this CA and name the host.
    String trust = opts.text("tlsTrustCertsFile", "");
    if (!trust.isEmpty()) builder.tlsTrustCertsFilePath(trust).enableTlsHostnameVerification(true);
    return builder
        .serviceUrl(opts.text("url"))
        .operationTimeout((int) opts.number("operationTimeoutMs", 30_000), TimeUnit.MILLISECONDS)
        .connectionTimeout(10, TimeUnit.SECONDS)
        .startingBackoffInterval(100, TimeUnit.MILLISECONDS)
        .maxBackoffInterval(1, TimeUnit.SECONDS)
        .build();
  }

  static void emit(String line) {
    synchronized (OUT) {
      OUT.println(line);
    }
  }

  static String oneLine(Throwable error) {
    return String.valueOf(error).replace('\n', ' ');
  }

  static void startFlusher() {
    Thread flusher = new Thread(() -> {
      for (;;) {
        synchronized (OUT) {
          OUT.flush();
        }
        try {
          Thread.sleep(50);
        } catch (InterruptedException error) {
          return;
        }
      }
    });
    flusher.setDaemon(true);
    flusher.start();
  }

  static void startWatchdog(long timeoutMs) {
    Thread watchdog = new Thread(() -> {
      try {
        Thread.sleep(timeoutMs);
      } catch (InterruptedException error) {
        return;
      }
      emit("TIMEOUT");
      synchronized (OUT) {
        OUT.flush();
      }
      Runtime.getRuntime().halt(2);
    });
    watchdog.setDaemon(true);
    watchdog.start();
  }

  record Options(Map<String, String> values) {
    boolean has(String key) {
      return values.containsKey(key);
    }

    String text(String key) {
      String value = values.get(key);
      if (value == null) throw new IllegalArgumentException("missing option " + key);
      return value;
    }

    String text(String key, String fallback) {
      return values.getOrDefault(key, fallback);
    }

    long number(String key, long fallback) {
      return values.containsKey(key) ? Long.parseLong(values.get(key)) : fallback;
    }

    boolean flag(String key, boolean fallback) {
      return values.containsKey(key) ? Boolean.parseBoolean(values.get(key)) : fallback;
    }
  }
}
