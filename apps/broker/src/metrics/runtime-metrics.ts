// Process-level series for /metrics that say where the broker's own CPU goes, besides prom-client's standard
// `process_cpu_seconds_total`: the time the main thread's event loop was busy, and the main thread's
// garbage-collection pauses by kind, observed through perf_hooks. Under a produce load the broker is bound by CPU on a small machine, and full (mark-compact) collections
// every second or so are part of that cost — these series make that visible without attaching a profiler. The event
// loop's busy time tells the two kinds of slow broker apart: one whose event loop is busy most of the wall time is
// bound by its JavaScript, one whose event loop idles while requests wait is bound by its I/O threads and disk syncs.
// The observer adds nothing per request; it runs once per collection.
import { type PerformanceEntry, PerformanceObserver, performance, constants as perfConstants } from "node:perf_hooks";
import { Histogram, type Registry } from "prom-client";
import { registerCollectedFamilies } from "./collected-families.js";

/** Pause buckets in seconds, 0.1 ms to 1 s (scavenges are sub-millisecond, full collections up to tens of ms). */
const GC_PAUSE_BUCKETS_SECONDS: readonly number[] = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
];

/** The `kind` label of a GC entry's `detail.kind` (perf_hooks constants). */
export function gcKindLabel(kind: number | undefined): string {
  switch (kind) {
    case perfConstants.NODE_PERFORMANCE_GC_MINOR:
      return "minor";
    case perfConstants.NODE_PERFORMANCE_GC_MAJOR:
      return "major";
    case perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL:
      return "incremental";
    case perfConstants.NODE_PERFORMANCE_GC_WEAKCB:
      return "weak_callbacks";
    default:
      return "other";
  }
}

/** What `registerRuntimeMetrics` started; `stop` disconnects the GC observer (idempotent). */
export interface RuntimeMetrics {
  readonly gcPauseSeconds: Histogram<"kind">;
  stop(): void;
}

/**
 * Registers `nereus_event_loop_busy_seconds_total` (read at scrape time: the main thread's event-loop active time
 * since the process started, so its rate is the event loop's utilization, 0..1) and `nereus_gc_pause_seconds{kind}`
 * (fed by a GC observer until `stop`; finer buckets than prom-client's `nodejs_gc_duration_seconds`). CPU time and
 * memory are prom-client's standard process metrics. Invariant: one observer per call; callers stop it when the
 * broker closes, so a stopped broker observes nothing.
 */
export function registerRuntimeMetrics(metrics: Registry): RuntimeMetrics {
  registerCollectedFamilies(metrics, () => [
    {
      name: "nereus_event_loop_busy_seconds_total",
      help: "Time the main thread's event loop spent running callbacks (not waiting for events) since the process started; its rate is the event loop's utilization.",
      type: "counter",
      samples: [{ labels: {}, value: performance.eventLoopUtilization().active / 1000 }],
    },
  ]);
  const gcPauseSeconds = new Histogram({
    name: "nereus_gc_pause_seconds",
    help: "Garbage-collection pauses of the broker's main thread, by kind (minor: scavenge, major: mark-compact).",
    labelNames: ["kind"],
    buckets: [...GC_PAUSE_BUCKETS_SECONDS],
    registers: [metrics],
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as PerformanceEntry & { readonly detail?: { readonly kind?: number } }).detail;
      gcPauseSeconds.observe({ kind: gcKindLabel(detail?.kind) }, entry.duration / 1000);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  let stopped = false;
  return {
    gcPauseSeconds,
    stop() {
      if (stopped) return;
      stopped = true;
      observer.disconnect();
    },
  };
}
