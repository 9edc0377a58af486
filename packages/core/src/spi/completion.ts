// Completion coordinator SPI: decides when the producer hears success after the head CAS. It never changes
// when the range became committed; a failure here yields KNOWN_COMMITTED.
import type { AppendResult } from "../domain/append-types.js";
import type { AppendAckBoundary } from "../domain/storage-profile.js";
import type { StreamHead } from "../domain/stream-head.js";
import type { MetadataStore } from "./metadata-store.js";

export interface CompletionContext {
  readonly head: StreamHead;
  readonly result: AppendResult;
  readonly metadata: MetadataStore;
  readonly signal?: AbortSignal;
}

export interface CompletionCoordinator {
  readonly boundary: AppendAckBoundary;
  /** Resolves when the boundary holds for `result`; must be idempotent (recovery calls it again). */
  complete(context: CompletionContext): Promise<void>;
}

/** Admission hook run before any WAL I/O (e.g. materialization-lag bound of async profiles). */
export interface AdmissionHook {
  /** Throws `NereusError(BACKPRESSURE_REJECTED)` to reject; must not do physical WAL I/O. */
  admit(streamId: string, head: StreamHead, options?: { signal?: AbortSignal }): Promise<void>;
}
