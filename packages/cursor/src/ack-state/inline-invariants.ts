// The root invariants of a view's inline part, as a check that names the first one broken. Used where a view comes
// from outside the algebra and by the tests of every mutation.
import { isWholeAcked } from "./ack-queries.js";
import type { AckView } from "./ack-view.js";
import { type BatchBits, classifyBatchBits } from "./batch-bits.js";

/**
 * The first broken invariant of `view`'s inline part, or undefined: ranges sorted, disjoint, non-adjacent, each
 * starting above markDelete; partials sorted, canonical, at or above markDelete, inside no whole-acked range; no
 * range contains markDelete.
 */
export function inlineInvariantViolation(view: AckView): string | undefined {
  const markDelete = view.markDeleteOffset;
  let previousEnd = -Infinity;
  for (const range of view.inlineRanges) {
    if (!(range.start < range.end)) return `inline range [${range.start}, ${range.end}) is empty`;
    const name = `inline range [${range.start}, ${range.end})`;
    if (range.start <= markDelete) return `${name} starts at or below ${markDelete}`;
    if (range.start <= previousEnd) return `${name} overlaps or touches the previous`;
    previousEnd = range.end;
  }
  if (view.base.ranges.contains(markDelete)) return `markDelete ${markDelete} lies inside a base range`;
  let previousOffset = markDelete - 1;
  for (const partial of view.inlinePartials) {
    if (partial.offset <= previousOffset) return `inline partial ${partial.offset} is out of order or below markDelete`;
    if (isWholeAcked(view, partial.offset)) return `inline partial ${partial.offset} lies inside a whole-acked range`;
    const canonical = canonicalProblem(partial);
    if (canonical !== undefined) return `inline partial ${partial.offset} ${canonical}`;
    previousOffset = partial.offset;
  }
  return undefined;
}

function canonicalProblem(partial: BatchBits): string | undefined {
  const words = partial.remaining;
  if (words.length > 0 && words[words.length - 1] === 0n) return "has trailing zero words";
  try {
    const kind = classifyBatchBits(partial).kind;
    return kind === "partial" ? undefined : `acknowledges ${kind === "whole" ? "every" : "no"} batch index`;
  } catch (error) {
    return `is invalid: ${(error as Error).message}`;
  }
}
