import { describe, expect, it } from "vitest";
import type { AckRange } from "../domain/ack-types.js";
import { AckRangeSet } from "./ack-range-set.js";
import type { AckView } from "./ack-view.js";
import { shouldSpill } from "./spill-policy.js";

const LIMITS = { minInlineItems: 4, maxInlineItems: 10, maxInlineBytes: 1000 };
const everyOther = (count: number, from: number): AckRange[] =>
  Array.from({ length: count }, (_, index) => ({ start: from + 2 * index, end: from + 2 * index + 1 }));

const viewWith = (baseRanges: number, inlineRanges: number, markDeleteOffset = 0): AckView => ({
  markDeleteOffset,
  base: { baseMarkDeleteOffset: 0, ranges: AckRangeSet.fromRanges(everyOther(baseRanges, 1)), partials: new Map() },
  inlineRanges: everyOther(inlineRanges, 10_000_000),
  inlinePartials: [],
});

describe("shouldSpill", () => {
  it("keeps at least minInlineItems inline", () => {
    expect(shouldSpill(viewWith(0, 4), LIMITS)).toBe(false);
    expect(shouldSpill(viewWith(0, 5), LIMITS)).toBe(true);
  });

  it("allows a sixteenth of the base inline, at most maxInlineItems", () => {
    expect(shouldSpill(viewWith(128, 8), LIMITS)).toBe(false);
    expect(shouldSpill(viewWith(128, 9), LIMITS)).toBe(true);
    expect(shouldSpill(viewWith(1000, 10), LIMITS)).toBe(false);
    expect(shouldSpill(viewWith(1000, 11), LIMITS)).toBe(true);
  });

  it("counts only base ranges above markDelete", () => {
    expect(shouldSpill(viewWith(128, 8, 2 * 100), LIMITS)).toBe(true);
  });

  it("spills a root whose encoded size exceeds maxInlineBytes whatever its item count", () => {
    expect(shouldSpill(viewWith(0, 1), LIMITS, 1000)).toBe(false);
    expect(shouldSpill(viewWith(0, 1), LIMITS, 1001)).toBe(true);
  });
});
