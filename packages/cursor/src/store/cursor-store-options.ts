// What a cursor store is built from: the metadata store holding cursor roots, the object store holding snapshots,
// the stream store whose heads and trims the retention floor guards, and the limits of every operation.
import type { MetadataStore, ObjectStore, StreamHead } from "@nereus/core";

/** The part of core's `StreamStore` cursors use; a `StreamStore` satisfies it. */
export interface CursorStreamAccess {
  getHead(streamId: string, options?: { readonly signal?: AbortSignal }): Promise<StreamHead>;
  /** Raises the stream's trim offset (monotone). */
  trim(streamId: string, trimOffset: number, options?: { readonly signal?: AbortSignal }): Promise<StreamHead>;
}

/** Limits of cursor operations; every field has a default (see `DEFAULT_CURSOR_LIMITS`). */
export interface CursorLimits {
  /** Whole entries and partial acks one `individualAck` call may carry (default 1,000). */
  readonly maxAcksPerRequest: number;
  /** CAS attempts of one mutation before it fails retriable (default 32). */
  readonly maxCasAttempts: number;
  /** Deadline of one operation, including its CAS retries (default 30,000 ms). */
  readonly operationTimeoutMs: number;
  /** Acks one coalesced CAS may carry (default 4,096). */
  readonly maxAcksPerCas: number;
  /** Inline items (ranges + partials) below which a root never spills to a snapshot (default 256). */
  readonly minInlineItems: number;
  /** Inline items above which a root always spills (default 16,384); between the two, 1/16 of the snapshot's. */
  readonly maxInlineItems: number;
  /**
   * Encoded root bytes above which a root spills whatever its item count (default 512 KiB: room for
   * `maxInlineItems` whole-entry ranges, below etcd's default 1.5 MiB request limit).
   */
  readonly maxInlineBytes: number;
  /** Cursor records (active and tombstones) one stream may hold (default 10,000). */
  readonly maxCursorsPerStream: number;
  /** Largest snapshot object read or written (default 512 MiB). */
  readonly maxSnapshotBytes: number;
}

export const DEFAULT_CURSOR_LIMITS: CursorLimits = {
  maxAcksPerRequest: 1_000,
  maxCasAttempts: 32,
  operationTimeoutMs: 30_000,
  maxAcksPerCas: 4_096,
  minInlineItems: 256,
  maxInlineItems: 16_384,
  maxInlineBytes: 512 * 1024,
  maxCursorsPerStream: 10_000,
  maxSnapshotBytes: 512 * 1024 * 1024,
};

export interface CursorStoreOptions {
  readonly metadata: MetadataStore;
  /** Holds cursor snapshots (create-only objects). */
  readonly objects: ObjectStore;
  readonly streams: CursorStreamAccess;
  /** Cluster name of the key layout (same as the stream store's). */
  readonly cluster: string;
  readonly limits?: Partial<CursorLimits>;
  /** Wall clock in milliseconds (tests pass a manual one). */
  readonly now?: () => number;
}
