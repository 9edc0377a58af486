import { Registry } from "prom-client";
import { describe, expect, test } from "vitest";
import { readExposition } from "../../test/support/prometheus-text.js";
import { type CollectedFamily, registerCollectedFamilies } from "./collected-families.js";

function families(requests: number): CollectedFamily[] {
  return [
    {
      name: "requests_total",
      help: "Requests.",
      type: "counter",
      samples: [
        { labels: { api: "Produce" }, value: requests },
        { labels: { api: 'we"ird\\' }, value: 1 },
      ],
    },
    { name: "up", help: "Up.", type: "gauge", samples: [{ labels: {}, value: 1 }] },
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
      ],
    },
  ];
}

describe("collected families", () => {
  test("are rendered by prom-client like its own metrics, read at each scrape with one call per scrape", async () => {
    const registry = new Registry();
    let calls = 0;
    let requests = 3;
    registerCollectedFamilies(registry, () => {
      calls += 1;
      return families(requests);
    });
    const text = await registry.metrics();
    expect(text).toBe(
      [
        "# HELP requests_total Requests.",
        "# TYPE requests_total counter",
        'requests_total{api="Produce"} 3',
        'requests_total{api="we\\"ird\\\\"} 1',
        "",
        "# HELP up Up.",
        "# TYPE up gauge",
        "up 1",
        "",
        "# HELP io_seconds I/O.",
        "# TYPE io_seconds histogram",
        'io_seconds_bucket{step="sync",le="0.001"} 2',
        'io_seconds_bucket{step="sync",le="+Inf"} 3',
        'io_seconds_sum{step="sync"} 0.0125',
        'io_seconds_count{step="sync"} 3',
        "",
      ].join("\n"),
    );
    expect(readExposition(text).problems).toEqual([]);
    expect(calls).toBe(2);
    requests = 5;
    expect(await registry.metrics()).toContain('requests_total{api="Produce"} 5');
    expect(calls).toBe(3);
  });

  test("a failing collector leaves its families empty for that scrape; a name cannot be registered twice", async () => {
    const registry = new Registry();
    let fail = false;
    registerCollectedFamilies(registry, () => {
      if (fail) throw new Error("broken collector");
      return families(1);
    });
    fail = true;
    const text = await registry.metrics();
    expect(text).toContain("# TYPE requests_total counter");
    expect(text).not.toContain("requests_total{");
    expect(() => registerCollectedFamilies(registry, () => families(1))).toThrow(/already been registered/);
  });
});
