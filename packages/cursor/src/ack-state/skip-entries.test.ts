import { describe, expect, it } from "vitest";
import { AckRangeSet } from "./ack-range-set.js";
import type { AckView } from "./ack-view.js";
import { skipEntries } from "./skip-entries.js";

/** markDelete 10; acked: base [12,14), inline [16,17); partial at 11 (counts as unacked). */
const VIEW: AckView = {
  markDeleteOffset: 10,
  base: { baseMarkDeleteOffset: 0, ranges: AckRangeSet.fromRanges([{ start: 12, end: 14 }]), partials: new Map() },
  inlineRanges: [{ start: 16, end: 17 }],
  inlinePartials: [{ offset: 11, batchSize: 2, remaining: [1n] }],
};

const skip = (count: number, countIndividuallyAcked: boolean, committedEnd = 100): number =>
  skipEntries(VIEW, count, { countIndividuallyAcked, committedEnd }).view.markDeleteOffset;

describe("skipEntries", () => {
  it("counting individually acked entries moves markDelete by the count, then folds", () => {
    expect(skip(1, true)).toBe(11);
    expect(skip(2, true)).toBe(14);
    expect(skip(6, true)).toBe(17);
  });

  it("not counting them skips that many entries that are not whole acked", () => {
    expect(skip(2, false)).toBe(14);
    expect(skip(3, false)).toBe(15);
    expect(skip(4, false)).toBe(17);
    expect(skip(5, false)).toBe(18);
  });

  it("never moves beyond the committed end and reports no-ops as not applied", () => {
    expect(skip(50, false, 15)).toBe(15);
    expect(skip(50, true, 15)).toBe(15);
    expect(skipEntries(VIEW, 0, { countIndividuallyAcked: true, committedEnd: 100 })).toEqual({
      view: VIEW,
      applied: false,
    });
    expect(skipEntries(VIEW, 5, { countIndividuallyAcked: true, committedEnd: 10 })).toEqual({
      view: VIEW,
      applied: false,
    });
    expect(() => skipEntries(VIEW, -1, { countIndividuallyAcked: true, committedEnd: 10 })).toThrow(/skip count/);
  });
});
