// The effective ack state of one root version: the root's markDelete and inline deltas over the snapshot base it
// references. A value: mutations return new views and share the base, so an engine can keep an old view for a CAS
// retry. Queries and mutations live in their own modules.
import type { AckRange, PartialAck } from "../domain/ack-types.js";
import type { CursorStateRecord } from "../domain/cursor-records.js";
import { type AckBase, EMPTY_ACK_BASE } from "./ack-base.js";

/**
 * Exactly the ack fields of a root plus its hydrated base. Effective state: every offset below `markDeleteOffset`,
 * plus `base.ranges` (clipped to markDelete) ∪ `inlineRanges`; the partial of an offset is its inline partial if any,
 * else the base's; a whole ack on either side wins over any partial.
 * Invariants after every mutation (those of CursorStateRecord): inline ranges sorted, disjoint, non-adjacent to each
 * other, each starting above markDelete; inline partials sorted, canonical, at or above markDelete, inside no
 * whole-acked range; no range (base or inline) contains markDelete. Inline ranges may touch base ranges.
 */
export interface AckView {
  readonly markDeleteOffset: number;
  readonly base: AckBase;
  readonly inlineRanges: readonly AckRange[];
  readonly inlinePartials: readonly PartialAck[];
}

/** What a mutation returns: the new view, and `applied: false` when the input already contained the change. */
export interface AckMutation {
  readonly view: AckView;
  readonly applied: boolean;
}

/** The view of a root whose snapshot (if any) hydrated to `base` (EMPTY_ACK_BASE when the root has none). */
export function ackViewOf(
  root: Pick<CursorStateRecord, "markDeleteOffset" | "inlineRanges" | "inlinePartials">,
  base: AckBase = EMPTY_ACK_BASE,
): AckView {
  return {
    markDeleteOffset: root.markDeleteOffset,
    base,
    inlineRanges: root.inlineRanges,
    inlinePartials: root.inlinePartials,
  };
}

/** A view with nothing acknowledged at or above `markDeleteOffset`. */
export function emptyAckView(markDeleteOffset: number): AckView {
  return { markDeleteOffset, base: EMPTY_ACK_BASE, inlineRanges: [], inlinePartials: [] };
}
