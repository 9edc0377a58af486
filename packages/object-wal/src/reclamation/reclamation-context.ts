// What every step of a stream's collection shares: the stores, key layouts, the process's read pins, the clock,
// the policy (grace periods), the counters and the test seams. Built once per StreamReclaimer.
import type { MetadataStore, ObjectStore, ReadPins, ReclamationStats } from "@nereus/core";
import type { StreamKeyspace } from "@nereus/core/internal";
import type { MaterializationStateStore } from "../generations/materialization-state-store.js";
import type { PhysicalObjectRoots } from "../roots/physical-object-roots.js";
import type { ObjectReclamation } from "./reclamation-records.js";

/** Time bounds of a collection. */
export interface ReclamationPolicy {
  /**
   * How long a root stays MARKED before its object may be deleted (default 60 s). It must exceed the longest read of
   * any process (their deadline; 30 s by default): a read of another process that resolved the object before the
   * proof held finishes within it. Reads of this process are covered by pins whatever their length.
   */
  readonly graceMs: number;
  /** Clock skew between processes, added to every wait (default 1 s). */
  readonly clockSkewMs: number;
  /**
   * An object younger than this is never marked (default 60 s): an append of another stream may still be committing
   * a slice of it (its deadline bounds how long), and marking would fail that append (safely, but needlessly).
   */
  readonly minObjectAgeMs: number;
  /** How long a DELETED root and its journal entry stay as a tombstone before both go (default 1 h). */
  readonly tombstoneRetentionMs: number;
}

export const DEFAULT_RECLAMATION_POLICY: ReclamationPolicy = Object.freeze({
  graceMs: 60_000,
  clockSkewMs: 1_000,
  minObjectAgeMs: 60_000,
  tombstoneRetentionMs: 3_600_000,
});

/**
 * Test seams: a throw inside one behaves like a crash of the collector at that point (the run stops; the next run,
 * of this or a new collector, resumes from metadata).
 */
export interface ReclamationHooks {
  /** A release transaction applied (protections and trimmed records gone, journal entries written). */
  readonly afterRelease?: (streamId: string) => Promise<void> | void;
  /** A journal entry moved (with its root when that moved too); `forgotten`: the entry was deleted. */
  readonly afterStep?: (entry: ObjectReclamation, forgotten: boolean) => Promise<void> | void;
  /** The object store confirmed the object absent; the root is still DELETING. */
  readonly afterObjectDelete?: (objectKey: string) => Promise<void> | void;
}

export interface ReclamationContext {
  readonly metadata: MetadataStore;
  readonly objects: ObjectStore;
  readonly cluster: string;
  readonly keyspace: StreamKeyspace;
  readonly roots: PhysicalObjectRoots;
  readonly states: MaterializationStateStore;
  readonly pins: ReadPins;
  readonly clock: () => number;
  readonly policy: ReclamationPolicy;
  readonly stats: ReclamationStats;
  readonly hooks: ReclamationHooks;
}
