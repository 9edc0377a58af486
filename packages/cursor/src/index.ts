// Public API of @nereus/cursor: durable cursors over core's metadata and object stores. A `CursorStore` opens a
// stream's cursors for writing (claiming them for this process's owner session); each cursor is a `CursorHandle`
// whose acks are group-committed into one metadata root; the stream's retention floor guards trims. See README.md.
export { CursorStore, createCursorStore } from "./stream/cursor-store.js";
export {
  StreamCursors,
  type StreamOperationOptions,
  type CreateCursorOptions,
  type ResetCursorOptions,
} from "./stream/stream-cursors.js";
export type { InitialPosition } from "./stream/cursor-positions.js";
export { CursorHandle } from "./cursor/cursor-handle.js";
export type { MutationResult } from "./cursor/ack-group-commit.js";
export type {
  MutationOptions,
  CumulativeAckOptions,
  ResetOptions,
  SkipCallOptions,
} from "./cursor/mutation-options.js";
export type { HydratedCursor } from "./cursor/hydrated-cursor.js";
export { CursorCounters } from "./cursor/cursor-counters.js";
export type { IndividualAck } from "./ack-state/individual-acks.js";
export { batchBitsAcking, ackedBatchIndexes, type BatchBits } from "./ack-state/batch-bits.js";
export { MAX_BATCH_SIZE, type AckRange, type PartialAck } from "./domain/ack-types.js";
export type {
  CursorLifecycle,
  CursorStateRecord,
  CursorRetentionRecord,
  RetentionLifecycle,
  SnapshotReference,
} from "./domain/cursor-records.js";
export {
  DEFAULT_CURSOR_LIMITS,
  type CursorLimits,
  type CursorStoreOptions,
  type CursorStreamAccess,
} from "./store/cursor-store-options.js";
