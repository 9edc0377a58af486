// Completion coordinator SPI: decides when the producer hears success after the head CAS. It never changes
// when the range became committed; a failure here yields KNOWN_COMMITTED.
import type { AppendResult } from "../domain/append-types.js";
import type { CommitIntent } from "../domain/commit-records.js";
import type { AppendAckBoundary } from "../domain/storage-profile.js";
import type { StreamHead } from "../domain/stream-head.js";
import type { MetadataStore } from "./metadata-store.js";

export interface CompletionContext {
  /** A head at or after the commit (recovery may pass a later head than the one the commit wrote). */
  readonly head: StreamHead;
  /** The result of the whole commit (for a group commit: every member's range). */
  readonly result: AppendResult;
  /** The committed intent (reachable from the head). */
  readonly intent: CommitIntent;
  readonly metadata: MetadataStore;
  /** True when the commit transaction itself wrote the generation-0 index entry and replay marker. */
  readonly generationZeroCommitted: boolean;
  /**
   * Idempotently writes this commit's generation-0 index entry and replay marker (put-if-absent-or-equal).
   * Cheap to call when they exist (one read); coordinators call it when `generationZeroCommitted` is false.
   */
  ensureGenerationZero(options?: { readonly signal?: AbortSignal }): Promise<void>;
  readonly signal?: AbortSignal;
}

/**
 * Invariants: `complete` runs only after the head CAS committed; it must be idempotent (recovery calls it again
 * for the same commit); it may wait and write derived records, but never changes the head or the commit; a
 * failure makes the append fail KNOWN_COMMITTED (its range stays committed).
 */
export interface CompletionCoordinator {
  readonly boundary: AppendAckBoundary;
  /** Resolves when the boundary holds for `result`. */
  complete(context: CompletionContext): Promise<void>;
}

/** Admission hook run before any WAL I/O (e.g. materialization-lag bound of async profiles). */
export interface AdmissionHook {
  /** Throws `NereusError(BACKPRESSURE_REJECTED)` to reject; must not do physical WAL I/O. */
  admit(streamId: string, head: StreamHead, options?: { signal?: AbortSignal }): Promise<void>;
}
