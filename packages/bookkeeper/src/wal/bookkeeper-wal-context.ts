// What the BookKeeper WAL writer, its ledger lifecycle and its reader share in one process: the client, the
// metadata store and cluster the stream store commits to, the cluster alias written into targets, the ledger
// parameters and the rollover policy. Built once by `createBookKeeperWalRuntime`.
import type { MetadataStore } from "@nereus/core";
import type { StreamKeyspace } from "@nereus/core/internal";
import type { BookKeeperClient } from "../client/bookkeeper-client.js";
import type { DigestType } from "../digest/digest-type.js";
import type { BookKeeperWalStats } from "./bookkeeper-wal-stats.js";

/** When the writer closes its current ledger and starts the next one (checked before each write). */
export interface LedgerRolloverPolicy {
  /** Entries per ledger (a batch is never split: one larger than this gets a ledger of its own). */
  readonly maxEntries: number;
  /** Framed payload bytes per ledger. */
  readonly maxBytes: number;
  /** Age of a ledger, from its creation. */
  readonly maxAgeMs: number;
}

/** Pulsar's managed-ledger defaults: 50,000 entries, 2 GiB, 4 hours. */
export const DEFAULT_ROLLOVER_POLICY: LedgerRolloverPolicy = Object.freeze({
  maxEntries: 50_000,
  maxBytes: 2 * 1024 * 1024 * 1024,
  maxAgeMs: 4 * 60 * 60 * 1000,
});

/** Ensemble, write quorum and ack quorum of every ledger the writer creates. */
interface LedgerQuorums {
  readonly ensembleSize: number;
  readonly writeQuorumSize: number;
  readonly ackQuorumSize: number;
}

export interface BookKeeperWalContext {
  readonly client: BookKeeperClient;
  readonly metadata: MetadataStore;
  readonly cluster: string;
  readonly keyspace: StreamKeyspace;
  /** Names this BookKeeper cluster in targets; a reader serves only targets of its alias. */
  readonly clusterAlias: string;
  readonly quorums: LedgerQuorums;
  readonly password: Uint8Array;
  readonly digestType: DigestType;
  readonly rollover: LedgerRolloverPolicy;
  /** How long an uncommitted takeover of equal or higher epoch holds off the head's own writer (liveness only). */
  readonly takeoverGraceMs: number;
  readonly clock: () => number;
  readonly stats: BookKeeperWalStats;
}
