// Building new inline arrays from old ones: inserting whole-acked offsets into the sorted ranges (coalescing
// neighbours) and merging partial acks. Linear in the inline part plus the inserted items; inputs never change.
import type { AckRange, PartialAck } from "../domain/ack-types.js";
import { firstPartialAtOrAfter, firstRangeEndingAfter } from "./inline-search.js";

/**
 * `ranges` (sorted, disjoint, non-adjacent) with the ascending, distinct `offsets` added; an offset already inside a
 * range changes nothing. The result is sorted, disjoint and non-adjacent again.
 */
export function addOffsetsToRanges(ranges: readonly AckRange[], offsets: readonly number[]): AckRange[] {
  const result: AckRange[] = [];
  let next = 0;
  const appendRange = (start: number, end: number): void => {
    const last = result[result.length - 1];
    if (last !== undefined && start <= last.end) {
      if (end > last.end) result[result.length - 1] = { start: last.start, end };
    } else {
      result.push({ start, end });
    }
  };
  for (let index = 0; index < offsets.length;) {
    const runStart = offsets[index]!;
    let runEnd = runStart + 1;
    index++;
    while (index < offsets.length && offsets[index]! <= runEnd) runEnd = Math.max(runEnd, offsets[index++]! + 1);
    const stop = firstRangeEndingAfter(ranges, runStart - 1);
    if (stop > next) appendSlice(result, ranges, next, stop);
    next = Math.max(next, stop);
    if (next < ranges.length && ranges[next]!.start <= runStart) {
      appendRange(ranges[next]!.start, ranges[next]!.end);
      next++;
    }
    appendRange(runStart, runEnd);
    while (next < ranges.length && ranges[next]!.start <= runEnd) {
      appendRange(ranges[next]!.start, ranges[next]!.end);
      next++;
    }
  }
  if (next < ranges.length) appendSlice(result, ranges, next, ranges.length);
  return result;
}

/**
 * `partials` (sorted by offset) with every offset in `wholeOffsets` (ascending) removed and `updates` (sorted,
 * distinct offsets) inserted, an update replacing the old partial of its offset.
 */
export function mergePartials(
  partials: readonly PartialAck[],
  updates: readonly PartialAck[],
  wholeOffsets: readonly number[],
): PartialAck[] {
  const result: PartialAck[] = [];
  let next = 0;
  let update = 0;
  let whole = 0;
  while (next < partials.length || update < updates.length) {
    const pending = updates[update];
    const stop = pending === undefined ? partials.length : firstPartialAtOrAfter(partials, pending.offset);
    for (; next < stop; next++) {
      const partial = partials[next]!;
      while (whole < wholeOffsets.length && wholeOffsets[whole]! < partial.offset) whole++;
      if (wholeOffsets[whole] !== partial.offset) result.push(partial);
    }
    if (pending === undefined) break;
    result.push(pending);
    if (partials[next]?.offset === pending.offset) next++;
    update++;
  }
  return result;
}

function appendSlice<T>(result: T[], items: readonly T[], from: number, to: number): void {
  for (let index = from; index < to; index++) result.push(items[index]!);
}
