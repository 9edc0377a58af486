// Questions about the effective ack state of a view: is an entry (or one batch index of it) acknowledged, what
// remains of a batch, where the next unacknowledged entry is, how large the backlog is. Each costs O(log n) in the
// base, plus O(log i) in the inline part (backlog: O(i log n)). Never modifies the view.
import { ErrorCode, NereusError } from "@nereus/core";
import type { PartialAck } from "../domain/ack-types.js";
import type { AckView } from "./ack-view.js";
import { isIndexAcked } from "./batch-bits.js";
import { firstRangeEndingAfter, nextRangeStartAtOrAfter, partialAt, rangeContaining } from "./inline-search.js";

/** True when entry `offset` is acknowledged as a whole (below markDelete, or in a base or inline range). */
export function isWholeAcked(view: AckView, offset: number): boolean {
  return (
    offset < view.markDeleteOffset ||
    view.base.ranges.contains(offset) ||
    rangeContaining(view.inlineRanges, offset) !== undefined
  );
}

/**
 * The partial ack of entry `offset` (its still-unacknowledged batch indexes), or undefined when the entry is whole
 * acknowledged or has no partial ack. An inline partial replaces the base's.
 */
export function remainingOf(view: AckView, offset: number): PartialAck | undefined {
  if (isWholeAcked(view, offset)) return undefined;
  return partialAt(view.inlinePartials, offset) ?? view.base.partials.get(offset);
}

/**
 * True when batch index `batchIndex` of entry `offset` is acknowledged: the entry is whole acknowledged, or its
 * partial ack clears that bit. False for an entry without ack state. Throws INVALID_ARGUMENT for a negative or
 * non-integer index, or one at or above the known batch size.
 */
export function isBatchIndexAcked(view: AckView, offset: number, batchIndex: number): boolean {
  if (!Number.isInteger(batchIndex) || batchIndex < 0) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `batch index ${batchIndex} is not a non-negative integer`);
  }
  if (isWholeAcked(view, offset)) return true;
  const partial = remainingOf(view, offset);
  return partial !== undefined && isIndexAcked(partial, batchIndex);
}

/**
 * The first offset at or above `offset` that lies in no range of the view (markDelete is not consulted): the end of
 * the run of whole-acked ranges starting at `offset`. O(k log n) for k ranges in the run; k is 0 or 1 per side on a
 * folded view except where inline ranges touch base ranges.
 */
export function endOfAckedRun(view: AckView, offset: number): number {
  let position = offset;
  for (;;) {
    const baseEnd = view.base.ranges.endOfRangeContaining(position);
    const inlineEnd = rangeContaining(view.inlineRanges, position)?.end;
    const next = Math.max(baseEnd ?? position, inlineEnd ?? position);
    if (next === position) return position;
    position = next;
  }
}

/** The first entry not acknowledged as a whole: markDelete advanced past ranges that contain it (partials stop it). */
export function firstUnacked(view: AckView): number {
  return endOfAckedRun(view, view.markDeleteOffset);
}

/**
 * The first entry at or above `from` that is not acknowledged as a whole (a partially acknowledged entry counts as
 * unacknowledged). Unbounded: the caller compares it with the committed end.
 */
export function nextUnacked(view: AckView, from: number): number {
  return endOfAckedRun(view, Math.max(from, view.markDeleteOffset));
}

/** Start of the first range (base or inline) starting at or after `offset`, or undefined. */
export function nextAckedRangeStart(view: AckView, offset: number): number | undefined {
  const baseStart = view.base.ranges.nextStartAtOrAfter(offset);
  const inlineStart = nextRangeStartAtOrAfter(view.inlineRanges, offset);
  if (baseStart === undefined) return inlineStart;
  if (inlineStart === undefined) return baseStart;
  return Math.min(baseStart, inlineStart);
}

/**
 * Entries in `[markDelete, committedEnd)` not acknowledged as a whole (a partially acknowledged entry counts as 1);
 * 0 when committedEnd is at or below markDelete. O(i log n) for i inline ranges.
 */
export function backlog(view: AckView, committedEnd: number): number {
  const from = view.markDeleteOffset;
  if (committedEnd <= from) return 0;
  return committedEnd - from - wholeAckedCountIn(view, from, committedEnd);
}

/** Offsets in `[from, to)` covered by the union of base and inline ranges (each counted once). */
export function wholeAckedCountIn(view: AckView, from: number, to: number): number {
  const base = view.base.ranges;
  let count = base.countIn(from, to);
  const inline = view.inlineRanges;
  for (let index = firstRangeEndingAfter(inline, from); index < inline.length; index++) {
    const range = inline[index]!;
    if (range.start >= to) break;
    const start = Math.max(range.start, from);
    const end = Math.min(range.end, to);
    count += end - start - base.countIn(start, end);
  }
  return count;
}

/** Items the root carries inline (ranges + partials): what the spill policy limits. */
export function inlineItemCount(view: AckView): number {
  return view.inlineRanges.length + view.inlinePartials.length;
}
