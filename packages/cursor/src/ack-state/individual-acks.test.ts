import { ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, it } from "vitest";
import type { PartialAck } from "../domain/ack-types.js";
import { AckRangeSet } from "./ack-range-set.js";
import type { AckView } from "./ack-view.js";
import { individualAcks, normalizeIndividualAcks } from "./individual-acks.js";

const partial = (offset: number, remaining: bigint): PartialAck => ({ offset, batchSize: 4, remaining: [remaining] });
const BASE = {
  baseMarkDeleteOffset: 0,
  ranges: AckRangeSet.fromRanges([{ start: 20, end: 22 }]),
  partials: new Map([[25, partial(25, 0b0111n)]]),
};
const VIEW: AckView = {
  markDeleteOffset: 10,
  base: BASE,
  inlineRanges: [{ start: 12, end: 14 }],
  inlinePartials: [partial(16, 0b0011n)],
};

describe("normalizeIndividualAcks", () => {
  it("sorts, lets a whole ack win, AND-merges partials and drops items acknowledging nothing", () => {
    expect(
      normalizeIndividualAcks([
        { offset: 9, batch: { batchSize: 4, remaining: [0b0111n] } },
        { offset: 3, batch: { batchSize: 4, remaining: [0b1111n] } },
        { offset: 5, batch: { batchSize: 4, remaining: [1n] } },
        { offset: 5 },
        { offset: 9, batch: { batchSize: 4, remaining: [0b1101n, 0n] } },
        { offset: 7, batch: { batchSize: 2, remaining: [1n] } },
        { offset: 7, batch: { batchSize: 2, remaining: [2n] } },
        { offset: 8, batch: { batchSize: 2, remaining: [3n] } },
        { offset: 8, batch: { batchSize: 2, remaining: [3n] } },
      ]),
    ).toEqual([
      { offset: 5, batch: undefined },
      { offset: 7, batch: undefined },
      { offset: 9, batch: { batchSize: 4, remaining: [0b0101n] } },
    ]);
  });
});

describe("individualAcks", () => {
  it("inserts whole acks into the inline ranges, coalescing neighbours, and drops partials they cover", () => {
    const { view, applied } = individualAcks(VIEW, [{ offset: 14 }, { offset: 16 }, { offset: 11 }, { offset: 30 }]);
    expect(applied).toBe(true);
    expect(view.markDeleteOffset).toBe(10);
    expect(view.inlineRanges).toEqual([
      { start: 11, end: 15 },
      { start: 16, end: 17 },
      { start: 30, end: 31 },
    ]);
    expect(view.inlinePartials).toEqual([]);
    expect(view.base).toBe(BASE);
    expect(VIEW.inlineRanges).toEqual([{ start: 12, end: 14 }]);
  });

  it("folds when markDelete itself is acknowledged", () => {
    const { view } = individualAcks(VIEW, [{ offset: 10 }, { offset: 11 }]);
    expect(view.markDeleteOffset).toBe(14);
    expect(view.inlineRanges).toEqual([]);
  });

  it("merges a partial with the base's partial into an inline override; completing it makes a whole ack", () => {
    const first = individualAcks(VIEW, [{ offset: 25, batch: { batchSize: 4, remaining: [0b1110n] } }]);
    expect(first.view.inlinePartials).toEqual([partial(16, 0b0011n), partial(25, 0b0110n)]);
    const second = individualAcks(first.view, [{ offset: 25, batch: { batchSize: 4, remaining: [0b1001n] } }]);
    expect(second.view.inlinePartials).toEqual([partial(16, 0b0011n)]);
    expect(second.view.inlineRanges).toEqual([
      { start: 12, end: 14 },
      { start: 25, end: 26 },
    ]);
  });

  it("is not applied when every item is below markDelete, already whole, or already in the partial", () => {
    const items = [
      { offset: 3 },
      { offset: 13 },
      { offset: 21 },
      { offset: 16, batch: { batchSize: 4, remaining: [0b1011n] } },
      { offset: 17, batch: { batchSize: 4, remaining: [0b1111n] } },
    ];
    expect(individualAcks(VIEW, items)).toEqual({ view: VIEW, applied: false });
    expect(individualAcks(VIEW, [])).toEqual({ view: VIEW, applied: false });
  });

  it("throws INVALID_ARGUMENT for any bad item and applies nothing", () => {
    const bad = [
      [{ offset: 11 }, { offset: -1 }],
      [{ offset: 11 }, { offset: 16, batch: { batchSize: 5, remaining: [1n] } }],
      [{ offset: 11 }, { offset: 18, batch: { batchSize: 2, remaining: [4n] } }],
      [
        { offset: 18, batch: { batchSize: 2, remaining: [1n] } },
        { offset: 18, batch: { batchSize: 3, remaining: [1n] } },
      ],
    ];
    for (const items of bad) {
      try {
        individualAcks(VIEW, items);
        expect.fail("expected INVALID_ARGUMENT");
      } catch (error) {
        expect(NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)).toBe(true);
      }
    }
    expect(VIEW.inlineRanges).toEqual([{ start: 12, end: 14 }]);
  });
});
