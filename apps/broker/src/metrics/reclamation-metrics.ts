// The storage collectors' series for /metrics (`nereus_reclamation_*`), read at scrape time from the ReclamationStats
// of the Object WAL runtime's collector and (with BookKeeper) the ledger collector, summed: runs and failures, bytes
// and objects (ledgers) freed by kind, what waits for deletion now, and the collectors' metadata work. Counters count
// since the broker started.
import { ReclamationStats } from "@nereus/core";
import type { Registry } from "prom-client";
import { type CollectedFamily, registerCollectedFamilies } from "./collected-families.js";

/** Kinds of physical things the collectors free; always exposed so a scrape shows 0 before the first. */
const FREED_KINDS = ["OBJECT_WAL", "STREAM_GENERATION", "ORPHAN_OBJECT", "BOOKKEEPER_LEDGER", "ORPHAN_LEDGER"] as const;

function byKind(freed: ReadonlyMap<string, number>): Array<{ labels: { kind: string }; value: number }> {
  const kinds = new Set<string>([...FREED_KINDS, ...freed.keys()]);
  return [...kinds].map((kind) => ({ labels: { kind }, value: freed.get(kind) ?? 0 }));
}

function counter(name: string, help: string, value: number): CollectedFamily {
  return { name, help, type: "counter", samples: [{ labels: {}, value }] };
}

function gauge(name: string, help: string, value: number): CollectedFamily {
  return { name, help, type: "gauge", samples: [{ labels: {}, value }] };
}

/** The families of `stats` as of now (every family present even when zero). */
function reclamationFamilies(stats: ReclamationStats): CollectedFamily[] {
  return [
    counter("nereus_reclamation_runs_total", "Collection runs of one stream started.", stats.runs),
    counter(
      "nereus_reclamation_failures_total",
      "Collection runs that ended with an error (the next run resumes from metadata).",
      stats.failures,
    ),
    {
      name: "nereus_reclamation_bytes_freed_total",
      help: "Bytes deleted by the collectors, by kind (OBJECT_WAL: multi-stream WAL objects; STREAM_GENERATION: generation objects; ORPHAN_OBJECT: objects no root named; BOOKKEEPER_LEDGER: ledgers; ORPHAN_LEDGER: ledgers nothing referenced).",
      type: "counter",
      samples: byKind(stats.bytesFreed),
    },
    {
      name: "nereus_reclamation_objects_freed_total",
      help: "Objects and ledgers deleted by the collectors, by kind.",
      type: "counter",
      samples: byKind(stats.objectsFreed),
    },
    gauge(
      "nereus_reclamation_pending_objects",
      "Objects marked or being deleted, as of each stream's last run.",
      stats.pendingObjects,
    ),
    gauge("nereus_reclamation_pending_bytes", "Bytes of the objects marked or being deleted.", stats.pendingBytes),
    counter(
      "nereus_reclamation_targets_released_total",
      "Object slices and generations a stream stopped relying on (below its trim, replaced by a generation, or deleted).",
      stats.targetsReleased,
    ),
    counter(
      "nereus_reclamation_metadata_records_deleted_total",
      "Metadata records the collector deleted (commit intents, markers, index entries, protections, journal entries, roots).",
      stats.metadataRecordsDeleted,
    ),
    counter(
      "nereus_reclamation_vetoes_total",
      "Marked objects moved back to active because a reference to them appeared.",
      stats.vetoes,
    ),
    counter(
      "nereus_reclamation_conflicts_total",
      "Collector transactions that lost a compare (the next run plans again).",
      stats.conflicts,
    ),
    counter(
      "nereus_reclamation_deletes_sent_total",
      "Object deletes sent to the object store (a retried delete counts again).",
      stats.deletesSent,
    ),
  ];
}

/** The sum of several collectors' stats, as one ReclamationStats (pending gauges summed too). */
function summed(all: readonly ReclamationStats[]): ReclamationStats {
  const total = new ReclamationStats();
  all.forEach((stats, index) => {
    total.runs += stats.runs;
    total.failures += stats.failures;
    total.targetsReleased += stats.targetsReleased;
    total.metadataRecordsDeleted += stats.metadataRecordsDeleted;
    total.vetoes += stats.vetoes;
    total.conflicts += stats.conflicts;
    total.deletesSent += stats.deletesSent;
    for (const [kind, bytes] of stats.bytesFreed) total.bytesFreed.set(kind, (total.bytesFreed.get(kind) ?? 0) + bytes);
    for (const [kind, count] of stats.objectsFreed)
      total.objectsFreed.set(kind, (total.objectsFreed.get(kind) ?? 0) + count);
    total.setPending(`collector-${String(index)}`, stats.pendingObjects, stats.pendingBytes);
  });
  return total;
}

/** Adds the families of the collectors' `stats` (summed at each scrape) to `metrics`. */
export function registerReclamationMetrics(metrics: Registry, ...stats: readonly ReclamationStats[]): void {
  registerCollectedFamilies(metrics, () => reclamationFamilies(summed(stats)));
}
