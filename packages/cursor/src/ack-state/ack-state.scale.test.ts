// The algebra over a base of a million ranges (every other entry of two million acknowledged): single queries and
// mutations consult the base by binary search and share it, so ten thousand acks stay cheap. The test timeout is
// the guard: one O(n) step per ack would take minutes.
import { describe, expect, it } from "vitest";
import { ackBaseFromSnapshot } from "./ack-base.js";
import { backlog, firstUnacked, inlineItemCount, isWholeAcked, nextUnacked, remainingOf } from "./ack-queries.js";
import type { AckView } from "./ack-view.js";
import { cumulativeAck, cumulativePartialAck } from "./cumulative-ack.js";
import { individualAcks } from "./individual-acks.js";
import { shouldSpill } from "./spill-policy.js";
import { spill } from "./spill.js";
import { DEFAULT_CURSOR_LIMITS } from "../store/cursor-store-options.js";

const RANGES = 1_000_000;
const ENTRIES = 2 * RANGES;
const ACKS = 10_000;

/** Ranges [1,2), [3,4), …: every odd offset below two million is acknowledged, markDelete 0. */
function millionRangeView(): AckView {
  const starts = new Float64Array(RANGES);
  const ends = new Float64Array(RANGES);
  for (let index = 0; index < RANGES; index++) {
    starts[index] = 2 * index + 1;
    ends[index] = 2 * index + 2;
  }
  const base = ackBaseFromSnapshot({
    snapshotId: "e".repeat(32),
    streamId: "stream",
    cursorNameHash: "f".repeat(32),
    cursorGeneration: 1,
    sourceMutationSequence: 1,
    baseMarkDeleteOffset: 0,
    createdAtMillis: 0,
    rangeStarts: starts,
    rangeEnds: ends,
    partials: [],
  });
  return { markDeleteOffset: 0, base, inlineRanges: [], inlinePartials: [] };
}

/** Distinct even offsets above 0, spread over the whole stream. */
const evenOffset = (index: number): number => 2 * (1 + ((index * 7919) % (RANGES - 1)));

describe("ack state over a million base ranges", { timeout: 20_000 }, () => {
  const start = millionRangeView();

  it("answers single-offset queries and the backlog from the base", () => {
    expect(isWholeAcked(start, ENTRIES - 1)).toBe(true);
    expect(isWholeAcked(start, ENTRIES - 2)).toBe(false);
    expect(nextUnacked(start, 1_000_001)).toBe(1_000_002);
    expect(firstUnacked(start)).toBe(0);
    expect(backlog(start, ENTRIES)).toBe(RANGES);
  });

  it("applies ten thousand single individual acks without copying the base", () => {
    let view = start;
    let applied = 0;
    let baseShared = true;
    for (let index = 0; index < ACKS; index++) {
      const result = individualAcks(view, [{ offset: evenOffset(index) }]);
      if (result.applied) applied++;
      baseShared &&= result.view.base === start.base;
      view = result.view;
    }
    expect([applied, baseShared]).toEqual([ACKS, true]);
    expect(inlineItemCount(view)).toBe(ACKS);
    expect(backlog(view, ENTRIES)).toBe(RANGES - ACKS);
    expect(isWholeAcked(view, evenOffset(ACKS - 1))).toBe(true);
    expect(shouldSpill(view, DEFAULT_CURSOR_LIMITS)).toBe(false);
    expect(individualAcks(view, [{ offset: evenOffset(17) }]).applied).toBe(false);
  });

  it("applies ten thousand partial and cumulative acks without copying the base", () => {
    let view = start;
    let consistent = true;
    for (let index = 0; index < ACKS; index++) {
      const offset = 2 * index;
      const partial = cumulativePartialAck(view, offset, { batchSize: 2, remaining: [2n] });
      consistent &&= partial.view.base === start.base && remainingOf(partial.view, offset)?.remaining[0] === 2n;
      view = cumulativeAck(partial.view, offset).view;
      consistent &&= view.markDeleteOffset === offset + 2;
    }
    expect(consistent).toBe(true);
    expect(backlog(view, ENTRIES)).toBe(RANGES - ACKS);
  });

  it("spills a million ranges plus the inline part into one new base", () => {
    const view = individualAcks(start, [{ offset: 0 }, { offset: 4 }, { offset: 8 }]).view;
    expect(view.markDeleteOffset).toBe(2);
    const base = spill(view);
    expect(base.baseMarkDeleteOffset).toBe(2);
    expect(base.ranges.size).toBe(RANGES - 1 - 2);
    expect(base.ranges.coveredCount).toBe(RANGES - 1 + 2);
  });
});
