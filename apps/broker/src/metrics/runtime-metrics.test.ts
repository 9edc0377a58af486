import { performance, constants as perfConstants } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { MetricsRegistry } from "./metrics-registry.js";
import { gcKindLabel, registerRuntimeMetrics } from "./runtime-metrics.js";

/** Allocates short-lived garbage until the young generation has been collected at least once (bounded). */
async function churnUntil(done: () => boolean): Promise<void> {
  for (let round = 0; round < 200 && !done(); round++) {
    let keep = 0;
    for (let i = 0; i < 20_000; i++) keep += new Array(16).fill(i).length;
    expect(keep).toBeGreaterThan(0);
    await sleep(5);
  }
}

describe("runtime metrics", () => {
  test("GC kinds map to their labels", () => {
    expect(gcKindLabel(perfConstants.NODE_PERFORMANCE_GC_MINOR)).toBe("minor");
    expect(gcKindLabel(perfConstants.NODE_PERFORMANCE_GC_MAJOR)).toBe("major");
    expect(gcKindLabel(perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL)).toBe("incremental");
    expect(gcKindLabel(perfConstants.NODE_PERFORMANCE_GC_WEAKCB)).toBe("weak_callbacks");
    expect(gcKindLabel(undefined)).toBe("other");
  });

  test("CPU seconds are rendered per mode and grow with work", () => {
    const metrics = new MetricsRegistry();
    const runtime = registerRuntimeMetrics(metrics);
    try {
      const read = (text: string): number =>
        Number(/nereus_process_cpu_seconds_total\{mode="user"\} ([0-9.e-]+)/.exec(text)?.[1]);
      const before = read(metrics.render());
      let spin = 0;
      const until = process.cpuUsage().user + 20_000;
      while (process.cpuUsage().user < until) spin += 1;
      expect(spin).toBeGreaterThan(0);
      const text = metrics.render();
      expect(text).toContain("# TYPE nereus_process_cpu_seconds_total counter");
      expect(text).toMatch(/nereus_process_cpu_seconds_total\{mode="system"\} [0-9.e-]+/);
      expect(read(text)).toBeGreaterThanOrEqual(before + 0.02);
    } finally {
      runtime.stop();
    }
  });

  test("the event loop's busy time grows while it runs JavaScript, not while it waits", async () => {
    const metrics = new MetricsRegistry();
    const runtime = registerRuntimeMetrics(metrics);
    try {
      const read = (): number =>
        Number(/^nereus_event_loop_busy_seconds_total ([0-9.e-]+)$/m.exec(metrics.render())?.[1]);
      expect(metrics.render()).toContain("# TYPE nereus_event_loop_busy_seconds_total counter");
      const before = read();
      const spinUntil = performance.now() + 50;
      let spin = 0;
      while (performance.now() < spinUntil) spin += 1;
      expect(spin).toBeGreaterThan(0);
      const afterSpin = read();
      expect(afterSpin).toBeGreaterThanOrEqual(before + 0.045);
      await sleep(100);
      // 100 ms of waiting adds far less than 100 ms (only the timer's callback and this test's own code run).
      expect(read() - afterSpin).toBeLessThan(0.05);
    } finally {
      runtime.stop();
    }
  });

  test("collections of the main thread are observed until stopped", async () => {
    const metrics = new MetricsRegistry();
    const runtime = registerRuntimeMetrics(metrics);
    await churnUntil(() => runtime.gcPauseSeconds.count({ kind: "minor" }) > 0);
    expect(runtime.gcPauseSeconds.count({ kind: "minor" })).toBeGreaterThan(0);
    expect(metrics.render()).toMatch(/nereus_gc_pause_seconds_count\{kind="minor"\} [1-9]/);
    runtime.stop();
    runtime.stop();
    await sleep(20);
    const stoppedAt = runtime.gcPauseSeconds.count({ kind: "minor" });
    await churnUntil(() => false);
    expect(runtime.gcPauseSeconds.count({ kind: "minor" })).toBe(stoppedAt);
  });
});
