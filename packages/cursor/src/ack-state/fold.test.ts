import { describe, expect, it } from "vitest";
import { AckRangeSet } from "./ack-range-set.js";
import type { AckView } from "./ack-view.js";
import { fold } from "./fold.js";

const base = {
  baseMarkDeleteOffset: 0,
  ranges: AckRangeSet.fromRanges([
    { start: 3, end: 5 },
    { start: 8, end: 9 },
  ]),
  partials: new Map(),
};

describe("fold", () => {
  it("returns the view itself when markDelete lies in no range", () => {
    const view: AckView = { markDeleteOffset: 2, base, inlineRanges: [{ start: 5, end: 6 }], inlinePartials: [] };
    expect(fold(view)).toBe(view);
  });

  it("moves markDelete through alternating base and inline ranges and drops what falls below it", () => {
    const view: AckView = {
      markDeleteOffset: 4,
      base,
      inlineRanges: [
        { start: 1, end: 2 },
        { start: 5, end: 8 },
        { start: 12, end: 13 },
      ],
      inlinePartials: [
        { offset: 6, batchSize: 2, remaining: [1n] },
        { offset: 9, batchSize: 2, remaining: [1n] },
      ],
    };
    expect(fold(view)).toEqual({
      markDeleteOffset: 9,
      base,
      inlineRanges: [{ start: 12, end: 13 }],
      inlinePartials: [{ offset: 9, batchSize: 2, remaining: [1n] }],
    });
    expect(view.inlineRanges).toHaveLength(3);
  });
});
