// The broker's Prometheus metrics on prom-client. Each broker has its own registry for its own families (so several
// brokers in one process, as in the tests, do not collide); the process-wide families are prom-client's default
// Node.js metrics under their standard names (`process_cpu_seconds_total`, `process_resident_memory_bytes`,
// `nodejs_heap_size_used_bytes`, `nodejs_eventloop_lag_seconds`, `nodejs_gc_duration_seconds`, ...), collected
// once per process and merged into every broker's exposition, so stock Node.js dashboards work unchanged. Left out
// are prom-client's three gauges named `nodejs_active_{handles,requests,resources}_total`: a gauge named `_total`
// fails `promtool check metrics`, and each is the sum over `type` of its sibling `nodejs_active_{...}{type}`.
import { Gauge, Registry, collectDefaultMetrics } from "prom-client";

/** Latency buckets in seconds, 0.5 ms to 10 s. */
export const LATENCY_BUCKETS_SECONDS: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** Default metrics that are gauges named like counters (see the module header). */
const MISNAMED_DEFAULT_GAUGES = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total",
];

let processRegistry: Registry | undefined;

/** The process-wide default metrics (registered on first use; their observers live as long as the process). */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    for (const name of MISNAMED_DEFAULT_GAUGES) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

/** The text exposition (format 0.0.4) of `broker`'s families and the process's default metrics. */
export function renderMetrics(broker: Registry): Promise<string> {
  return Registry.merge([processMetrics(), broker]).metrics();
}

/** Registers a gauge on `registry` whose value is read from `read` at each scrape. */
export function registerGaugeReading(registry: Registry, name: string, help: string, read: () => number): Gauge {
  return new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}
