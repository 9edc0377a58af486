import { describe, expect, it } from "vitest";
import { isQuorumCovered, writeSetOf } from "./distribution-schedule.js";

describe("distribution schedule", () => {
  it("rotates write sets round-robin over the ensemble", () => {
    expect([0, 1, 2, 3, 4].map((entryId) => writeSetOf(entryId, 3, 2))).toEqual([
      [0, 1],
      [1, 2],
      [2, 0],
      [0, 1],
      [1, 2],
    ]);
    expect(writeSetOf(7, 3, 3)).toEqual([1, 2, 0]);
  });

  it("needs Qw-Qa+1 answers in every write set for coverage", () => {
    // E=3, Qw=2, Qa=2: any two bookies cover (each write set has at most one unanswered member).
    expect(isQuorumCovered(new Set([0, 1]), 3, 2, 2)).toBe(true);
    expect(isQuorumCovered(new Set([0]), 3, 2, 2)).toBe(false);
    // E=Qw=Qa=3: one answer covers.
    expect(isQuorumCovered(new Set([2]), 3, 3, 3)).toBe(true);
    expect(isQuorumCovered(new Set<number>(), 3, 3, 3)).toBe(false);
    // E=3, Qw=3, Qa=2: two answers needed.
    expect(isQuorumCovered(new Set([1]), 3, 3, 2)).toBe(false);
    expect(isQuorumCovered(new Set([0, 2]), 3, 3, 2)).toBe(true);
  });
});
