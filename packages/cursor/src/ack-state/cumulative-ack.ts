// Cumulative acks: everything below an offset (and that entry itself, or some batch indexes of it) is acknowledged.
// Pure: the input view is never modified; the base is shared, never copied.
import type { AckView, AckMutation } from "./ack-view.js";
import { type BatchBits, batchBitsEqual, classifyBatchBits, mergeBatchBits } from "./batch-bits.js";
import { checkOffset } from "./check-offset.js";
import { firstUnacked, isWholeAcked, remainingOf } from "./ack-queries.js";
import { fold } from "./fold.js";
import { mergePartials } from "./inline-edit.js";

/**
 * Acknowledges every entry up to and including `offset`: markDelete becomes `offset + 1`, then folds. Not applied
 * when `offset` is already below the first unacknowledged entry. Throws INVALID_ARGUMENT for a bad offset.
 */
export function cumulativeAck(view: AckView, offset: number): AckMutation {
  checkOffset(offset, "cumulative ack offset");
  if (offset < firstUnacked(view)) return { view, applied: false };
  return { view: fold({ ...view, markDeleteOffset: offset + 1 }), applied: true };
}

/**
 * Acknowledges every entry below `offset` and the batch indexes `batch` acknowledges at `offset` (AND-merged into the
 * entry's current partial ack): markDelete becomes `offset` (or `offset + 1` once no batch index remains), then
 * folds. Not applied when the state already contains all of it. Throws INVALID_ARGUMENT for a bad offset, a bad bit
 * map, or a batch size different from the entry's known one.
 */
export function cumulativePartialAck(view: AckView, offset: number, batch: BatchBits): AckMutation {
  checkOffset(offset, "cumulative ack offset");
  const requested = classifyBatchBits(batch);
  const markDelete = firstUnacked(view);
  if (offset < markDelete) return { view, applied: false };
  const movesMarkDelete = offset > markDelete;
  if (isWholeAcked(view, offset)) return { view: fold({ ...view, markDeleteOffset: offset }), applied: true };
  const existing = remainingOf(view, offset);
  const merged = existing === undefined ? requested : mergeBatchBits(existing, batch);
  if (merged.kind === "whole") return { view: fold({ ...view, markDeleteOffset: offset + 1 }), applied: true };
  const unchanged =
    merged.kind === "none" ||
    (existing !== undefined && batchBitsEqual(existing, { batchSize: batch.batchSize, remaining: merged.remaining }));
  if (unchanged) {
    return { view: movesMarkDelete ? fold({ ...view, markDeleteOffset: offset }) : view, applied: movesMarkDelete };
  }
  const partial = { offset, batchSize: batch.batchSize, remaining: merged.remaining };
  const inlinePartials = mergePartials(view.inlinePartials, [partial], []);
  return { view: fold({ ...view, markDeleteOffset: offset, inlinePartials }), applied: true };
}
