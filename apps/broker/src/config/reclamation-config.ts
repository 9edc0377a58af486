// The `storage.reclamation` section: the storage collectors the broker runs — the Object WAL collector and, with
// BookKeeper, the ledger collector (packages/core/README.md,
// "Storage reclamation"). Trims, Kafka retention, DeleteRecords and deleted topics only move stream heads; the
// collector proves which WAL and generation objects no readable offset needs any more and deletes them after a grace
// period. The defaults are the collector's own.
import { z } from "zod";

const millis = z.int().min(0).max(86_400_000);

export const ReclamationConfigSchema = z.strictObject({
  /** Collect in this broker: background passes, and a run of a stream right after it is trimmed or deleted. */
  enabled: z.boolean().default(true),
  /** Pause between background passes over the streams this broker drives. */
  intervalMs: millis.min(1).default(30_000),
  /**
   * How long an object stays marked before it is deleted. It must exceed the longest read of any broker sharing the
   * store (30 s by default): a read of another broker that resolved the object before it was marked ends within it.
   */
  graceMs: millis.default(60_000),
  /**
   * Objects younger than this are never marked: an append of another stream may still be committing a slice of a
   * young WAL object, and marking it would fail that append (retryably, but needlessly).
   */
  minObjectAgeMs: millis.default(60_000),
  /**
   * Pause between inventory sweeps: the object store is listed and objects no root names are deleted once seen so
   * for `orphanAgeMs`; with BookKeeper every ledger root is scanned and the ledgers in ZooKeeper listed, collections
   * a crash interrupted are resumed and orphan ledgers deleted.
   */
  sweepIntervalMs: millis.min(1).default(300_000),
  /**
   * Age from which something nothing references counts as an orphan: an object no root names (a lost PUT response,
   * an aborted attempt; the age counts from the first sweep that saw it), a ledger of this cluster without a root
   * (its allocation crashed), or a sealed ledger no range protection names.
   */
  orphanAgeMs: millis.default(600_000),
});
