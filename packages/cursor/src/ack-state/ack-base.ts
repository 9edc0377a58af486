// The spilled part of a cursor's ack state: what one snapshot object holds, as an immutable in-memory value that
// answers single-offset questions in O(log n). Built once per hydration or spill; never modified afterwards.
import { ErrorCode, NereusError } from "@nereus/core";
import type { PartialAck } from "../domain/ack-types.js";
import type { CursorSnapshotContent } from "../domain/snapshot-content.js";
import { AckRangeSet } from "./ack-range-set.js";

/**
 * The ack state a snapshot holds, cut at `baseMarkDeleteOffset`: every range starts above it, every partial is at or
 * above it and inside no range. `partials` iterates in ascending offset order. Shared between views; never mutated.
 */
export interface AckBase {
  readonly baseMarkDeleteOffset: number;
  readonly ranges: AckRangeSet;
  readonly partials: ReadonlyMap<number, PartialAck>;
}

/** The base of a root that references no snapshot. */
export const EMPTY_ACK_BASE: AckBase = Object.freeze({
  baseMarkDeleteOffset: 0,
  ranges: AckRangeSet.EMPTY,
  partials: new Map<number, PartialAck>(),
});

/**
 * The base of a decoded snapshot (O(n); copies the range arrays). The codec has checked the content; this repeats
 * the checks that cost O(1) per item and throws METADATA_INVARIANT_VIOLATION when one fails.
 */
export function ackBaseFromSnapshot(content: CursorSnapshotContent): AckBase {
  const floor = content.baseMarkDeleteOffset;
  const ranges = AckRangeSet.fromArrays(content.rangeStarts, content.rangeEnds);
  if (ranges.size > 0 && ranges.startAt(0) <= floor) {
    throw corrupt(content, `range [${ranges.startAt(0)}, ${ranges.endAt(0)}) does not start above ${floor}`);
  }
  const partials = new Map<number, PartialAck>();
  let previous = floor - 1;
  for (const partial of content.partials) {
    if (partial.offset <= previous)
      throw corrupt(content, `partial ${partial.offset} is out of order or below ${floor}`);
    if (ranges.contains(partial.offset)) throw corrupt(content, `partial ${partial.offset} lies inside a range`);
    partials.set(partial.offset, partial);
    previous = partial.offset;
  }
  return { baseMarkDeleteOffset: floor, ranges, partials };
}

function corrupt(content: CursorSnapshotContent, message: string): NereusError {
  return new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, `cursor snapshot ${content.snapshotId}: ${message}`);
}
