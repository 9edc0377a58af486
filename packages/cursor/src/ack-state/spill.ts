// Spilling: the full effective state of a view as a new base (what the next snapshot holds), and the snapshot
// content of a base. O(n + i): this is the one place the whole base is copied, and the spill policy bounds how
// often it happens.
import type { PartialAck } from "../domain/ack-types.js";
import type { CursorSnapshotContent } from "../domain/snapshot-content.js";
import type { AckBase } from "./ack-base.js";
import type { AckRangeSet } from "./ack-range-set.js";
import type { AckView } from "./ack-view.js";
import { fold } from "./fold.js";

/** The header fields of a snapshot: everything but the ack state itself. */
export type SnapshotIdentity = Omit<
  CursorSnapshotContent,
  "baseMarkDeleteOffset" | "rangeStarts" | "rangeEnds" | "partials"
>;

/**
 * The effective state of `view` as a base cut at its (folded) markDelete: base ranges above markDelete ∪ inline
 * ranges, coalesced; inline partials replacing the base's, partials inside a range dropped. A view over the result
 * with no inline items has exactly the same effective state as `view`.
 */
export function spill(view: AckView): AckBase {
  const folded = fold(view);
  const floor = folded.markDeleteOffset;
  const ranges = folded.base.ranges.unionAbove(floor, folded.inlineRanges);
  return { baseMarkDeleteOffset: floor, ranges, partials: spilledPartials(folded, floor, ranges) };
}

/** The view of a root that has just published `spill(view)` as its snapshot: same state, empty inline part. */
export function spilledView(view: AckView): AckView {
  const base = spill(view);
  return { markDeleteOffset: base.baseMarkDeleteOffset, base, inlineRanges: [], inlinePartials: [] };
}

/** The snapshot content of `base` under the given header (copies the range arrays). */
export function snapshotContentOf(base: AckBase, identity: SnapshotIdentity): CursorSnapshotContent {
  const { starts, ends } = base.ranges.toArrays();
  return {
    snapshotId: identity.snapshotId,
    streamId: identity.streamId,
    cursorNameHash: identity.cursorNameHash,
    cursorGeneration: identity.cursorGeneration,
    sourceMutationSequence: identity.sourceMutationSequence,
    createdAtMillis: identity.createdAtMillis,
    baseMarkDeleteOffset: base.baseMarkDeleteOffset,
    rangeStarts: starts,
    rangeEnds: ends,
    partials: [...base.partials.values()],
  };
}

function spilledPartials(view: AckView, floor: number, ranges: AckRangeSet): Map<number, PartialAck> {
  const result = new Map<number, PartialAck>();
  const inline = view.inlinePartials;
  let next = 0;
  const keep = (partial: PartialAck): void => {
    if (partial.offset >= floor && !ranges.contains(partial.offset)) result.set(partial.offset, partial);
  };
  for (const partial of view.base.partials.values()) {
    for (; next < inline.length && inline[next]!.offset <= partial.offset; next++) keep(inline[next]!);
    if (inline[next - 1]?.offset !== partial.offset) keep(partial);
  }
  for (; next < inline.length; next++) keep(inline[next]!);
  return result;
}
