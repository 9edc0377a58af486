// Reset: replaces the whole ack state with "everything below target acknowledged" (optionally with some batch
// indexes of the target entry). Destructive: the base is dropped, not carried over.
import type { PartialAck } from "../domain/ack-types.js";
import { EMPTY_ACK_BASE } from "./ack-base.js";
import type { AckMutation, AckView } from "./ack-view.js";
import { type BatchBits, batchBitsEqual, classifyBatchBits } from "./batch-bits.js";
import { checkOffset } from "./check-offset.js";

/**
 * The state "every entry below `target` acknowledged, nothing above", plus the batch indexes `batch` acknowledges at
 * `target` (every index acknowledged moves markDelete to `target + 1`; none is no partial). The result has the empty
 * base. Not applied only when the view already is exactly that state. Throws INVALID_ARGUMENT for a bad target or
 * bit map.
 */
export function resetTo(view: AckView, target: number, batch?: BatchBits): AckMutation {
  checkOffset(target, "reset target");
  const state = batch === undefined ? undefined : classifyBatchBits(batch);
  const markDeleteOffset = state?.kind === "whole" ? target + 1 : target;
  const inlinePartials: PartialAck[] =
    state?.kind === "partial" ? [{ offset: target, batchSize: batch!.batchSize, remaining: state.remaining }] : [];
  const result: AckView = { markDeleteOffset, base: EMPTY_ACK_BASE, inlineRanges: [], inlinePartials };
  return { view: result, applied: !sameResetState(view, result) };
}

function sameResetState(view: AckView, result: AckView): boolean {
  if (view.base !== EMPTY_ACK_BASE || view.inlineRanges.length > 0) return false;
  if (view.markDeleteOffset !== result.markDeleteOffset) return false;
  if (view.inlinePartials.length !== result.inlinePartials.length) return false;
  const [mine, wanted] = [view.inlinePartials[0], result.inlinePartials[0]];
  return mine === undefined || wanted === undefined || (mine.offset === wanted.offset && batchBitsEqual(mine, wanted));
}
