import { ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { AckRangeSet } from "./ack-range-set.js";

const set = (...ranges: [number, number][]): AckRangeSet =>
  AckRangeSet.fromRanges(ranges.map(([start, end]) => ({ start, end })));

const expectInvalid = (build: () => unknown): void => {
  try {
    build();
  } catch (error) {
    expect(NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)).toBe(true);
    return;
  }
  expect.fail("expected INVALID_ARGUMENT");
};

describe("AckRangeSet", () => {
  it("rejects ranges that are not sorted, disjoint, non-adjacent and non-empty", () => {
    expectInvalid(() => set([5, 5]));
    expectInvalid(() => set([-1, 2]));
    expectInvalid(() => set([0, 2.5]));
    expectInvalid(() => set([4, 6], [1, 2]));
    expectInvalid(() => set([1, 4], [3, 6]));
    expectInvalid(() => set([1, 4], [4, 6]));
    expectInvalid(() => AckRangeSet.fromArrays(new Float64Array([1]), new Float64Array([])));
  });

  it("answers membership and neighbour questions by binary search", () => {
    const ranges = set([2, 4], [10, 11], [20, 25]);
    expect([1, 2, 3, 4, 10, 11, 24, 25].map((offset) => ranges.contains(offset))).toEqual([
      false,
      true,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
    expect(ranges.indexContaining(22)).toBe(2);
    expect(ranges.indexContaining(5)).toBe(-1);
    expect(ranges.endOfRangeContaining(3)).toBe(4);
    expect(ranges.endOfRangeContaining(4)).toBeUndefined();
    expect(ranges.firstEndingAfter(4)).toBe(1);
    expect(ranges.firstEndingAfter(3)).toBe(0);
    expect(ranges.nextStartAtOrAfter(0)).toBe(2);
    expect(ranges.nextStartAtOrAfter(3)).toBe(10);
    expect(ranges.nextStartAtOrAfter(10)).toBe(10);
    expect(ranges.nextStartAtOrAfter(21)).toBeUndefined();
    expect(ranges.countEndingAfter(10)).toBe(2);
    expect([ranges.size, ranges.startAt(1), ranges.endAt(2)]).toEqual([3, 10, 25]);
    expectInvalid(() => ranges.startAt(3));
  });

  it("counts covered offsets in any interval, cutting ranges at both ends", () => {
    const ranges = set([2, 4], [10, 11], [20, 25]);
    expect(ranges.coveredCount).toBe(8);
    expect(ranges.countIn(0, 100)).toBe(8);
    expect(ranges.countIn(3, 22)).toBe(1 + 1 + 2);
    expect(ranges.countIn(4, 10)).toBe(0);
    expect(ranges.countIn(21, 23)).toBe(2);
    expect(ranges.countIn(9, 3)).toBe(0);
  });

  it("merges with a sorted list of ranges above a floor, coalescing overlaps and neighbours", () => {
    const ranges = set([2, 4], [10, 11], [20, 25]);
    const merged = ranges.unionAbove(3, [
      { start: 5, end: 6 },
      { start: 6, end: 8 },
      { start: 11, end: 12 },
      { start: 22, end: 30 },
      { start: 40, end: 41 },
    ]);
    expect(merged.toRanges()).toEqual([
      { start: 3, end: 4 },
      { start: 5, end: 8 },
      { start: 10, end: 12 },
      { start: 20, end: 30 },
      { start: 40, end: 41 },
    ]);
    expect(ranges.toRanges()).toHaveLength(3);
    expect(ranges.unionAbove(100, [])).toBe(AckRangeSet.EMPTY);
    expect(AckRangeSet.EMPTY.unionAbove(0, [{ start: 1, end: 2 }]).toRanges()).toEqual([{ start: 1, end: 2 }]);
  });

  it("owns its arrays: neither the input nor the exported copies alias them", () => {
    const starts = new Float64Array([1, 5]);
    const ends = new Float64Array([2, 7]);
    const ranges = AckRangeSet.fromArrays(starts, ends);
    starts[0] = 0;
    const copy = ranges.toArrays();
    copy.ends[1] = 100;
    expect(ranges.toRanges()).toEqual([
      { start: 1, end: 2 },
      { start: 5, end: 7 },
    ]);
    expect(AckRangeSet.fromArrays(new Float64Array(0), new Float64Array(0))).toBe(AckRangeSet.EMPTY);
  });
});
