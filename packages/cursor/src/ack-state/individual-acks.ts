// Individual acks: a list of whole entries and batch indexes acknowledged out of order, applied all or nothing.
// Every item is checked before anything is computed; the result shares the base and rebuilds only the inline part
// (O(i + m) plus O(m log n) base lookups for m items).
import type { PartialAck } from "../domain/ack-types.js";
import { isWholeAcked, remainingOf } from "./ack-queries.js";
import type { AckMutation, AckView } from "./ack-view.js";
import { type BatchBits, type BatchState, batchBitsEqual, classifyBatchBits, mergeBatchBits } from "./batch-bits.js";
import { checkOffset } from "./check-offset.js";
import { fold } from "./fold.js";
import { addOffsetsToRanges, mergePartials } from "./inline-edit.js";

/** One acknowledged entry: the whole entry, or (with `batch`) the batch indexes `batch` clears. */
export interface IndividualAck {
  readonly offset: number;
  readonly batch?: BatchBits;
}

/** A checked request item: a whole entry, or a canonical partial (an item acknowledging nothing is dropped). */
export type NormalizedAck = { readonly offset: number; readonly batch: BatchBits | undefined };

/**
 * Acknowledges every item. Items below markDelete or already whole acknowledged change nothing; duplicates merge
 * (whole wins; partials AND-merge). Applied when anything changed. Throws INVALID_ARGUMENT (and changes nothing) for
 * a bad offset, a bad bit map, or a batch size that differs from another item's or the entry's known one.
 */
export function individualAcks(view: AckView, items: readonly IndividualAck[]): AckMutation {
  const requests = normalizeIndividualAcks(items);
  const wholeOffsets: number[] = [];
  const partials: PartialAck[] = [];
  for (const request of requests) {
    if (isWholeAcked(view, request.offset)) continue;
    if (request.batch === undefined) {
      wholeOffsets.push(request.offset);
      continue;
    }
    const existing = remainingOf(view, request.offset);
    const merged = existing === undefined ? classifyBatchBits(request.batch) : mergeBatchBits(existing, request.batch);
    if (merged.kind === "whole") {
      wholeOffsets.push(request.offset);
    } else if (merged.kind === "partial" && !isSame(existing, request.batch.batchSize, merged)) {
      partials.push({ offset: request.offset, batchSize: request.batch.batchSize, remaining: merged.remaining });
    }
  }
  if (wholeOffsets.length === 0 && partials.length === 0) return { view, applied: false };
  const next: AckView = {
    ...view,
    inlineRanges: wholeOffsets.length === 0 ? view.inlineRanges : addOffsetsToRanges(view.inlineRanges, wholeOffsets),
    inlinePartials: mergePartials(view.inlinePartials, partials, wholeOffsets),
  };
  return { view: fold(next), applied: true };
}

/**
 * Checks every item, sorts by offset and merges duplicates: a whole ack wins over partials of the same entry;
 * partials of one entry AND-merge (equal batch sizes required); an item acknowledging nothing is dropped, one
 * acknowledging every batch index becomes a whole ack.
 */
export function normalizeIndividualAcks(items: readonly IndividualAck[]): NormalizedAck[] {
  items.forEach((item, index) => {
    checkOffset(item.offset, `ack ${index} offset`);
    if (item.batch !== undefined) classifyBatchBits(item.batch);
  });
  const sorted = [...items].sort((left, right) => left.offset - right.offset);
  const result: NormalizedAck[] = [];
  for (let index = 0; index < sorted.length;) {
    const offset = sorted[index]!.offset;
    let batch: BatchBits | undefined;
    let whole = false;
    for (; index < sorted.length && sorted[index]!.offset === offset; index++) {
      const item = sorted[index]!;
      if (item.batch === undefined) whole = true;
      else batch = batch === undefined ? item.batch : andBatchBits(batch, item.batch);
    }
    const state = whole || batch === undefined ? undefined : classifyBatchBits(batch);
    if (whole || state?.kind === "whole") {
      result.push({ offset, batch: undefined });
    } else if (state?.kind === "partial") {
      result.push({ offset, batch: { batchSize: batch!.batchSize, remaining: state.remaining } });
    }
  }
  return result;
}

/** Both maps' acks together (AND of the remaining words), not yet classified. */
function andBatchBits(current: BatchBits, next: BatchBits): BatchBits {
  const state = mergeBatchBits(current, next);
  if (state.kind === "none") return current;
  return { batchSize: current.batchSize, remaining: state.kind === "partial" ? state.remaining : [] };
}

function isSame(
  existing: PartialAck | undefined,
  batchSize: number,
  merged: BatchState & { kind: "partial" },
): boolean {
  return existing !== undefined && batchBitsEqual(existing, { batchSize, remaining: merged.remaining });
}
