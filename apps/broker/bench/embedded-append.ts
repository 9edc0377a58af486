// The broker's storage stack on its embedded default (filesystem object store + SQLite metadata, opened by
// `openStorage` from the default config in a temporary data directory), driven without any Kafka client: K appends in
// flight per stream, each of E entries of B bytes, until N appends completed. It isolates the append engine (the
// pipeline, the WAL writer, the segment worker, the SQLite writer and their hand-offs) from the producer JVM that
// shares the machine's cores in the Kafka benchmark, so a change to that engine shows with less noise.
//
// Baseline, measured in the same run on the same disk: the physical floor of one append — a write + fdatasync of the
// append's bytes appended to a file, then one of ~50 KB (what a head txn adds to the SQLite `-wal`) to another
// file, one after the other (the two durable steps an append waits for in series). Prints appends/s, MB/s, the
// append latency p50/p90/p99 with p50 as a ratio to the baseline's p50, the process's CPU per append and per thread,
// and the I/O threads' step means.
//
// Environment: NEREUS_BENCH_APPENDS (N, default 3000; the first 200 are not counted in the latencies),
// NEREUS_BENCH_IN_FLIGHT (K, default 2, as the Kafka adapter keeps per partition), NEREUS_BENCH_STREAMS (default 1),
// NEREUS_BENCH_ENTRIES (E, default 2), NEREUS_BENCH_ENTRY_BYTES (B, default 77,824: an append of ~152 KiB, the
// Kafka benchmark's mean), NEREUS_BENCH_DURABILITY ("fsync", the default, or "os-buffered": the embedded stores'
// `storage.durability`). Appends hand their payloads over (`handOverPayloads`), as the Kafka adapter's do, so the
// WAL writer does not copy them.
import {
  closeSync,
  fdatasyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { BrokerConfigSchema } from "../src/config/broker-config.js";
import { PinoBrokerLogger } from "../src/logging/broker-logger.js";
import { openStorage, storageIoTimings } from "../src/storage/open-storage.js";

/** A positive integer from the environment, or `fallback`. */
function setting(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${text}`);
  return value;
}

const APPENDS = setting("NEREUS_BENCH_APPENDS", 3000);
const IN_FLIGHT = setting("NEREUS_BENCH_IN_FLIGHT", 2);
const STREAMS = setting("NEREUS_BENCH_STREAMS", 1);
const ENTRIES = setting("NEREUS_BENCH_ENTRIES", 2);
const ENTRY_BYTES = setting("NEREUS_BENCH_ENTRY_BYTES", 76 * 1024);
const WARMUP = Math.min(200, Math.floor(APPENDS / 10));
const HEAD_TXN_BYTES = 50 * 1024;
const DURABILITY = process.env.NEREUS_BENCH_DURABILITY ?? "fsync";

function quantile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN;
}

/** The baseline: `count` times, an append-sized write + fdatasync, then a head-txn-sized one, in series. */
function measureBaseline(directory: string, count: number): number[] {
  const data = openSync(path.join(directory, "baseline-data"), "w");
  const wal = openSync(path.join(directory, "baseline-wal"), "w");
  const body = new Uint8Array(ENTRIES * ENTRY_BYTES).fill(7);
  const head = new Uint8Array(HEAD_TXN_BYTES).fill(3);
  const samples: number[] = [];
  try {
    for (let index = 0; index < count; index++) {
      const started = performance.now();
      writeSync(data, body, 0, body.length, index * body.length);
      fdatasyncSync(data);
      writeSync(wal, head, 0, head.length, index * head.length);
      fdatasyncSync(wal);
      samples.push(performance.now() - started);
    }
  } finally {
    closeSync(data);
    closeSync(wal);
  }
  return samples.sort((left, right) => left - right);
}

/** CPU milliseconds of each thread of this process with more than 50 ms, by thread name (the kernel's `comm`). */
function threadCpuMs(): Array<{ readonly thread: string; readonly ms: number }> {
  const threads: Array<{ thread: string; ms: number }> = [];
  for (const tid of readdirSync("/proc/self/task")) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ms = (Number(fields[11]) + Number(fields[12])) * 10;
    if (ms > 50) threads.push({ thread: `${stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))}#${tid}`, ms });
  }
  return threads.sort((left, right) => right.ms - left.ms);
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), "nereus-embedded-append-"));
  try {
    const baseline = measureBaseline(root, 300);
    const dataDir = path.join(root, "data");
    mkdirSync(dataDir);
    const config = BrokerConfigSchema.parse({ dataDir, storage: { durability: DURABILITY } });
    const logger = new PinoBrokerLogger({ level: "error", sink: { write: () => true } });
    const storage = await openStorage({ config, writerId: "embedded-append-bench", logger });
    const latencies: number[] = [];
    try {
      const streams: string[] = [];
      for (let index = 0; index < STREAMS; index++) {
        streams.push(
          (await storage.store.createStream(`bench-${String(index)}`, { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId,
        );
      }
      const payload = new Uint8Array(ENTRY_BYTES).fill(7);
      const entries = Array.from({ length: ENTRIES }, () => ({ payload, recordCount: 1 }));
      let issued = 0;
      const lane = async (streamId: string): Promise<void> => {
        while (issued < APPENDS) {
          issued += 1;
          const started = performance.now();
          await storage.store.append(streamId, {
            payloadFormat: "OPAQUE_RECORD_BATCH",
            entries,
            handOverPayloads: true,
          });
          latencies.push(performance.now() - started);
        }
      };
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await Promise.all(streams.flatMap((streamId) => Array.from({ length: IN_FLIGHT }, () => lane(streamId))));
      const wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const io = storageIoTimings(storage);
      const sorted = latencies.slice(WARMUP).sort((left, right) => left - right);
      const appendBytes = ENTRIES * ENTRY_BYTES;
      const baseP50 = quantile(baseline, 0.5);
      console.log(
        `[embedded-append] ${String(APPENDS)} appends of ${String(ENTRIES)} x ${String(ENTRY_BYTES)} B, ${String(IN_FLIGHT)} in flight on each of ${String(STREAMS)} stream(s), durability ${DURABILITY}`,
      );
      console.log(
        `[embedded-append] baseline (append write+fdatasync, then ${String(HEAD_TXN_BYTES)} B write+fdatasync): p50 ${baseP50.toFixed(2)} ms, p99 ${quantile(baseline, 0.99).toFixed(2)} ms`,
      );
      console.log(
        `[embedded-append] ${((APPENDS / wallMs) * 1000).toFixed(0)} appends/s, ${((APPENDS * appendBytes) / wallMs / 1000).toFixed(1)} MB/s; ` +
          `latency p50 ${quantile(sorted, 0.5).toFixed(2)} (${(quantile(sorted, 0.5) / baseP50).toFixed(2)}x baseline) / p90 ${quantile(sorted, 0.9).toFixed(2)} / p99 ${quantile(sorted, 0.99).toFixed(2)} ms; ` +
          `process CPU ${((cpu.user + cpu.system) / 1000 / APPENDS).toFixed(3)} ms per append`,
      );
      console.log(
        `[embedded-append] thread CPU ms per append (process lifetime): ${threadCpuMs()
          .map(({ thread, ms }) => `${thread} ${(ms / APPENDS).toFixed(3)}`)
          .join(", ")}`,
      );
      const steps = Object.entries(io).filter(([, snapshot]) => snapshot.count > 0);
      console.log(
        `[embedded-append] I/O steps, mean ms: ${steps.map(([step, snapshot]) => `${step} ${((snapshot.sumSeconds / snapshot.count) * 1000).toFixed(2)} x ${String(snapshot.count)}`).join(", ")}`,
      );
    } finally {
      await storage.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
