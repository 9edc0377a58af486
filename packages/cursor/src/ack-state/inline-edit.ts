// Building new inline arrays from old ones: inserting whole-acked offsets into the sorted ranges (coalescing
// neighbours) and merging partial acks. Each builds a list of splice edits and applies them with bulk copies, so a
// few items into a long inline part cost about one array copy. Inputs never change.
import type { AckRange, PartialAck } from "../domain/ack-types.js";
import { firstPartialAtOrAfter, firstRangeEndingAfter } from "./inline-search.js";

/** Replace `remove` items at index `at` (of the original array) by `insert`, if any. */
interface Edit<T> {
  readonly at: number;
  remove: number;
  readonly insert: T | undefined;
}

/**
 * `ranges` (sorted, disjoint, non-adjacent) with the ascending, distinct `offsets` added; an offset already inside a
 * range changes nothing. The result is sorted, disjoint and non-adjacent again.
 */
export function addOffsetsToRanges(ranges: readonly AckRange[], offsets: readonly number[]): AckRange[] {
  const edits: Edit<AckRange>[] = [];
  let next = 0;
  let current: { start: number; end: number; edit: Edit<AckRange> } | undefined;
  for (let index = 0; index < offsets.length;) {
    const runStart = offsets[index]!;
    let runEnd = runStart + 1;
    for (index++; index < offsets.length && offsets[index]! <= runEnd; index++) {
      runEnd = Math.max(runEnd, offsets[index]! + 1);
    }
    if (current !== undefined && runStart <= current.end) {
      current.end = Math.max(current.end, runEnd);
    } else {
      if (current !== undefined) edits.push(closed(current));
      next = Math.max(next, firstRangeEndingAfter(ranges, runStart - 1));
      current = { start: runStart, end: runEnd, edit: { at: next, remove: 0, insert: undefined } };
    }
    for (; next < ranges.length && ranges[next]!.start <= current.end; next++) {
      current.start = Math.min(current.start, ranges[next]!.start);
      current.end = Math.max(current.end, ranges[next]!.end);
      current.edit.remove++;
    }
  }
  if (current !== undefined) edits.push(closed(current));
  return applyEdits(ranges, edits);
}

/**
 * `partials` (sorted by offset) with every offset in `wholeOffsets` (ascending) removed and `updates` (sorted,
 * distinct offsets, none in `wholeOffsets`) inserted, an update replacing the old partial of its offset.
 */
export function mergePartials(
  partials: readonly PartialAck[],
  updates: readonly PartialAck[],
  wholeOffsets: readonly number[],
): PartialAck[] {
  const edits: Edit<PartialAck>[] = [];
  let next = 0;
  const edit = (offset: number, insert: PartialAck | undefined): void => {
    const at = Math.max(next, firstPartialAtOrAfter(partials, offset));
    const remove = partials[at]?.offset === offset ? 1 : 0;
    if (remove > 0 || insert !== undefined) edits.push({ at, remove, insert });
    next = at + remove;
  };
  let whole = 0;
  for (const update of updates) {
    for (; whole < wholeOffsets.length && wholeOffsets[whole]! < update.offset; whole++) {
      edit(wholeOffsets[whole]!, undefined);
    }
    edit(update.offset, update);
  }
  for (; whole < wholeOffsets.length; whole++) edit(wholeOffsets[whole]!, undefined);
  return applyEdits(partials, edits);
}

function closed(current: { start: number; end: number; edit: Edit<AckRange> }): Edit<AckRange> {
  return { at: current.edit.at, remove: current.edit.remove, insert: { start: current.start, end: current.end } };
}

/** A new array: `items` with the edits (ascending, non-overlapping) applied, copying untouched stretches in bulk. */
function applyEdits<T>(items: readonly T[], edits: readonly Edit<T>[]): T[] {
  const only = edits[0];
  if (only === undefined) return items.slice();
  if (edits.length === 1) {
    return only.insert === undefined
      ? items.toSpliced(only.at, only.remove)
      : items.toSpliced(only.at, only.remove, only.insert);
  }
  const pieces: T[][] = [];
  let copied = 0;
  for (const { at, remove, insert } of edits) {
    if (at > copied) pieces.push(items.slice(copied, at));
    if (insert !== undefined) pieces.push([insert]);
    copied = at + remove;
  }
  if (copied < items.length) pieces.push(items.slice(copied));
  return pieces.length <= 4096 ? ([] as T[]).concat(...pieces) : pieces.flat();
}
