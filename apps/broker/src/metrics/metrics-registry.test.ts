import { describe, expect, test } from "vitest";
import { MetricsRegistry } from "./metrics-registry.js";

describe("MetricsRegistry", () => {
  test("renders counters, gauges, histograms and collected families in the Prometheus text format", () => {
    const registry = new MetricsRegistry();
    const requests = registry.counter("requests_total", "Requests.");
    requests.inc({ api: "Produce" });
    requests.inc({ api: "Produce" }, 2);
    requests.inc({ api: 'we"ird\\' });
    registry.gauge("up", "Up.", () => 1);
    const latency = registry.histogram("latency_seconds", "Latency.", [0.1, 1]);
    latency.observe(0.05);
    latency.observe(0.5);
    latency.observe(5);
    registry.addCollector(() => [
      { name: "external_total", help: "From elsewhere.", type: "counter", samples: [{ labels: { a: "b" }, value: 7 }] },
    ]);
    registry.addCollector(() => {
      throw new Error("broken collector");
    });
    expect(registry.render()).toBe(
      [
        "# HELP requests_total Requests.",
        "# TYPE requests_total counter",
        'requests_total{api="Produce"} 3',
        'requests_total{api="we\\"ird\\\\"} 1',
        "# HELP up Up.",
        "# TYPE up gauge",
        "up 1",
        "# HELP latency_seconds Latency.",
        "# TYPE latency_seconds histogram",
        'latency_seconds_bucket{le="0.1"} 1',
        'latency_seconds_bucket{le="1"} 2',
        'latency_seconds_bucket{le="+Inf"} 3',
        "latency_seconds_sum 5.55",
        "latency_seconds_count 3",
        "# HELP external_total From elsewhere.",
        "# TYPE external_total counter",
        'external_total{a="b"} 7',
        "",
      ].join("\n"),
    );
  });

  test("renders a collected histogram (kept in shared memory) like its own ones", () => {
    const registry = new MetricsRegistry();
    registry.addCollector(() => [
      {
        name: "io_seconds",
        help: "I/O.",
        type: "histogram",
        series: [
          {
            labels: { step: "sync" },
            buckets: [
              { le: 0.001, count: 2 },
              { le: Number.POSITIVE_INFINITY, count: 3 },
            ],
            sum: 0.0125,
            count: 3,
          },
          {
            labels: { step: "write" },
            buckets: [
              { le: 0.001, count: 0 },
              { le: Number.POSITIVE_INFINITY, count: 0 },
            ],
            sum: 0,
            count: 0,
          },
        ],
      },
    ]);
    expect(registry.render()).toBe(
      [
        "# HELP io_seconds I/O.",
        "# TYPE io_seconds histogram",
        'io_seconds_bucket{step="sync",le="0.001"} 2',
        'io_seconds_bucket{step="sync",le="+Inf"} 3',
        'io_seconds_sum{step="sync"} 0.0125',
        'io_seconds_count{step="sync"} 3',
        'io_seconds_bucket{step="write",le="0.001"} 0',
        'io_seconds_bucket{step="write",le="+Inf"} 0',
        'io_seconds_sum{step="write"} 0',
        'io_seconds_count{step="write"} 0',
        "",
      ].join("\n"),
    );
  });

  test("refuses duplicate names, invalid names and unsorted buckets", () => {
    const registry = new MetricsRegistry();
    registry.counter("a_total", "A.");
    expect(() => registry.counter("a_total", "A.")).toThrow(/already registered/);
    expect(() => registry.gauge("bad-name", "B.")).toThrow(/invalid metric name/);
    expect(() => registry.histogram("h", "H.", [1, 1])).toThrow(/ascending/);
  });
});
