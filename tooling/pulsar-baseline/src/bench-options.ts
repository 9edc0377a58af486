// Command-line options of the Nereus-vs-Apache-Pulsar benchmark (bench/pulsar-vs-nereus.ts), parsed and checked
// before anything starts.
import { ErrorCode, NereusError } from "@nereus/core";
import type { BrokerName } from "./bench-report.js";

/** The phases of one measurement: produce (timed), consume (of what was produced), fixed-rate publish latency. */
type BenchPhase = "throughput" | "latency";

/** The benchmark's settings. */
export interface BenchOptions {
  /** Rounds per broker (alternating Apache, Nereus, Apache, ...); each figure is the median over them. */
  readonly rounds: number;
  /** Messages of the timed produce and consume phases. */
  readonly messages: number;
  /** Message size in bytes. */
  readonly size: number;
  /** Messages produced (and read) untimed before the timed phases, to another topic. */
  readonly warmup: number;
  /** Messages per second of the latency phase. */
  readonly rate: number;
  /** Seconds of the latency phase (after a 2-second warm-up at the same rate). */
  readonly latencySeconds: number;
  /** Partition counts; 1 is a non-partitioned topic, more a partitioned topic created through the admin API. */
  readonly partitions: readonly number[];
  /** Measure one broker only (no ratios). */
  readonly only: BrokerName | undefined;
  /** How the Nereus broker runs: from its TypeScript sources or its built dist/main.js. */
  readonly entry: "source" | "dist";
  /** Heap (and direct memory) of the Apache Pulsar JVM in MiB. */
  readonly pulsarHeapMb: number;
  /** The producer's maxPendingMessages (per partition). */
  readonly maxPending: number;
  /** What is measured: "throughput" (produce, then consume) and/or "latency" (publish at a fixed rate). */
  readonly phases: readonly BenchPhase[];
}

/** The defaults: a run of a few minutes per broker and round. */
export const DEFAULT_BENCH_OPTIONS: BenchOptions = {
  rounds: 3,
  messages: 200_000,
  size: 1024,
  warmup: 50_000,
  rate: 1_000,
  latencySeconds: 10,
  partitions: [1, 8],
  only: undefined,
  entry: "source",
  pulsarHeapMb: 1024,
  maxPending: 10_000,
  phases: ["throughput", "latency"],
};

const USAGE =
  "options: --rounds N --messages N --size BYTES --warmup N --rate MSG_PER_S --latency-seconds S --partitions 1,8 --only apache|nereus --entry source|dist --pulsar-heap-mb MB --max-pending N --phases throughput,latency";

/**
 * Parses `argv` (without node and the script).
 * @throws NereusError(INVALID_ARGUMENT) for an unknown option, a missing value or a value out of range.
 */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const options: { -readonly [K in keyof BenchOptions]: BenchOptions[K] } = { ...DEFAULT_BENCH_OPTIONS };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i] ?? "";
    if (name === "--") continue;
    const value = argv[i + 1];
    if (value === undefined) throw invalid(`${name} needs a value`);
    i += 1;
    switch (name) {
      case "--rounds":
        options.rounds = integer(name, value, 1, 100);
        break;
      case "--messages":
        options.messages = integer(name, value, 1, 100_000_000);
        break;
      case "--size":
        options.size = integer(name, value, 8, 60_000);
        break;
      case "--warmup":
        options.warmup = integer(name, value, 0, 100_000_000);
        break;
      case "--rate":
        options.rate = integer(name, value, 1, 1_000_000);
        break;
      case "--latency-seconds":
        options.latencySeconds = integer(name, value, 1, 3_600);
        break;
      case "--partitions":
        options.partitions = value.split(",").map((part) => integer(name, part.trim(), 1, 1_000));
        break;
      case "--only":
        if (value !== "apache" && value !== "nereus") throw invalid(`--only is apache or nereus, not ${value}`);
        options.only = value;
        break;
      case "--entry":
        if (value !== "source" && value !== "dist") throw invalid(`--entry is source or dist, not ${value}`);
        options.entry = value;
        break;
      case "--pulsar-heap-mb":
        options.pulsarHeapMb = integer(name, value, 256, 65_536);
        break;
      case "--max-pending":
        options.maxPending = integer(name, value, 1, 1_000_000);
        break;
      case "--phases":
        options.phases = phases(value);
        break;
      default:
        throw invalid(`unknown option ${name}; ${USAGE}`);
    }
  }
  return options;
}

function integer(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max)
    throw invalid(`${name} must be an integer in [${String(min)}, ${String(max)}], not ${JSON.stringify(text)}`);
  return value;
}

function phases(text: string): BenchPhase[] {
  const names = text.split(",").map((name) => name.trim());
  for (const name of names) {
    if (name !== "throughput" && name !== "latency")
      throw invalid(`--phases are throughput and/or latency, not ${name}`);
  }
  return [...new Set(names as BenchPhase[])];
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `pulsar bench: ${message}`);
}
