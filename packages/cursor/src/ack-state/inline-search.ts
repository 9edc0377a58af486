// Binary searches over a view's inline arrays (sorted ranges, sorted partials). Internal to the ack-state algebra.
import type { AckRange, PartialAck } from "../domain/ack-types.js";

/** Index of the first range whose end is above `offset`; `ranges.length` if none. */
export function firstRangeEndingAfter(ranges: readonly AckRange[], offset: number): number {
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ranges[middle]!.end <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The inline range containing `offset`, or undefined. */
export function rangeContaining(ranges: readonly AckRange[], offset: number): AckRange | undefined {
  const range = ranges[firstRangeEndingAfter(ranges, offset)];
  return range !== undefined && range.start <= offset ? range : undefined;
}

/** Start of the first range starting at or after `offset`, or undefined. */
export function nextRangeStartAtOrAfter(ranges: readonly AckRange[], offset: number): number | undefined {
  const index = firstRangeEndingAfter(ranges, offset);
  const range = ranges[index];
  if (range === undefined) return undefined;
  return range.start >= offset ? range.start : ranges[index + 1]?.start;
}

/** Index of the first partial at or above `offset`; `partials.length` if none. */
export function firstPartialAtOrAfter(partials: readonly PartialAck[], offset: number): number {
  let low = 0;
  let high = partials.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (partials[middle]!.offset < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The partial of exactly `offset`, or undefined. */
export function partialAt(partials: readonly PartialAck[], offset: number): PartialAck | undefined {
  const partial = partials[firstPartialAtOrAfter(partials, offset)];
  return partial?.offset === offset ? partial : undefined;
}
