import { ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, it } from "vitest";
import type { AckRange, PartialAck } from "../domain/ack-types.js";
import type { AckBase } from "./ack-base.js";
import {
  backlog,
  firstUnacked,
  inlineItemCount,
  isBatchIndexAcked,
  isWholeAcked,
  nextAckedRangeStart,
  nextUnacked,
  remainingOf,
  wholeAckedCountIn,
} from "./ack-queries.js";
import { AckRangeSet } from "./ack-range-set.js";
import type { AckView } from "./ack-view.js";

const ranges = (...pairs: [number, number][]): AckRange[] => pairs.map(([start, end]) => ({ start, end }));
const partial = (offset: number, remaining: bigint, batchSize = 4): PartialAck => ({
  offset,
  batchSize,
  remaining: [remaining],
});
const baseOf = (floor: number, rangeList: AckRange[], partials: PartialAck[] = []): AckBase => ({
  baseMarkDeleteOffset: floor,
  ranges: AckRangeSet.fromRanges(rangeList),
  partials: new Map(partials.map((item) => [item.offset, item])),
});

/** markDelete 10; base [12,14) [20,22) with partials at 16 and 17; inline [14,15) [30,31), partial at 17 and 18. */
const VIEW: AckView = {
  markDeleteOffset: 10,
  base: baseOf(5, ranges([6, 8], [12, 14], [20, 22]), [partial(16, 0b0011n), partial(17, 0b0111n)]),
  inlineRanges: ranges([14, 15], [30, 31]),
  inlinePartials: [partial(17, 0b0001n), partial(18, 0b1110n)],
};

describe("ack-state queries", () => {
  it("sees whole acks below markDelete, in base ranges and in inline ranges", () => {
    const acked = [5, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 30, 31].map((offset) => isWholeAcked(VIEW, offset));
    expect(acked).toEqual([true, true, false, false, true, true, true, false, true, true, false, true, false]);
  });

  it("takes an entry's partial from the inline part first, else from the base", () => {
    expect(remainingOf(VIEW, 16)?.remaining).toEqual([0b0011n]);
    expect(remainingOf(VIEW, 17)?.remaining).toEqual([0b0001n]);
    expect(remainingOf(VIEW, 18)?.remaining).toEqual([0b1110n]);
    expect(remainingOf(VIEW, 19)).toBeUndefined();
    expect([0, 1, 2, 3].map((index) => isBatchIndexAcked(VIEW, 17, index))).toEqual([false, true, true, true]);
    expect(isBatchIndexAcked(VIEW, 19, 0)).toBe(false);
    expect(isBatchIndexAcked(VIEW, 3, 100)).toBe(true);
  });

  it("lets a whole ack win over a partial of the same entry", () => {
    const view = { ...VIEW, inlineRanges: ranges([16, 17]) };
    expect(remainingOf(view, 16)).toBeUndefined();
    expect(isBatchIndexAcked(view, 16, 0)).toBe(true);
    expect(remainingOf({ ...VIEW, markDeleteOffset: 19 }, 18)).toBeUndefined();
  });

  it("rejects batch indexes that cannot exist", () => {
    for (const index of [-1, 0.5, 4]) {
      expect(() => isBatchIndexAcked(VIEW, 16, index)).toThrow(NereusError);
    }
    try {
      isBatchIndexAcked(VIEW, 16, -1);
    } catch (error) {
      expect(NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)).toBe(true);
    }
  });

  it("finds the next unacknowledged entry across touching base and inline ranges; partials stop it", () => {
    expect(firstUnacked(VIEW)).toBe(10);
    expect(nextUnacked(VIEW, 0)).toBe(10);
    expect(nextUnacked(VIEW, 12)).toBe(15);
    expect(nextUnacked(VIEW, 16)).toBe(16);
    expect(nextUnacked(VIEW, 20)).toBe(22);
    expect(firstUnacked({ ...VIEW, markDeleteOffset: 12 })).toBe(15);
    expect(nextAckedRangeStart(VIEW, 13)).toBe(14);
    expect(nextAckedRangeStart(VIEW, 15)).toBe(20);
    expect(nextAckedRangeStart(VIEW, 23)).toBe(30);
    expect(nextAckedRangeStart(VIEW, 31)).toBeUndefined();
  });

  it("counts the backlog as entries not whole acknowledged between markDelete and the committed end", () => {
    expect(backlog(VIEW, 10)).toBe(0);
    expect(backlog(VIEW, 5)).toBe(0);
    expect(backlog(VIEW, 13)).toBe(2);
    expect(backlog(VIEW, 40)).toBe(30 - 2 - 1 - 2 - 1);
  });

  it("counts an offset covered by both a base and an inline range once", () => {
    const view = { ...VIEW, inlineRanges: ranges([11, 16], [21, 25]) };
    expect(wholeAckedCountIn(view, 10, 40)).toBe(5 + 4 + 1);
    expect(wholeAckedCountIn(view, 13, 22)).toBe(3 + 2);
    expect(backlog(view, 25)).toBe(15 - 5 - 5);
  });

  it("counts inline items", () => {
    expect(inlineItemCount(VIEW)).toBe(4);
  });
});
