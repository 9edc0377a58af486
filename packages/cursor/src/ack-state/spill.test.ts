import { describe, expect, it } from "vitest";
import type { PartialAck } from "../domain/ack-types.js";
import { ackBaseFromSnapshot } from "./ack-base.js";
import { AckRangeSet } from "./ack-range-set.js";
import type { AckView } from "./ack-view.js";
import { snapshotContentOf, spill, spilledView } from "./spill.js";

const partial = (offset: number, remaining: bigint): PartialAck => ({ offset, batchSize: 4, remaining: [remaining] });
const VIEW: AckView = {
  markDeleteOffset: 10,
  base: {
    baseMarkDeleteOffset: 2,
    ranges: AckRangeSet.fromRanges([
      { start: 3, end: 6 },
      { start: 12, end: 14 },
      { start: 20, end: 21 },
    ]),
    partials: new Map([
      [4, partial(4, 1n)],
      [16, partial(16, 0b0011n)],
      [17, partial(17, 0b0111n)],
      [22, partial(22, 0b0111n)],
    ]),
  },
  inlineRanges: [
    { start: 14, end: 15 },
    { start: 22, end: 23 },
  ],
  inlinePartials: [partial(10, 0b1000n), partial(17, 0b0001n), partial(18, 0b0010n)],
};

const IDENTITY = {
  snapshotId: "c".repeat(32),
  streamId: "stream",
  cursorNameHash: "d".repeat(32),
  cursorGeneration: 3,
  sourceMutationSequence: 9,
  createdAtMillis: 1234,
};

describe("spill", () => {
  it("cuts the base at markDelete, merges the inline ranges into it and lets inline partials replace the base's", () => {
    const base = spill(VIEW);
    expect(base.baseMarkDeleteOffset).toBe(10);
    expect(base.ranges.toRanges()).toEqual([
      { start: 12, end: 15 },
      { start: 20, end: 21 },
      { start: 22, end: 23 },
    ]);
    expect([...base.partials.values()]).toEqual([
      partial(10, 0b1000n),
      partial(16, 0b0011n),
      partial(17, 0b0001n),
      partial(18, 0b0010n),
    ]);
    expect(VIEW.base.ranges.size).toBe(3);
  });

  it("gives a view with an empty inline part and the same markDelete", () => {
    expect(spilledView(VIEW)).toEqual({
      markDeleteOffset: 10,
      base: spill(VIEW),
      inlineRanges: [],
      inlinePartials: [],
    });
  });

  it("folds first: a spill of an unfolded view is cut at the folded markDelete", () => {
    const base = spill({ ...VIEW, markDeleteOffset: 12 });
    expect(base.baseMarkDeleteOffset).toBe(15);
    expect(base.ranges.startAt(0)).toBe(20);
  });

  it("round-trips through snapshot content", () => {
    const base = spill(VIEW);
    const content = snapshotContentOf(base, IDENTITY);
    expect(content).toMatchObject({ ...IDENTITY, baseMarkDeleteOffset: 10 });
    expect([...content.rangeStarts]).toEqual([12, 20, 22]);
    expect([...content.rangeEnds]).toEqual([15, 21, 23]);
    const again = ackBaseFromSnapshot(content);
    expect(again.ranges.toRanges()).toEqual(base.ranges.toRanges());
    expect([...again.partials.entries()]).toEqual([...base.partials.entries()]);
  });
});
