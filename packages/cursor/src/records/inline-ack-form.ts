// The invariants of a cursor root's inline ack state (see CursorStateRecord): ranges sorted, disjoint,
// non-adjacent and above markDelete; partials sorted, canonical, at or above markDelete and outside every range.
// Pure; no I/O.
import type { AckRange, PartialAck } from "../domain/ack-types.js";
import { partialAckProblem } from "./partial-ack-form.js";

/** Why `ranges` are not valid inline ranges above `markDeleteOffset`, or undefined when they are. */
export function inlineRangesProblem(markDeleteOffset: number, ranges: readonly AckRange[]): string | undefined {
  if (!Array.isArray(ranges)) return "inlineRanges must be an array";
  let floor = markDeleteOffset + 1;
  for (let index = 0; index < ranges.length; index += 1) {
    const range = ranges[index] as AckRange;
    const { start, end } = range;
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start >= end) {
      return `inline range ${String(index)} [${String(start)}, ${String(end)}) is not a non-empty safe-integer range`;
    }
    if (start < floor) {
      return index === 0
        ? `inline range [${String(start)}, ${String(end)}) does not start above markDeleteOffset ${String(markDeleteOffset)}`
        : `inline range ${String(index)} [${String(start)}, ${String(end)}) is not sorted, disjoint and non-adjacent`;
    }
    floor = end + 1;
  }
  return undefined;
}

/**
 * Why `partials` are not valid inline partials (sorted by offset, canonical, at or above `markDeleteOffset`, not
 * inside any of `ranges`, which must already be valid), or undefined when they are.
 */
export function inlinePartialsProblem(
  markDeleteOffset: number,
  ranges: readonly AckRange[],
  partials: readonly PartialAck[],
): string | undefined {
  if (!Array.isArray(partials)) return "inlinePartials must be an array";
  let previous = markDeleteOffset - 1;
  let rangeIndex = 0;
  for (const partial of partials) {
    const problem = partialAckProblem(partial);
    if (problem !== undefined) return problem;
    if (partial.offset <= previous) {
      return partial.offset < markDeleteOffset
        ? `partial ack at ${String(partial.offset)} is below markDeleteOffset ${String(markDeleteOffset)}`
        : `partial acks are not in strictly ascending offset order at ${String(partial.offset)}`;
    }
    while (rangeIndex < ranges.length && (ranges[rangeIndex] as AckRange).end <= partial.offset) rangeIndex += 1;
    const range = ranges[rangeIndex];
    if (range !== undefined && range.start <= partial.offset) {
      return `partial ack at ${String(partial.offset)} lies inside inline range [${String(range.start)}, ${String(range.end)})`;
    }
    previous = partial.offset;
  }
  return undefined;
}
