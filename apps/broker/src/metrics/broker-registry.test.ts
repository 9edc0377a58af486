import { Counter, Registry } from "prom-client";
import { describe, expect, test } from "vitest";
import { readExposition } from "../../test/support/prometheus-text.js";
import { registerGaugeReading, renderMetrics } from "./broker-registry.js";

const sampleOf = (text: string, name: string): number =>
  Number(new RegExp(`^${name} ([0-9.e+-]+)$`, "m").exec(text)?.[1] ?? Number.NaN);

describe("the broker's metrics exposition", () => {
  test("holds the broker's families and Node.js's standard process metrics, in a valid text format", async () => {
    const registry = new Registry();
    new Counter({ name: "nereus_test_total", help: "A test counter.", registers: [registry] }).inc(2);
    let reading = 7;
    registerGaugeReading(registry, "nereus_test_reading", "Read at scrape time.", () => reading);
    const text = await renderMetrics(registry);
    const exposition = readExposition(text);
    expect(exposition.problems).toEqual([]);
    expect(sampleOf(text, "nereus_test_total")).toBe(2);
    expect(sampleOf(text, "nereus_test_reading")).toBe(7);
    for (const [name, type] of [
      ["process_cpu_seconds_total", "counter"],
      ["process_cpu_user_seconds_total", "counter"],
      ["process_resident_memory_bytes", "gauge"],
      ["process_start_time_seconds", "gauge"],
      ["nodejs_heap_size_used_bytes", "gauge"],
      ["nodejs_eventloop_lag_seconds", "gauge"],
      ["nodejs_gc_duration_seconds", "histogram"],
    ] as const)
      expect(exposition.types.get(name), name).toBe(type);
    expect(text).not.toMatch(/^nereus_process_/m);
    reading = 8;
    expect(sampleOf(await renderMetrics(registry), "nereus_test_reading")).toBe(8);
  });

  test("process CPU seconds grow with work; two brokers' registries share the process metrics", async () => {
    const first = new Registry();
    const second = new Registry();
    const before = sampleOf(await renderMetrics(first), "process_cpu_seconds_total");
    let spin = 0;
    const until = process.cpuUsage().user + 20_000;
    while (process.cpuUsage().user < until) spin += 1;
    expect(spin).toBeGreaterThan(0);
    expect(sampleOf(await renderMetrics(second), "process_cpu_seconds_total")).toBeGreaterThanOrEqual(before + 0.02);
  });
});
