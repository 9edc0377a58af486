// `pnpm bench`: Nereus (embedded default: filesystem objects + SQLite, profile OBJECT_WAL_SYNC_OBJECT) against
// Apache Kafka 4.1.1 (KRaft single node) on this machine, in the same run, with the same client: the Java
// kafka-clients driver with identical settings (acks=all, idempotent, linger.ms=5, batch.size=64 KiB, no
// compression). The brokers run one at a time (never both during a measurement) and, with --rounds > 1, alternate
// (K, N, K, N, ...); each figure is the median over the rounds. Phases per broker and round:
//   1. produce throughput: --records records of --size bytes as fast as the producer goes (after --warmup
//      records to another topic); MB/s, and send->ack latency p50/p99 (queueing included, as kafka-producer-perf-test
//      reports it);
//   2. consume throughput: one consumer reads the --warmup records of the warm-up topic (untimed, so client and broker
//      code paths are warm, as in phase 1), then those records from the beginning; MB/s;
//   3. produce latency at a fixed rate: --latency-records records at --rate records/s (below both brokers' limits);
//      send->ack p50/p99.
// Around phases 1 and 2 it reads the broker process's CPU time (/proc) and reports broker CPU ms per MB moved, a
// steadier figure than MB/s on a machine whose speed drifts (and on two cores the one that decides throughput); the
// driver reports its own JVM's CPU and JIT compilation time over each measured phase (client CPU ms per MB: the
// share of the two cores the client took, against either broker).
// Prints a table with Nereus/Kafka ratios (throughput: > 1 means Nereus is faster; latency and CPU: > 1 means
// Nereus is slower / uses more). `--kafka-durability fsync` adds a second Apache Kafka baseline that flushes its log
// after every append (`log.flush.interval.messages=1`: the produce request is answered only after fsync, as the
// Nereus default acknowledges), and every Nereus column gets a ratio against it too: the equal-durability figure.
import os from "node:os";
import { performance } from "node:perf_hooks";
import {
  type ApacheKafka,
  type BrokerEntry,
  type ConsumePerfResult,
  type JavaDriver,
  type NereusBroker,
  type ProducePerfResult,
  busyFraction,
  describeFreshMemory,
  describePageReporting,
  describeWakeRoundTrip,
  freshMemoryTouchRate,
  javaDriver,
  kafkaJars,
  machineCpuTicks,
  mainThreadCpuSeconds,
  pageReportingParameters,
  processCpuSeconds,
  runDriver,
  startApacheKafka,
  startNereusBroker,
  threadWakeRoundTrip,
} from "../src/index.js";

interface Settings {
  records: number;
  size: number;
  warmup: number;
  rate: number;
  latencyRecords: number;
  partitions: number;
  rounds: number;
  entry: BrokerEntry;
  profiles: string[];
  durabilities: string[];
  /** Also measure Apache Kafka flushing every append (fsync before the produce response). */
  kafkaFsync: boolean;
  kafkaHeapMb: number;
  /** Measure only these brokers (`kafka`, `nereus`); both by default. Ratios need both. */
  only: "kafka" | "nereus" | undefined;
  /** Consume phases per round (each reads the produced records from the beginning); the round reports their median. */
  consumes: number;
  /** Skip phase 3 (fixed-rate latency). */
  skipLatency: boolean;
  /** Extra node flags of the Nereus broker (profiling). */
  nereusNodeFlags: string[];
  /** Flags added to every Nereus broker's own command line (`--nereus-broker-flag`, `--name=value`). */
  nereusBrokerFlags: string[];
}

/** server.properties of the equal-durability Kafka baseline: flush (fsync) the log after every append. */
const KAFKA_FSYNC_CONFIG = { "log.flush.interval.messages": 1 } as const;

function parseArgs(argv: readonly string[]): Settings {
  const settings: Settings = {
    // 400,000 records: a consume pass of 200,000 lasted 0.3-0.5 s once the client was warm, too short to time.
    records: 400_000,
    size: 1024,
    // 1,000,000: after only 200,000 the client's JIT still compiled through the measured phases (it reports its
    // compilation time now) and held both brokers' consume down.
    warmup: 1_000_000,
    rate: 1_000,
    latencyRecords: 10_000,
    partitions: 1,
    rounds: 1,
    entry: "source",
    profiles: [],
    durabilities: [],
    kafkaFsync: false,
    kafkaHeapMb: 512,
    only: undefined,
    consumes: 1,
    skipLatency: false,
    nereusNodeFlags: [],
    nereusBrokerFlags: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    const value = argv[i + 1];
    if (name === "--") continue;
    if (name === "--skip-latency") {
      settings.skipLatency = true;
      continue;
    }
    if (value === undefined) throw new Error(`missing value of ${String(name)}`);
    i += 1;
    const numeric = Number(value);
    switch (name) {
      case "--records":
        settings.records = numeric;
        break;
      case "--size":
        settings.size = numeric;
        break;
      case "--warmup":
        settings.warmup = numeric;
        break;
      case "--rate":
        settings.rate = numeric;
        break;
      case "--latency-records":
        settings.latencyRecords = numeric;
        break;
      case "--partitions":
        settings.partitions = numeric;
        break;
      case "--rounds":
        settings.rounds = numeric;
        break;
      case "--consumes":
        settings.consumes = numeric;
        break;
      case "--only":
        if (value !== "kafka" && value !== "nereus") throw new Error(`--only is kafka or nereus, not ${value}`);
        settings.only = value;
        break;
      case "--nereus-node-flag":
        settings.nereusNodeFlags.push(value);
        break;
      case "--nereus-broker-flag":
        if (!/^--[a-z0-9-]+=/.test(value))
          throw new Error(`--nereus-broker-flag takes one broker flag with its value, as --name=value, not ${value}`);
        settings.nereusBrokerFlags.push(value);
        break;
      case "--kafka-heap-mb":
        settings.kafkaHeapMb = numeric;
        break;
      case "--entry":
        if (value !== "source" && value !== "dist") throw new Error(`--entry is source or dist, not ${value}`);
        settings.entry = value;
        break;
      case "--profile":
        settings.profiles.push(value);
        break;
      case "--durability":
        if (value !== "fsync" && value !== "os-buffered")
          throw new Error(`--durability is fsync or os-buffered, not ${value}`);
        settings.durabilities.push(value);
        break;
      case "--kafka-durability":
        if (value !== "fsync")
          throw new Error(`--kafka-durability is fsync (the default Kafka baseline is always measured), not ${value}`);
        settings.kafkaFsync = true;
        break;
      default:
        throw new Error(
          `unknown option ${String(name)} (known: --records --size --warmup --rate --latency-records --partitions --rounds --consumes --only --skip-latency --nereus-node-flag --nereus-broker-flag --kafka-heap-mb --entry --profile --durability --kafka-durability)`,
        );
    }
    if (
      ![
        "--entry",
        "--profile",
        "--durability",
        "--kafka-durability",
        "--only",
        "--nereus-node-flag",
        "--nereus-broker-flag",
      ].includes(name ?? "") &&
      !(Number.isFinite(numeric) && numeric > 0)
    )
      throw new Error(`${name} must be a positive number`);
  }
  return settings;
}

/** One broker's figures in one round. */
interface Figures {
  produceMBs: number;
  produceP50Ms: number;
  produceP99Ms: number;
  consumeMBs: number;
  /** Broker CPU ms per MB produced / consumed (warmup records included in both). */
  produceCpuMsPerMB: number;
  consumeCpuMsPerMB: number;
  /** The Java client's CPU ms per MB over the measured produce / consume (warm-up excluded). */
  clientProduceCpuMsPerMB: number;
  clientConsumeCpuMsPerMB: number;
  fixedRateP50Ms: number;
  fixedRateP99Ms: number;
  fixedRateP999Ms: number;
  /** The producer's mean requests in flight over the measured produce (NaN without its metrics). */
  producerInFlight: number;
}

interface Target {
  readonly name: string;
  /** Whether the process's main thread is its event loop (Nereus: yes; the JVM's main thread only waits). */
  readonly mainThreadIsEventLoop: boolean;
  start(): Promise<{ bootstrap: string; pid: number; stop: () => Promise<void>; diagnostics?: () => Promise<string> }>;
}

/** Sum of the samples of `metric` (a full sample name such as `x_sum`) whose labels contain `labelFilter`. */
function sample(text: string, metric: string, labelFilter = ""): number {
  let total = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(metric)) continue;
    const rest = line.slice(metric.length);
    if (rest[0] !== " " && rest[0] !== "{") continue;
    if (!rest.includes(labelFilter)) continue;
    total += Number(rest.slice(rest.lastIndexOf(" ") + 1));
  }
  return total;
}

/**
 * Upper bound of the histogram bucket that holds the median of `metric` (a histogram's base name) over the samples
 * whose labels contain `labelFilter`: the smallest `le` whose cumulative count reaches half the total.
 */
function medianBound(text: string, metric: string, labelFilter: string): number {
  const buckets: Array<{ le: number; count: number }> = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${metric}_bucket{`) || !line.includes(labelFilter)) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    if (le === undefined) continue;
    buckets.push({
      le: le === "+Inf" ? Number.POSITIVE_INFINITY : Number(le),
      count: Number(line.slice(line.lastIndexOf(" ") + 1)),
    });
  }
  buckets.sort((a, b) => a.le - b.le);
  const total = buckets.at(-1)?.count ?? 0;
  return buckets.find((bucket) => total > 0 && bucket.count >= total / 2)?.le ?? Number.NaN;
}

/**
 * How busy the machine and the broker's event loop were over a produce phase (warm-up included): a machine left
 * partly idle means the phase was bound by latency (disk syncs, thread wake-ups, the producer's window), one busy
 * near 100 % means it was bound by CPU. The event loop's share (the Nereus broker's main thread) is left out when
 * `eventLoopShare` is undefined (a JVM broker has none).
 */
function describeUtilization(machineBusy: number, eventLoopShare: number | undefined): string {
  const percent = (fraction: number): string =>
    Number.isFinite(fraction) ? `${(fraction * 100).toFixed(0)} %` : "n/a";
  return (
    `machine busy ${percent(machineBusy)} of ${String(os.cpus().length)} CPUs` +
    (eventLoopShare === undefined ? "" : `, broker event loop ${percent(eventLoopShare)}`)
  );
}

/** One line from the Nereus broker's /metrics: where a produce spends its time and how appends batch into objects. */
function nereusDiagnostics(metrics: string): string {
  const appends = sample(metrics, "nereus_append_duration_seconds_count");
  const appendSum = sample(metrics, "nereus_append_duration_seconds_sum");
  const produces = sample(metrics, "nereus_kafka_request_duration_seconds_count", "Produce");
  const produceSum = sample(metrics, "nereus_kafka_request_duration_seconds_sum", "Produce");
  const fetches = sample(metrics, "nereus_kafka_request_duration_seconds_count", "Fetch");
  const fetchSum = sample(metrics, "nereus_kafka_request_duration_seconds_sum", "Fetch");
  const objects = sample(metrics, "nereus_wal_objects_total");
  const objectBytes = sample(metrics, "nereus_wal_object_bytes_total");
  const mean = (sum: number, count: number): string => (count > 0 ? `${((sum / count) * 1000).toFixed(1)} ms` : "n/a");
  const medianOf = (api: string): string => {
    const bound = medianBound(metrics, "nereus_kafka_request_duration_seconds", `api="${api}"`);
    return Number.isFinite(bound) ? `median <= ${String(bound * 1000)} ms` : "median n/a";
  };
  // The embedded stores' I/O threads (nereus_storage_io_seconds): mean per step, in the order an append meets them,
  // then the reads (Fetch misses of the broker's caches).
  const steps = [
    "segment_write",
    "segment_sync",
    "sqlite_gate_wait",
    "sqlite_round",
    "sqlite_wal_sync",
    "object_read",
    "object_read_hot",
  ]
    .map((step) => {
      const count = sample(metrics, "nereus_storage_io_seconds_count", `step="${step}"`);
      return count > 0
        ? `${step} ${((sample(metrics, "nereus_storage_io_seconds_sum", `step="${step}"`) / count) * 1000).toFixed(2)} ms x ${String(count)}`
        : undefined;
    })
    .filter((step) => step !== undefined);
  // The main thread's collections over the broker's life (nereus_gc_pause_seconds): count and total pause per kind.
  const collections = ["minor", "major", "incremental"]
    .map((kind) => {
      const count = sample(metrics, "nereus_gc_pause_seconds_count", `kind="${kind}"`);
      return count > 0
        ? `${kind} ${String(count)} (${(sample(metrics, "nereus_gc_pause_seconds_sum", `kind="${kind}"`) * 1000).toFixed(0)} ms)`
        : undefined;
    })
    .filter((kind) => kind !== undefined);
  return (
    `${String(appends)} appends (mean ${mean(appendSum, appends)} call->ack), ${String(produces)} Produce requests (mean ${mean(produceSum, produces)}, ${medianOf("Produce")}), ` +
    `${String(fetches)} Fetch requests (mean ${mean(fetchSum, fetches)} with the long polls at the log end, ${medianOf("Fetch")}), ${String(objects)} WAL objects (mean ${objects > 0 ? (objectBytes / objects / 1024).toFixed(0) : "n/a"} KiB, ` +
    `${objects > 0 ? (appends / objects).toFixed(1) : "n/a"} appends/object)` +
    (steps.length > 0 ? `; I/O threads: ${steps.join(", ")}` : "") +
    (collections.length > 0 ? `; main-thread GC: ${collections.join(", ")}` : "")
  );
}

const log = (line: string): void => {
  process.stdout.write(`[bench] ${line}\n`);
};

function assertClean(what: string, result: ProducePerfResult): void {
  if (result.errors > 0)
    throw new Error(`${what}: ${String(result.errors)} send errors, first: ${result.firstError ?? "?"}`);
}

/** Phase 3: `--latency-records` records at `--rate` records/s. */
function fixedRateProduce(
  driver: JavaDriver,
  bootstrap: string,
  topic: string,
  warmupTopic: string,
  settings: Settings,
): Promise<ProducePerfResult> {
  return runDriver<ProducePerfResult>(
    driver,
    "produce-perf",
    {
      bootstrap,
      topic,
      records: settings.latencyRecords,
      size: settings.size,
      rate: settings.rate,
      warmup: 2_000,
      "warmup-topic": warmupTopic,
    },
    { timeoutMs: 900_000 },
  );
}

async function measure(driver: JavaDriver, target: Target, settings: Settings, round: number): Promise<Figures> {
  const broker = await target.start();
  try {
    const topic = `perf-${String(round)}`;
    const latencyTopic = `latency-${String(round)}`;
    const bootstrap = broker.bootstrap;
    for (const t of [topic, latencyTopic, `${topic}-warmup`])
      await runDriver(driver, "create-topic", { bootstrap, topic: t, partitions: settings.partitions });
    const megabytes = (records: number): number => (records * settings.size) / 1e6;
    const cpuBeforeProduce = processCpuSeconds(broker.pid);
    const mainBeforeProduce = mainThreadCpuSeconds(broker.pid);
    const machineBeforeProduce = machineCpuTicks();
    const produceStarted = performance.now();
    const produced = await runDriver<ProducePerfResult>(
      driver,
      "produce-perf",
      { bootstrap, topic, records: settings.records, size: settings.size, warmup: settings.warmup },
      { timeoutMs: 900_000 },
    );
    const produceSeconds = (performance.now() - produceStarted) / 1000;
    const produceCpuMsPerMB =
      ((processCpuSeconds(broker.pid) - cpuBeforeProduce) * 1000) / megabytes(settings.records + settings.warmup);
    const mainThreadShare = target.mainThreadIsEventLoop
      ? (mainThreadCpuSeconds(broker.pid) - mainBeforeProduce) / produceSeconds
      : undefined;
    const utilization = describeUtilization(busyFraction(machineBeforeProduce, machineCpuTicks()), mainThreadShare);
    assertClean(`${target.name} produce`, produced);
    const clientProduceCpuMsPerMB = clientCpuMsPerMB(produced.clientCpuMs, megabytes(settings.records));
    log(
      `${target.name}: produce ${produced.mbPerSec.toFixed(2)} MB/s, p50 ${produced.p50Ms.toFixed(1)} ms, p99 ${produced.p99Ms.toFixed(1)} ms (${produced.seconds.toFixed(1)} s), broker CPU ${produceCpuMsPerMB.toFixed(1)} ms/MB, ` +
        `client CPU ${clientProduceCpuMsPerMB.toFixed(1)} ms/MB (JIT ${String(produced.clientJitMs)} ms); ${utilization}; ${describeProducerRequests(produced)}`,
    );
    const consumeRates: number[] = [];
    const consumeCpu: number[] = [];
    const consumeClientCpu: number[] = [];
    for (let pass = 1; pass <= settings.consumes; pass++) {
      const cpuBeforeConsume = processCpuSeconds(broker.pid);
      const consumed = await runDriver<ConsumePerfResult>(
        driver,
        "consume-perf",
        {
          bootstrap,
          topic,
          records: settings.records,
          "timeout-ms": 600_000,
          warmup: settings.warmup,
          "warmup-topic": `${topic}-warmup`,
        },
        { timeoutMs: 900_000 },
      );
      if (consumed.timedOut)
        throw new Error(
          `${target.name} consume: only ${String(consumed.records)} of ${String(settings.records)} records`,
        );
      const cpuMsPerMB =
        ((processCpuSeconds(broker.pid) - cpuBeforeConsume) * 1000) / megabytes(settings.records + settings.warmup);
      const clientMsPerMB = clientCpuMsPerMB(consumed.clientCpuMs, megabytes(settings.records));
      consumeRates.push(consumed.mbPerSec);
      consumeCpu.push(cpuMsPerMB);
      consumeClientCpu.push(clientMsPerMB);
      const which = settings.consumes > 1 ? ` (pass ${String(pass)})` : "";
      log(
        `${target.name}: consume${which} ${consumed.mbPerSec.toFixed(2)} MB/s (${consumed.seconds.toFixed(1)} s), broker CPU ${cpuMsPerMB.toFixed(1)} ms/MB, ` +
          `client CPU ${clientMsPerMB.toFixed(1)} ms/MB (JIT ${String(consumed.clientJitMs)} ms)`,
      );
    }
    const consumeMBs = median(consumeRates);
    const consumeCpuMsPerMB = median(consumeCpu);
    const clientConsumeCpuMsPerMB = median(consumeClientCpu);
    const paced = settings.skipLatency
      ? undefined
      : await fixedRateProduce(driver, bootstrap, latencyTopic, `${topic}-warmup`, settings);
    if (paced !== undefined) {
      assertClean(`${target.name} fixed-rate produce`, paced);
      log(
        `${target.name}: ${String(settings.rate)} records/s: p50 ${paced.p50Ms.toFixed(2)} ms, p99 ${paced.p99Ms.toFixed(2)} ms, p99.9 ${paced.p999Ms.toFixed(2)} ms`,
      );
    }
    if (broker.diagnostics !== undefined)
      log(
        `${target.name}: ${await broker.diagnostics().catch((error: unknown) => `no diagnostics: ${String(error)}`)}`,
      );
    return {
      produceMBs: produced.mbPerSec,
      produceP50Ms: produced.p50Ms,
      produceP99Ms: produced.p99Ms,
      consumeMBs,
      produceCpuMsPerMB,
      consumeCpuMsPerMB,
      clientProduceCpuMsPerMB,
      clientConsumeCpuMsPerMB,
      fixedRateP50Ms: paced?.p50Ms ?? Number.NaN,
      fixedRateP99Ms: paced?.p99Ms ?? Number.NaN,
      fixedRateP999Ms: paced?.p999Ms ?? Number.NaN,
      producerInFlight: requestsInFlight(produced) ?? Number.NaN,
    };
  } finally {
    await broker.stop();
  }
}

/** The driver's CPU ms per MB of a measured phase; NaN (printed "n/a") when the JVM did not report its CPU time. */
function clientCpuMsPerMB(clientCpuMs: number, megabytes: number): number {
  return clientCpuMs < 0 ? Number.NaN : clientCpuMs / megabytes;
}

/**
 * The producer's view of its Produce requests: the mean number in flight over the measured send loop (its sampled
 * `requests-in-flight` gauge; by Little's law from its windowed round trip when the client has no gauge), the round
 * trip over the same loop (Little's law: in flight over requests per second), requests per second and batch bytes.
 * Against the 5 the client allows on its one connection, that tells a window-bound producer (throughput = 5 requests
 * per round trip) from one held back elsewhere.
 */
function describeProducerRequests(produced: ProducePerfResult): string {
  const inFlight = requestsInFlight(produced);
  if (inFlight === undefined) return "producer request metrics n/a";
  const requestsPerSec = produced.recordsPerSec / produced.recordsPerRequestAvg;
  const roundTripMs =
    produced.requestsInFlightMean >= 0 ? (inFlight / requestsPerSec) * 1000 : produced.requestLatencyAvgMs;
  const batchKiB = produced.batchSizeAvg < 0 ? "n/a" : (produced.batchSizeAvg / 1024).toFixed(1);
  const held =
    inFlight < WINDOW_BOUND_IN_FLIGHT
      ? ` (under ${String(WINDOW_BOUND_IN_FLIGHT)} in flight: the producer did not keep its window of ${String(PRODUCER_WINDOW)} full, so its own pace or CPU set this rate, not the broker's round trip)`
      : "";
  return `producer requests: round trip ${roundTripMs.toFixed(2)} ms, ${requestsPerSec.toFixed(0)}/s, ${inFlight.toFixed(2)} in flight, batches ${batchKiB} KiB${held}`;
}

/** The driver's `max.in.flight.requests.per.connection` (NereusKafkaDriver.java). */
const PRODUCER_WINDOW = 5;

/** Below this many requests in flight on average, a produce round was not bound by the producer's window. */
const WINDOW_BOUND_IN_FLIGHT = 4.5;

/**
 * Mean requests in flight over the measured send loop (see describeProducerRequests): the sampled gauge, else
 * Little's law from the client's windowed round trip; undefined without the client's metrics.
 */
function requestsInFlight(produced: ProducePerfResult): number | undefined {
  if (produced.recordsPerRequestAvg <= 0) return undefined;
  if (produced.requestsInFlightMean >= 0) return produced.requestsInFlightMean;
  if (produced.requestLatencyAvgMs < 0) return undefined;
  return (produced.recordsPerSec / produced.recordsPerRequestAvg) * (produced.requestLatencyAvgMs / 1000);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
}

function medianFigures(rounds: readonly Figures[]): Figures {
  const pick = (key: keyof Figures): number => median(rounds.map((r) => r[key]));
  return {
    produceMBs: pick("produceMBs"),
    producerInFlight: pick("producerInFlight"),
    produceP50Ms: pick("produceP50Ms"),
    produceP99Ms: pick("produceP99Ms"),
    consumeMBs: pick("consumeMBs"),
    produceCpuMsPerMB: pick("produceCpuMsPerMB"),
    consumeCpuMsPerMB: pick("consumeCpuMsPerMB"),
    clientProduceCpuMsPerMB: pick("clientProduceCpuMsPerMB"),
    clientConsumeCpuMsPerMB: pick("clientConsumeCpuMsPerMB"),
    fixedRateP50Ms: pick("fixedRateP50Ms"),
    fixedRateP99Ms: pick("fixedRateP99Ms"),
    fixedRateP999Ms: pick("fixedRateP999Ms"),
  };
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(" | ")} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? `${"-".repeat(w + 1)}-` : `${"-".repeat(w + 1)}:`)).join("|")}|`,
    ...rows.map(line),
  ].join("\n");
}

async function main(): Promise<void> {
  const settings = parseArgs(process.argv.slice(2));
  const driver = await javaDriver(log);
  const kafkaVersion = (await kafkaJars(log)).version;
  const kafkaTarget = (name: string, config: Readonly<Record<string, number>>): Target => ({
    name,
    mainThreadIsEventLoop: false,
    start: async () => {
      const kafka: ApacheKafka = await startApacheKafka({ log, heapMb: settings.kafkaHeapMb, config });
      return { bootstrap: kafka.bootstrap, pid: kafka.pid, stop: () => kafka.stop() };
    },
  });
  const kafkaTargets: Target[] = [
    kafkaTarget(`Apache Kafka ${kafkaVersion}`, {}),
    ...(settings.kafkaFsync ? [kafkaTarget(`Apache Kafka ${kafkaVersion} (fsync)`, KAFKA_FSYNC_CONFIG)] : []),
  ];
  const targets: Target[] = settings.only === "nereus" ? [] : [...kafkaTargets];
  const variants: Array<{ name: string; args: string[] }> = [
    { name: "Nereus (embedded default)", args: [] },
    ...settings.profiles.map((profile) => ({ name: `Nereus ${profile}`, args: ["--default-profile", profile] })),
    ...settings.durabilities.map((durability) => ({
      name: `Nereus (${durability})`,
      args: ["--durability", durability],
    })),
  ];
  const nereusTargets = variants.map(({ name, args }): Target => ({
    name,
    mainThreadIsEventLoop: true,
    start: async () => {
      const broker: NereusBroker = await startNereusBroker({
        log,
        entry: settings.entry,
        args: [...args, ...settings.nereusBrokerFlags],
        nodeFlags: settings.nereusNodeFlags,
      });
      return {
        bootstrap: broker.bootstrap,
        pid: broker.pid,
        stop: () => broker.stop(),
        diagnostics: async () => nereusDiagnostics(await broker.metrics()),
      };
    },
  }));
  if (settings.only !== "kafka") targets.push(...nereusTargets);

  log(
    `machine: ${String(os.cpus().length)} CPUs (${os.cpus()[0]?.model ?? "?"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(
        " ",
      )}; node ${process.version}; kafka-clients ${kafkaVersion}; ${describePageReporting(pageReportingParameters())}; ${describeWakeRoundTrip(await threadWakeRoundTrip())}`,
  );
  log(
    `settings: ${String(settings.records)} records x ${String(settings.size)} B, ${String(settings.partitions)} partition(s), warmup ${String(settings.warmup)}, fixed rate ${String(settings.rate)}/s x ${String(settings.latencyRecords)}, ${String(settings.rounds)} round(s), Nereus from ${settings.entry}${settings.kafkaFsync ? ", Kafka also with log.flush.interval.messages=1" : ""}` +
      `${settings.nereusNodeFlags.length > 0 ? `, Nereus node flags ${settings.nereusNodeFlags.join(" ")}` : ""}${settings.nereusBrokerFlags.length > 0 ? `, Nereus broker flags ${settings.nereusBrokerFlags.join(" ")}` : ""}`,
  );
  const results = new Map<string, Figures[]>();
  for (let round = 1; round <= settings.rounds; round++) {
    for (const target of targets) {
      // The guest's free page reporting settings and how warm its free memory is change while the benchmark runs
      // (host-memory.ts, machine-probes.ts): each round says, before its broker starts.
      log(
        `round ${String(round)}: ${target.name}; ${describePageReporting(pageReportingParameters())}; ${describeFreshMemory(freshMemoryTouchRate())}`,
      );
      const figures = await measure(driver, target, settings, round);
      results.set(target.name, [...(results.get(target.name) ?? []), figures]);
    }
  }

  const measuredNereus = nereusTargets.filter((target) => results.has(target.name));
  const baselines = kafkaTargets
    .filter((target) => results.has(target.name))
    .map((target) => ({ name: target.name, figures: medianFigures(results.get(target.name) ?? []) }));
  const header = ["metric", ...baselines.map((baseline) => baseline.name)];
  for (const target of measuredNereus) {
    header.push(target.name);
    for (const baseline of baselines) header.push(baseline === baselines[0] ? "Nereus/Kafka" : "Nereus/Kafka fsync");
  }
  const metrics: { label: string; key: keyof Figures }[] = [
    { label: "produce MB/s (acks=all)", key: "produceMBs" },
    { label: "consume MB/s", key: "consumeMBs" },
    { label: "broker CPU ms per MB produced", key: "produceCpuMsPerMB" },
    { label: "broker CPU ms per MB consumed", key: "consumeCpuMsPerMB" },
    { label: "client CPU ms per MB produced", key: "clientProduceCpuMsPerMB" },
    { label: "client CPU ms per MB consumed", key: "clientConsumeCpuMsPerMB" },
    { label: "produce p50 ms (max throughput)", key: "produceP50Ms" },
    { label: "produce p99 ms (max throughput)", key: "produceP99Ms" },
    { label: `produce p50 ms (${String(settings.rate)} rec/s)`, key: "fixedRateP50Ms" },
    { label: `produce p99 ms (${String(settings.rate)} rec/s)`, key: "fixedRateP99Ms" },
    { label: `produce p99.9 ms (${String(settings.rate)} rec/s)`, key: "fixedRateP999Ms" },
  ];
  const rows = metrics.map(({ label, key }) => {
    const row = [label, ...baselines.map((baseline) => formatNumber(baseline.figures[key]))];
    for (const target of measuredNereus) {
      const nereus = medianFigures(results.get(target.name) ?? []);
      row.push(formatNumber(nereus[key]));
      for (const baseline of baselines) {
        const ratio = nereus[key] / baseline.figures[key];
        // A phase skipped (--skip-latency) has no figures on either side: no ratio either.
        row.push(Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : "n/a");
      }
    }
    return row;
  });
  process.stdout.write(`\n${table(header, rows)}\n`);
  process.stdout.write(
    `\nSame Java kafka-clients ${kafkaVersion} driver and settings for every broker; ${String(settings.records)} x ${String(settings.size)} B records; ` +
      `median of ${String(settings.rounds)} round(s). Throughput ratio > 1: Nereus faster; latency and CPU ratio > 1: Nereus slower / uses more. ` +
      `Apache Kafka does not fsync per write (page cache); the Nereus default profile acknowledges after the WAL object is durable` +
      `${settings.kafkaFsync ? "; Kafka fsync flushes its log after every append before it answers (log.flush.interval.messages=1)" : ""}.\n`,
  );
  const unbound = [...results].flatMap(([name, rounds]) =>
    rounds.flatMap((figures, index) =>
      figures.producerInFlight < WINDOW_BOUND_IN_FLIGHT
        ? [`${name} round ${String(index + 1)} (${figures.producerInFlight.toFixed(2)})`]
        : [],
    ),
  );
  if (unbound.length > 0) {
    process.stdout.write(
      `Produce rounds whose producer did not keep its window of ${String(PRODUCER_WINDOW)} requests full (under ${String(WINDOW_BOUND_IN_FLIGHT)} in flight: ` +
        `the client's own pace or CPU set their rate, not the broker's round trip; compare rounds by their in-flight figure): ${unbound.join(", ")}.\n`,
    );
  }
}

try {
  await main();
  process.exit(0);
} catch (error) {
  process.stderr.write(`kafka-baseline bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
