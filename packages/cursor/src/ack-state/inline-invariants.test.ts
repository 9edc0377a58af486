import { describe, expect, it } from "vitest";
import { AckRangeSet } from "./ack-range-set.js";
import type { AckView } from "./ack-view.js";
import { inlineInvariantViolation } from "./inline-invariants.js";

const VALID: AckView = {
  markDeleteOffset: 10,
  base: { baseMarkDeleteOffset: 0, ranges: AckRangeSet.fromRanges([{ start: 20, end: 22 }]), partials: new Map() },
  inlineRanges: [
    { start: 12, end: 14 },
    { start: 22, end: 23 },
  ],
  inlinePartials: [
    { offset: 10, batchSize: 2, remaining: [1n] },
    { offset: 15, batchSize: 70, remaining: [0n, 1n] },
  ],
};

describe("inlineInvariantViolation", () => {
  it("accepts a view that keeps the root invariants (inline ranges may touch base ranges)", () => {
    expect(inlineInvariantViolation(VALID)).toBeUndefined();
  });

  it("names each broken invariant", () => {
    const broken: [Partial<AckView>, RegExp][] = [
      [{ inlineRanges: [{ start: 12, end: 12 }] }, /empty/],
      [{ inlineRanges: [{ start: 10, end: 12 }] }, /at or below/],
      [
        {
          inlineRanges: [
            { start: 12, end: 14 },
            { start: 14, end: 15 },
          ],
        },
        /touches/,
      ],
      [{ markDeleteOffset: 21, inlineRanges: [], inlinePartials: [] }, /inside a base range/],
      [{ inlinePartials: [{ offset: 9, batchSize: 2, remaining: [1n] }] }, /below markDelete/],
      [{ inlinePartials: [{ offset: 13, batchSize: 2, remaining: [1n] }] }, /whole-acked/],
      [{ inlinePartials: [{ offset: 11, batchSize: 2, remaining: [1n, 0n] }] }, /trailing zero/],
      [{ inlinePartials: [{ offset: 11, batchSize: 2, remaining: [3n] }] }, /no batch index/],
      [{ inlinePartials: [{ offset: 11, batchSize: 2, remaining: [4n] }] }, /invalid/],
    ];
    for (const [change, message] of broken) expect(inlineInvariantViolation({ ...VALID, ...change })).toMatch(message);
  });
});
