// `pnpm bench`: the Nereus broker's Pulsar listener (embedded default: SQLite metadata + filesystem objects, fsync
// before acknowledging) against Apache Pulsar standalone (one bookie whose journal syncs before acknowledging), on
// this machine, in one run, with one client: java/NereusPulsarDriver.java with identical settings for both. The
// brokers run one at a time and alternate round by round (Apache, Nereus, Apache, ...), each started fresh; every
// figure is the median over the rounds. Per broker, round and partition count (1: a non-partitioned topic; more: a
// partitioned topic created through the admin REST API):
//   1. produce: --warmup messages to a warm-up topic, then --messages of --size bytes as fast as the producer goes;
//      MB/s and msg/s;
//   2. consume: the warm-up topic, then the measured topic from the earliest position, every partition; MB/s;
//   3. publish latency at a fixed --rate for --latency-seconds (after 2 s at the same rate): p50, p99, max from
//      the moment a message is due to its acknowledgement.
// Around phases 1 and 2 it reads the broker's CPU time (/proc): broker CPU ms per MB moved is steadier than MB/s on
// a machine whose speed drifts. It prints a table per partition count with Nereus/Apache ratios.
import { type BenchOptions, parseBenchOptions } from "../src/bench-options.js";
import { type BrokerName, type BrokerRounds, type RoundFigures, renderComparison } from "../src/bench-report.js";
import {
  type ConsumeResult,
  type LatencyResult,
  type ProduceResult,
  type PulsarDriver,
  pulsarBrokerJars,
  pulsarDriver,
  runPulsarDriver,
  startApachePulsar,
  startNereusPulsar,
} from "../src/index.js";
import { busyFraction, machineCpuTicks, processCpuSeconds } from "@nereus/kafka-baseline";
import { appendChainLine } from "../src/append-chain-line.js";

/** A started broker, as the phases see it. */
interface Target {
  readonly name: BrokerName;
  readonly serviceUrl: string;
  readonly adminUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

interface Rounds {
  rounds: RoundFigures[];
  failures: string[];
}

const log = (line: string): void => {
  process.stdout.write(`[pulsar-bench] ${line}\n`);
};

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}

async function startTarget(name: BrokerName, options: BenchOptions): Promise<Target> {
  if (name === "apache") {
    const pulsar = await startApachePulsar({ heapMb: options.pulsarHeapMb, log });
    return {
      name,
      serviceUrl: pulsar.serviceUrl,
      adminUrl: pulsar.adminUrl,
      pid: pulsar.pid,
      stop: () => pulsar.stop(),
    };
  }
  const nereus = await startNereusPulsar({ entry: options.entry, log });
  return { name, serviceUrl: nereus.serviceUrl, adminUrl: nereus.adminUrl, pid: nereus.pid, stop: () => nereus.stop() };
}

/** The Nereus broker's /metrics text, or undefined for Apache or when it cannot be read (the figure is left out). */
async function nereusMetrics(target: Target): Promise<string | undefined> {
  if (target.name !== "nereus") return undefined;
  try {
    const response = await fetch(`${target.adminUrl}/metrics`, { signal: AbortSignal.timeout(10_000) });
    return response.ok ? await response.text() : undefined;
  } catch {
    return undefined;
  }
}

/** Broker CPU ms per MB over `run`, from /proc before and after. */
async function withCpu<T>(
  pid: number,
  megabytes: number,
  run: () => Promise<T>,
): Promise<{ result: T; cpuMsPerMB: number }> {
  const before = processCpuSeconds(pid);
  const result = await run();
  return { result, cpuMsPerMB: ((processCpuSeconds(pid) - before) * 1000) / megabytes };
}

/** The three phases on one broker at one partition count; failures are recorded, never thrown. */
async function measure(driver: PulsarDriver, target: Target, partitions: number, round: number, options: BenchOptions) {
  const figures: RoundFigures = {};
  const failures: string[] = [];
  const topic = `bench-p${String(partitions)}-r${String(round)}`;
  const warmupTopic = `${topic}-warmup`;
  const latencyTopic = `bench-latency-p${String(partitions)}-r${String(round)}`;
  const url = { "service-url": target.serviceUrl };
  const fail = (phase: string, reason: string): void => {
    failures.push(`round ${String(round)}, ${String(partitions)} partition(s), ${phase}: ${reason}`);
  };
  if (partitions > 1) {
    try {
      await runPulsarDriver(driver, "create-topic", {
        ...url,
        "admin-url": target.adminUrl,
        topic: [topic, warmupTopic, latencyTopic].join(","),
        partitions,
      });
    } catch (error) {
      fail("create-topic", firstLine(error));
      return { figures, failures };
    }
  }
  if (options.phases.includes("throughput")) await measureThroughput(driver, target, topic, options, figures, fail);
  if (options.phases.includes("latency")) await measureLatency(driver, target, latencyTopic, options, figures, fail);
  return { figures, failures };
}

/** Phases 1 and 2: produce, then consume what was produced. */
async function measureThroughput(
  driver: PulsarDriver,
  target: Target,
  topic: string,
  options: BenchOptions,
  figures: RoundFigures,
  fail: (phase: string, reason: string) => void,
): Promise<void> {
  const url = { "service-url": target.serviceUrl };
  const warmupTopic = `${topic}-warmup`;
  const megabytes = ((options.messages + options.warmup) * options.size) / 1e6;
  let produced = false;
  try {
    const machineBefore = machineCpuTicks();
    const { result, cpuMsPerMB } = await withCpu(target.pid, megabytes, () =>
      runPulsarDriver<ProduceResult>(driver, "produce", {
        ...url,
        topic,
        messages: options.messages,
        size: options.size,
        warmup: options.warmup,
        "max-pending": options.maxPending,
      }),
    );
    const machineAfter = machineCpuTicks();
    if (result.errors > 0)
      throw new Error(`${String(result.errors)} sends failed, first: ${String(result.firstError)}`);
    produced = true;
    Object.assign(figures, {
      produceMBs: result.mbPerSec,
      produceMsgPerSec: result.msgPerSec,
      produceCpuMsPerMB: cpuMsPerMB,
    });
    const busy =
      machineBefore === undefined || machineAfter === undefined ? NaN : busyFraction(machineBefore, machineAfter);
    log(
      `  produce: ${result.mbPerSec.toFixed(1)} MB/s, ${result.msgPerSec.toFixed(0)} msg/s (send->ack p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms), broker ${cpuMsPerMB.toFixed(1)} CPU ms/MB, machine ${(busy * 100).toFixed(0)} % busy`,
    );
  } catch (error) {
    fail("produce", firstLine(error));
  }
  if (produced) {
    try {
      const { result, cpuMsPerMB } = await withCpu(target.pid, megabytes, () =>
        runPulsarDriver<ConsumeResult>(driver, "consume", {
          ...url,
          topic,
          messages: options.messages,
          "warmup-topic": warmupTopic,
          warmup: options.warmup,
          "timeout-ms": 300_000,
        }),
      );
      if (result.timedOut || result.distinct < options.messages)
        throw new Error(`read ${String(result.distinct)} distinct of ${String(options.messages)} messages in time`);
      Object.assign(figures, {
        consumeMBs: result.mbPerSec,
        consumeMsgPerSec: result.msgPerSec,
        consumeCpuMsPerMB: cpuMsPerMB,
      });
      log(
        `  consume: ${result.mbPerSec.toFixed(1)} MB/s, ${result.msgPerSec.toFixed(0)} msg/s (${String(result.duplicates)} duplicates), broker ${cpuMsPerMB.toFixed(1)} CPU ms/MB`,
      );
    } catch (error) {
      fail("consume", firstLine(error));
    }
  }
}

/** Phase 3: publish latency at a fixed rate. */
async function measureLatency(
  driver: PulsarDriver,
  target: Target,
  latencyTopic: string,
  options: BenchOptions,
  figures: RoundFigures,
  fail: (phase: string, reason: string) => void,
): Promise<void> {
  const url = { "service-url": target.serviceUrl };
  // The driver publishes at the rate for 2 s of warm-up, then for the measured seconds.
  const megabytes = (options.rate * (options.latencySeconds + 2) * options.size) / 1e6;
  const metricsBefore = await nereusMetrics(target);
  try {
    const { result, cpuMsPerMB } = await withCpu(target.pid, megabytes, () =>
      runPulsarDriver<LatencyResult>(driver, "latency", {
        ...url,
        topic: latencyTopic,
        size: options.size,
        rate: options.rate,
        seconds: options.latencySeconds,
        "max-pending": options.maxPending,
      }),
    );
    if (result.errors > 0)
      throw new Error(`${String(result.errors)} sends failed, first: ${String(result.firstError)}`);
    Object.assign(figures, {
      publishP50Ms: result.p50Ms,
      publishP99Ms: result.p99Ms,
      publishMaxMs: result.maxMs,
      latencyCpuMsPerMB: cpuMsPerMB,
    });
    log(
      `  latency at ${String(options.rate)} msg/s: p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, max ${result.maxMs.toFixed(2)} ms (${String(result.lateSends)} of ${String(result.messages)} sends left > 1 ms late), broker ${cpuMsPerMB.toFixed(1)} CPU ms/MB`,
    );
    const metricsAfter = metricsBefore === undefined ? undefined : await nereusMetrics(target);
    if (metricsBefore !== undefined && metricsAfter !== undefined)
      log(`  Nereus appends at the fixed rate: ${appendChainLine(metricsBefore, metricsAfter)}`);
  } catch (error) {
    fail("latency", firstLine(error));
  }
}

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2));
  const brokers: BrokerName[] = options.only === undefined ? ["apache", "nereus"] : [options.only];
  const apacheLabel = `Apache Pulsar ${(await pulsarBrokerJars(log)).version}`;
  const driver = await pulsarDriver(log);
  const results = new Map<number, Record<BrokerName, Rounds>>(
    options.partitions.map((p) => [p, { apache: { rounds: [], failures: [] }, nereus: { rounds: [], failures: [] } }]),
  );
  log(
    `${String(options.rounds)} round(s) of ${brokers.join(", ")}; ${String(options.messages)} x ${String(options.size)} B after ${String(options.warmup)} warm-up; latency at ${String(options.rate)} msg/s for ${String(options.latencySeconds)} s; partitions ${options.partitions.join(", ")}`,
  );
  for (let round = 1; round <= options.rounds; round++) {
    for (const name of brokers) {
      log(`round ${String(round)}: ${name === "apache" ? apacheLabel : "Nereus"}`);
      let target: Target;
      try {
        target = await startTarget(name, options);
      } catch (error) {
        for (const partitions of options.partitions)
          results.get(partitions)?.[name].failures.push(`round ${String(round)}: start: ${firstLine(error)}`);
        log(`  start failed: ${firstLine(error)}`);
        continue;
      }
      try {
        for (const partitions of options.partitions) {
          log(` ${String(partitions)} partition(s)`);
          const { figures, failures } = await measure(driver, target, partitions, round, options);
          const rounds = results.get(partitions)?.[name];
          rounds?.rounds.push(figures);
          rounds?.failures.push(...failures);
          for (const failure of failures) log(`  FAILED ${failure}`);
        }
      } finally {
        await target.stop();
      }
    }
  }
  process.stdout.write("\n");
  for (const [partitions, byBroker] of results) {
    const layout = partitions === 1 ? "1 partition (a non-partitioned topic)" : `${String(partitions)} partitions`;
    const table = renderComparison({
      title: `${layout}: ${String(options.messages)} x ${String(options.size)} B, publish latency at ${String(options.rate)} msg/s, median of ${String(options.rounds)} round(s)`,
      apacheLabel,
      roundCount: options.rounds,
      apache: byBroker.apache satisfies BrokerRounds,
      nereus: byBroker.nereus satisfies BrokerRounds,
    });
    process.stdout.write(`${table}\n\n`);
  }
  process.stdout.write(
    "Both brokers acknowledge a message only once it is synced to disk (Apache: the bookie journal, journalSyncData=true; Nereus: the embedded default, fsync before ack). Ratios are Nereus/Apache.\n",
  );
}

await main();
