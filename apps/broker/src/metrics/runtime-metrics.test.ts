import { performance, constants as perfConstants } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { type Histogram, Registry } from "prom-client";
import { gcKindLabel, registerRuntimeMetrics } from "./runtime-metrics.js";

/** Allocates short-lived garbage until the young generation has been collected at least once (bounded). */
async function churnUntil(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let round = 0; round < 200 && !(await done()); round++) {
    let keep = 0;
    for (let i = 0; i < 20_000; i++) keep += new Array(16).fill(i).length;
    expect(keep).toBeGreaterThan(0);
    await sleep(5);
  }
}

/** The number of observations of `histogram` labelled `kind`. */
async function countOf(histogram: Histogram<"kind">, kind: string): Promise<number> {
  const { values } = await histogram.get();
  return (
    values.find((value) => value.metricName === "nereus_gc_pause_seconds_count" && value.labels.kind === kind)?.value ??
    0
  );
}

describe("runtime metrics", () => {
  test("GC kinds map to their labels", () => {
    expect(gcKindLabel(perfConstants.NODE_PERFORMANCE_GC_MINOR)).toBe("minor");
    expect(gcKindLabel(perfConstants.NODE_PERFORMANCE_GC_MAJOR)).toBe("major");
    expect(gcKindLabel(perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL)).toBe("incremental");
    expect(gcKindLabel(perfConstants.NODE_PERFORMANCE_GC_WEAKCB)).toBe("weak_callbacks");
    expect(gcKindLabel(undefined)).toBe("other");
  });

  test("the event loop's busy time grows while it runs JavaScript, not while it waits", async () => {
    const metrics = new Registry();
    const runtime = registerRuntimeMetrics(metrics);
    try {
      const read = async (): Promise<number> =>
        Number(/^nereus_event_loop_busy_seconds_total ([0-9.e-]+)$/m.exec(await metrics.metrics())?.[1]);
      expect(await metrics.metrics()).toContain("# TYPE nereus_event_loop_busy_seconds_total counter");
      const before = await read();
      const spinUntil = performance.now() + 50;
      let spin = 0;
      while (performance.now() < spinUntil) spin += 1;
      expect(spin).toBeGreaterThan(0);
      const afterSpin = await read();
      expect(afterSpin).toBeGreaterThanOrEqual(before + 0.045);
      await sleep(100);
      // 100 ms of waiting adds far less than 100 ms (only the timer's callback and this test's own code run).
      expect((await read()) - afterSpin).toBeLessThan(0.05);
    } finally {
      runtime.stop();
    }
  });

  test("collections of the main thread are observed until stopped", async () => {
    const metrics = new Registry();
    const runtime = registerRuntimeMetrics(metrics);
    await churnUntil(async () => (await countOf(runtime.gcPauseSeconds, "minor")) > 0);
    expect(await countOf(runtime.gcPauseSeconds, "minor")).toBeGreaterThan(0);
    expect(await metrics.metrics()).toMatch(/nereus_gc_pause_seconds_count\{kind="minor"\} [1-9]/);
    runtime.stop();
    runtime.stop();
    await sleep(20);
    const stoppedAt = await countOf(runtime.gcPauseSeconds, "minor");
    await churnUntil(() => false);
    expect(await countOf(runtime.gcPauseSeconds, "minor")).toBe(stoppedAt);
  });
});
