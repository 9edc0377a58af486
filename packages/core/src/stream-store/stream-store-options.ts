// Options of `createStreamStore`: the metadata store, the cluster, this process's writer identity, the installed
// providers and the policies of the append pipeline. Only `metadata`, `cluster`, `writerId` and the three
// provider lists are required; the defaults are listed in docs/architecture.md §10.
import type { AppendStepHooks } from "../append/append-step-hooks.js";
import type { ReadPins } from "../reclamation/read-pins.js";
import type { AdmissionHook, CompletionCoordinator } from "../spi/completion.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { WalReader, WalWriter } from "../spi/wal.js";

/**
 * The provider lists a WAL runtime hands to `createStreamStore` (a runtime's `storeOptions()`), so a composition
 * root can spread several runtimes' lists into one store.
 */
export interface StoreProviders {
  readonly walWriters: readonly WalWriter[];
  readonly walReaders: readonly WalReader[];
  readonly completionCoordinators: readonly CompletionCoordinator[];
  readonly admissionHooks: readonly AdmissionHook[];
  /** The pins the store's reads take, shared with a storage collector of the same process (see `ReadPins`). */
  readonly readPins?: ReadPins;
}

export interface StreamStoreOptions {
  /** The metadata store (not owned: `close()` leaves it open). */
  readonly metadata: MetadataStore;
  /** Cluster name; every key lives under `/nereus/clusters/{cluster}`. */
  readonly cluster: string;
  /** Identity of this writer process (unique among live processes; may be stable across restarts). */
  readonly writerId: string;
  /** One writer per primary WAL kind. */
  readonly walWriters: readonly WalWriter[];
  /** One reader per read-target type. */
  readonly walReaders: readonly WalReader[];
  /** One coordinator per ack boundary (STABLE_HEAD and GENERATION_ZERO_VISIBLE are built in: pass them). */
  readonly completionCoordinators: readonly CompletionCoordinator[];
  /** Run before any WAL I/O of every append. */
  readonly admissionHooks?: readonly AdmissionHook[];
  /** Wall clock in ms for session expiry and createdAt (default `Date.now`). */
  readonly clock?: () => number;
  /** Append-session lease (default 30 s). */
  readonly sessionTtlMs?: number;
  /** Renew the session inside the next commit when less than this remains (default a third of the TTL). */
  readonly sessionRenewBeforeMs?: number;
  /** Take over another writer's session once it expired (default true). */
  readonly stealExpiredSessions?: boolean;
  /** Group-commit bounds (default 8 MiB / 10,000 entries); `false` disables merging. */
  readonly groupCommit?: { readonly maxBytes: number; readonly maxEntries: number } | false;
  /**
   * Append groups of one stream in flight at once (default 4; 1 = one at a time). Groups behind the first write
   * their WAL while the ones ahead commit; head CASes stay strictly ordered.
   */
  readonly pipelineDepth?: number;
  /** Automatic recovery of suspended lanes (default 10 ms doubling to 2 s); `false` leaves it to `recoverAppend`. */
  readonly autoRecovery?: { readonly minDelayMs: number; readonly maxDelayMs: number } | false;
  /** Commit intents a replay search may read (default 10,000). */
  readonly chainSearchBudget?: number;
  /** Commits one read-path index repair may walk (default 256). */
  readonly repairBudget?: number;
  /** Appends accepted but not settled, process-wide, before BACKPRESSURE_REJECTED (default 1,024). */
  readonly maxPendingAppends?: number;
  /** Payload bytes of those appends before BACKPRESSURE_REJECTED (default 64 MiB). */
  readonly maxPendingBytes?: number;
  /** Resolved attempts kept for `recoverAppend` (default 10,000). */
  readonly retainedAttempts?: number;
  /**
   * Pins of the targets this store's reads are using (default: the store's own). Pass the ones a storage collector
   * of this process condemns targets in, so it never deletes what a read of this process holds.
   */
  readonly readPins?: ReadPins;
  /** Test seams at every pipeline boundary (see `AppendStepHooks`). */
  readonly stepHooks?: AppendStepHooks;
}
