// Two short probes of the benchmark machine's condition, printed with the run: both decide how fast a broker can be
// on this VM, and neither shows in the CPU model or the load average.
// - Fresh memory: how fast this process touches memory it never used (one write per 4 KiB page of a new buffer).
//   Page-cache pages come from the same free pool. Freed memory that the guest reported to the host (host-memory.ts)
//   faults to the host at its next touch, which can slow page-cache writes about tenfold. The pool cannot be made
//   cold on demand: a reading much lower than usual says this round's broker found cold memory. Read before each
//   broker's round: rounds compare only at similar readings.
// - Thread wake round trip: two threads waking each other through a futex (Atomics.wait / notify), the way the
//   Nereus broker's threads hand an append on (a segment job, a durability gate, a SQLite round's answer). On this
//   nested VM one round trip took about 130 us at the median, where bare metal takes a few: a fixed cost per hand-off
//   that Apache Kafka's request path pays fewer times per request.
import { startWorkerModule } from "@nereus/core";
import { WakeWord, type WakeProbeReady } from "./wake-probe-protocol.js";

/** Bytes the fresh-memory probe touches by default (64 MiB: about 50 ms when warm). */
export const FRESH_MEMORY_PROBE_BYTES = 64 * 1024 * 1024;
/** Round trips the wake probe times by default. */
export const WAKE_PROBE_ROUNDS = 2000;
/** A round trip the worker has not answered within this long fails the probe (the worker died or never runs). */
const WAKE_ANSWER_TIMEOUT_MS = 5000;
const PAGE_BYTES = 4096;

/**
 * MiB per second at which this process first touches `bytes` of newly allocated memory (one write per 4 KiB page;
 * the buffer is garbage once this returns). Throws a RangeError unless `bytes` is a positive multiple of 4 KiB.
 */
export function freshMemoryTouchRate(bytes: number = FRESH_MEMORY_PROBE_BYTES): number {
  if (!Number.isSafeInteger(bytes) || bytes < PAGE_BYTES || bytes % PAGE_BYTES !== 0) {
    throw new RangeError(
      `fresh memory probe bytes must be a positive multiple of ${String(PAGE_BYTES)}, got ${String(bytes)}`,
    );
  }
  const started = process.hrtime.bigint();
  const memory = Buffer.allocUnsafeSlow(bytes);
  for (let offset = 0; offset < bytes; offset += PAGE_BYTES) memory[offset] = 1;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return bytes / 2 ** 20 / Math.max(seconds, 1e-9);
}

/** Percentiles of the wake probe, in microseconds. */
export interface WakeRoundTrip {
  readonly p50Us: number;
  readonly p90Us: number;
  readonly rounds: number;
}

/**
 * Times `rounds` round trips between this thread and a worker thread (wake-probe-thread.ts) that wake each other
 * through a futex, once the worker said it is ready. Throws a RangeError unless `rounds` is an integer in
 * 1..1,000,000, and an Error when the worker leaves a round trip unanswered for 5 s. Blocks this thread for the probe (about 0.3 s with the default rounds here).
 */
export async function threadWakeRoundTrip(rounds: number = WAKE_PROBE_ROUNDS): Promise<WakeRoundTrip> {
  if (!Number.isSafeInteger(rounds) || rounds < 1 || rounds > 1_000_000)
    throw new RangeError(`wake probe rounds must be an integer in 1..1000000, got ${String(rounds)}`);
  const words = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const worker = startWorkerModule(new URL("./wake-probe-thread.js", import.meta.url), { workerData: words.buffer });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once("message", (message: WakeProbeReady) => {
        if (message.kind === "ready") resolve();
      });
      worker.once("error", reject);
    });
    const samples = new Float64Array(rounds);
    for (let round = 0; round < rounds; round++) {
      const ping = 2 * round + 1;
      const started = process.hrtime.bigint();
      Atomics.store(words, 0, ping);
      Atomics.notify(words, 0);
      const deadline = Date.now() + WAKE_ANSWER_TIMEOUT_MS;
      while (Atomics.load(words, 0) === ping) {
        if (Date.now() > deadline)
          throw new Error(`the wake probe's worker thread did not answer within ${String(WAKE_ANSWER_TIMEOUT_MS)} ms`);
        Atomics.wait(words, 0, ping, 100);
      }
      samples[round] = Number(process.hrtime.bigint() - started) / 1000;
    }
    samples.sort();
    return { p50Us: percentile(samples, 0.5), p90Us: percentile(samples, 0.9), rounds };
  } finally {
    Atomics.store(words, 0, WakeWord.stop);
    Atomics.notify(words, 0);
    await worker.terminate();
  }
}

/** The value at quantile `q` of ascending `sorted` (nearest rank). */
function percentile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** The fresh-memory reading for a log line. */
export function describeFreshMemory(mibPerSecond: number): string {
  return `fresh memory first touch ${Number.isFinite(mibPerSecond) ? mibPerSecond.toFixed(0) : "?"} MiB/s`;
}

/** The wake reading for a log line. */
export function describeWakeRoundTrip(wake: WakeRoundTrip): string {
  return `thread wake round trip p50 ${wake.p50Us.toFixed(0)} us, p90 ${wake.p90Us.toFixed(0)} us (${String(wake.rounds)} futex round trips)`;
}
