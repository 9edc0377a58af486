// What every step of a ledger collection shares: the metadata store, the BookKeeper client, key layouts, the
// process's read pins, the clock, the policy (grace periods), the counters and the test seams. Built once per
// BookKeeperLedgerReclaimer.
import type { MetadataStore, ReadPins, ReclamationStats } from "@nereus/core";
import type { StreamKeyspace } from "@nereus/core/internal";
import type { BookKeeperClient } from "../client/bookkeeper-client.js";
import type { BookKeeperLedgerRoot } from "../wal/records/bookkeeper-wal-records.js";
import type { VersionedRecords } from "../wal/records/versioned-records.js";
import type { LedgerReclamation } from "./ledger-reclamation-records.js";

/** Time bounds of a ledger collection. */
export interface LedgerReclamationPolicy {
  /**
   * How long a root stays MARKED before its ledger may be deleted (default 60 s). It must exceed the longest read of
   * any process (their deadline; 30 s by default). Reads of this process are covered by pins whatever their length.
   */
  readonly graceMs: number;
  /** Clock skew between processes, added to every wait (default 1 s). */
  readonly clockSkewMs: number;
  /** A ledger created less than this ago is never marked (default 60 s). */
  readonly minLedgerAgeMs: number;
  /** How long a DELETED root and its journal entry stay as a tombstone before both go (default 1 h). */
  readonly tombstoneRetentionMs: number;
  /**
   * Age from which the orphan sweep treats a ledger as abandoned (default 10 min): a BookKeeper ledger of this
   * cluster without a root (its allocation crashed between create and root), or a sealed root that no range
   * protection and no journal entry names.
   */
  readonly orphanAgeMs: number;
}

export const DEFAULT_LEDGER_RECLAMATION_POLICY: LedgerReclamationPolicy = Object.freeze({
  graceMs: 60_000,
  clockSkewMs: 1_000,
  minLedgerAgeMs: 60_000,
  tombstoneRetentionMs: 3_600_000,
  orphanAgeMs: 600_000,
});

/**
 * Test seams: a throw inside one behaves like a crash of the collector at that point (the run stops; the next run,
 * of this or a new collector, resumes from metadata).
 */
export interface LedgerReclamationHooks {
  /** A release transaction applied (protections and trimmed records gone, journal entries written). */
  readonly afterRelease?: (streamId: string) => Promise<void> | void;
  /** A journal entry moved (with its root); `forgotten`: the entry was deleted. */
  readonly afterStep?: (entry: LedgerReclamation, forgotten: boolean) => Promise<void> | void;
  /** BookKeeper confirmed the ledger gone; the root is still DELETING. */
  readonly afterLedgerDelete?: (ledgerId: bigint) => Promise<void> | void;
}

export interface LedgerReclamationContext {
  readonly metadata: MetadataStore;
  readonly client: BookKeeperClient;
  readonly cluster: string;
  readonly clusterAlias: string;
  readonly keyspace: StreamKeyspace;
  readonly roots: VersionedRecords<BookKeeperLedgerRoot>;
  readonly pins: ReadPins;
  readonly clock: () => number;
  readonly policy: LedgerReclamationPolicy;
  readonly stats: ReclamationStats;
  readonly hooks: LedgerReclamationHooks;
}
