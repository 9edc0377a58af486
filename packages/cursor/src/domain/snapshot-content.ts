// What one cursor snapshot object holds: the full ack state of one cursor generation at one root version, cut at
// its markDelete offset. Properties and the owner session are never in a snapshot (they live in the root).
import type { PartialAck } from "./ack-types.js";

/**
 * Invariants (the snapshot codec enforces them both ways): ranges are `[rangeStarts[i], rangeEnds[i])`, sorted,
 * disjoint, non-adjacent, every start above `baseMarkDeleteOffset`; both arrays have the same length and hold safe
 * integers; partials are sorted by offset, canonical (see PartialAck), at or above `baseMarkDeleteOffset`, and not
 * inside a range.
 */
export interface CursorSnapshotContent {
  /** 32 lowercase hex digits. */
  readonly snapshotId: string;
  readonly streamId: string;
  readonly cursorNameHash: string;
  readonly cursorGeneration: number;
  readonly sourceMutationSequence: number;
  readonly baseMarkDeleteOffset: number;
  readonly createdAtMillis: number;
  readonly rangeStarts: Float64Array;
  readonly rangeEnds: Float64Array;
  readonly partials: readonly PartialAck[];
}
