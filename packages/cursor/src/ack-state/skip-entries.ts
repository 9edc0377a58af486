// Skip: a cumulative ack through the Nth entry after markDelete, counting or not counting the entries already
// acknowledged individually. Never moves markDelete beyond the committed end.
import { endOfAckedRun, firstUnacked, nextAckedRangeStart } from "./ack-queries.js";
import type { AckMutation, AckView } from "./ack-view.js";
import { checkOffset } from "./check-offset.js";
import { fold } from "./fold.js";

export interface SkipOptions {
  /**
   * True: entries already acknowledged as a whole count towards `count` (markDelete moves by `count`). False: only
   * entries not yet acknowledged as a whole count (a partially acknowledged entry counts).
   */
  readonly countIndividuallyAcked: boolean;
  /** End of the committed entries: markDelete never moves beyond it. */
  readonly committedEnd: number;
}

/**
 * Acknowledges cumulatively through the `count`th eligible entry at or above markDelete (clamped to the committed
 * end), then folds. Not applied when markDelete does not move. Cost: O(log n) with `countIndividuallyAcked`, else
 * O(r log n) for r acknowledged ranges skipped over. Throws INVALID_ARGUMENT for a bad count or committed end.
 */
export function skipEntries(view: AckView, count: number, options: SkipOptions): AckMutation {
  checkOffset(count, "skip count");
  checkOffset(options.committedEnd, "committed end");
  const markDelete = firstUnacked(view);
  if (count === 0 || markDelete >= options.committedEnd) return { view, applied: false };
  const target = options.countIndividuallyAcked
    ? Math.min(markDelete + count, options.committedEnd)
    : offsetAfterUnacked(view, markDelete, count, options.committedEnd);
  return { view: fold({ ...view, markDeleteOffset: target }), applied: true };
}

/** The offset just past the `count`th entry at or above `from` that is not whole acknowledged, at most `limit`. */
function offsetAfterUnacked(view: AckView, from: number, count: number, limit: number): number {
  let position = from;
  let remaining = count;
  for (;;) {
    position = endOfAckedRun(view, position);
    if (position >= limit) return limit;
    const gapEnd = Math.min(nextAckedRangeStart(view, position) ?? limit, limit);
    if (remaining <= gapEnd - position) return position + remaining;
    remaining -= gapEnd - position;
    position = gapEnd;
  }
}
