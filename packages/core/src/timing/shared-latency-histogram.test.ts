import { describe, expect, it } from "vitest";
import { startWorkerModule } from "../threads/start-worker-module.js";
import { SharedLatencyHistogram } from "./shared-latency-histogram.js";

const MS = 1_000_000n;

describe("SharedLatencyHistogram", () => {
  it("counts durations into cumulative buckets with their sum", () => {
    const histogram = SharedLatencyHistogram.create([0.001, 0.01]);
    for (const nanos of [0n, MS, MS + 1n, 10n * MS, 50n * MS]) histogram.observeNanos(nanos);
    expect(histogram.snapshot()).toEqual({
      count: 5,
      sumSeconds: 0.062000001,
      buckets: [
        { le: 0.001, count: 2 },
        { le: 0.01, count: 4 },
        { le: Number.POSITIVE_INFINITY, count: 5 },
      ],
    });
  });

  it("starts at zero and keeps its words in the documented layout", () => {
    const histogram = SharedLatencyHistogram.create([0.5]);
    expect(histogram.snapshot()).toEqual({
      count: 0,
      sumSeconds: 0,
      buckets: [
        { le: 0.5, count: 0 },
        { le: Number.POSITIVE_INFINITY, count: 0 },
      ],
    });
    histogram.observeNanos(700n * MS);
    expect([...new BigInt64Array(histogram.handle.words)]).toEqual([1n, 700n * MS, 0n, 1n]);
    expect(histogram.handle.boundsNanos).toEqual([500_000_000]);
  });

  it("refuses bad bounds and negative durations before recording anything", () => {
    expect(() => SharedLatencyHistogram.create([])).toThrow(/at least one bucket bound/);
    expect(() => SharedLatencyHistogram.create([0.01, 0.01])).toThrow(/strictly ascending/);
    expect(() => SharedLatencyHistogram.create([0, 1])).toThrow(/not a positive number/);
    expect(() => SharedLatencyHistogram.create([Number.NaN])).toThrow(/not a positive number/);
    const histogram = SharedLatencyHistogram.create([0.001]);
    expect(() => histogram.observeNanos(-1n)).toThrow(RangeError);
    expect(histogram.snapshot().count).toBe(0);
  });

  it("records what a worker thread observes through the attached handle, like observeNanos here", async () => {
    const shared = SharedLatencyHistogram.create([0.001, 0.01]);
    const local = SharedLatencyHistogram.create([0.001, 0.01]);
    const durations = [0n, 999_999n, MS, MS + 1n, 9n * MS, 11n * MS, 2_000n * MS];
    const worker = startWorkerModule(new URL("./test-fixtures/observe-latency-thread.js", import.meta.url), {
      workerData: { handle: shared.handle, durations: durations.map(String) },
    });
    await new Promise<void>((resolve, reject) => {
      worker.once("message", () => resolve());
      worker.once("error", reject);
    });
    await worker.terminate();
    for (const nanos of durations) local.observeNanos(nanos);
    expect(shared.snapshot()).toEqual(local.snapshot());
    expect(shared.snapshot().buckets.map((bucket) => bucket.count)).toEqual([3, 5, 7]);
  });
});
