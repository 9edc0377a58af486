// The nereus_reclamation_* families: present (at 0) before the first run, and read from ReclamationStats at each
// scrape — counters by kind, the pending gauges summed over streams.
import { ReclamationStats } from "@nereus/core";
import { Registry } from "prom-client";
import { describe, expect, test } from "vitest";
import { registerReclamationMetrics } from "./reclamation-metrics.js";

describe("reclamation metrics", () => {
  test("every family is exposed from the start and follows the stats at each scrape", async () => {
    const stats = new ReclamationStats();
    const registry = new Registry();
    registerReclamationMetrics(registry, stats);
    const first = await registry.metrics();
    expect(first).toContain('nereus_reclamation_bytes_freed_total{kind="OBJECT_WAL"} 0');
    expect(first).toContain('nereus_reclamation_bytes_freed_total{kind="STREAM_GENERATION"} 0');
    expect(first).toContain("nereus_reclamation_pending_bytes 0");

    stats.runs = 3;
    stats.failures = 1;
    stats.freed("OBJECT_WAL", 1_000);
    stats.freed("OBJECT_WAL", 500);
    stats.freed("STREAM_GENERATION", 70);
    stats.setPending("s-1", 2, 300);
    stats.setPending("s-2", 1, 40);
    const scrape = await registry.metrics();
    expect(scrape).toContain("nereus_reclamation_runs_total 3");
    expect(scrape).toContain("nereus_reclamation_failures_total 1");
    expect(scrape).toContain('nereus_reclamation_bytes_freed_total{kind="OBJECT_WAL"} 1500');
    expect(scrape).toContain('nereus_reclamation_objects_freed_total{kind="OBJECT_WAL"} 2');
    expect(scrape).toContain('nereus_reclamation_bytes_freed_total{kind="STREAM_GENERATION"} 70');
    expect(scrape).toContain("nereus_reclamation_pending_objects 3");
    expect(scrape).toContain("nereus_reclamation_pending_bytes 340");
  });

  test("the ledger collector's stats add up with the Object WAL collector's", async () => {
    const objects = new ReclamationStats();
    const ledgers = new ReclamationStats();
    const registry = new Registry();
    registerReclamationMetrics(registry, objects, ledgers);
    expect(await registry.metrics()).toContain('nereus_reclamation_bytes_freed_total{kind="BOOKKEEPER_LEDGER"} 0');
    objects.runs = 2;
    ledgers.runs = 5;
    ledgers.freed("BOOKKEEPER_LEDGER", 4_096);
    ledgers.freed("ORPHAN_LEDGER", 10);
    objects.setPending("s-1", 1, 100);
    ledgers.setPending("s-1", 2, 50);
    const scrape = await registry.metrics();
    expect(scrape).toContain("nereus_reclamation_runs_total 7");
    expect(scrape).toContain('nereus_reclamation_bytes_freed_total{kind="BOOKKEEPER_LEDGER"} 4096');
    expect(scrape).toContain('nereus_reclamation_objects_freed_total{kind="ORPHAN_LEDGER"} 1');
    expect(scrape).toContain("nereus_reclamation_pending_objects 3");
    expect(scrape).toContain("nereus_reclamation_pending_bytes 150");
  });
});
