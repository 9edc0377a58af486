import { ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, it } from "vitest";
import type { PartialAck } from "../domain/ack-types.js";
import { AckRangeSet } from "./ack-range-set.js";
import type { AckView } from "./ack-view.js";
import { cumulativeAck, cumulativePartialAck } from "./cumulative-ack.js";

const partial = (offset: number, remaining: bigint): PartialAck => ({ offset, batchSize: 4, remaining: [remaining] });
const BASE = {
  baseMarkDeleteOffset: 5,
  ranges: AckRangeSet.fromRanges([{ start: 12, end: 15 }]),
  partials: new Map([[20, partial(20, 0b0111n)]]),
};
const VIEW: AckView = {
  markDeleteOffset: 10,
  base: BASE,
  inlineRanges: [
    { start: 15, end: 16 },
    { start: 30, end: 32 },
  ],
  inlinePartials: [partial(10, 0b1110n), partial(25, 0b0001n)],
};

const expectCode = (code: ErrorCode, run: () => unknown): void => {
  try {
    run();
  } catch (error) {
    expect(NereusError.hasCode(error, code)).toBe(true);
    return;
  }
  expect.fail(`expected ${code}`);
};

describe("cumulativeAck", () => {
  it("is not applied below markDelete", () => {
    expect(cumulativeAck(VIEW, 9)).toEqual({ view: VIEW, applied: false });
  });

  it("moves markDelete past the offset, folds through touching base and inline ranges, drops lower items", () => {
    const { view, applied } = cumulativeAck(VIEW, 11);
    expect(applied).toBe(true);
    expect(view).toEqual({
      ...VIEW,
      markDeleteOffset: 16,
      inlineRanges: [{ start: 30, end: 32 }],
      inlinePartials: [partial(25, 0b0001n)],
    });
    expect(view.base).toBe(BASE);
    expect(VIEW.inlineRanges).toHaveLength(2);
  });

  it("rejects an offset that is not a safe non-negative integer", () => {
    for (const offset of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1])
      expectCode(ErrorCode.INVALID_ARGUMENT, () => cumulativeAck(VIEW, offset));
  });
});

describe("cumulativePartialAck", () => {
  it("AND-merges into the entry's partial at markDelete, and reports a repeat as not applied", () => {
    const first = cumulativePartialAck(VIEW, 10, { batchSize: 4, remaining: [0b1100n] });
    expect(first.applied).toBe(true);
    expect(first.view.markDeleteOffset).toBe(10);
    expect(first.view.inlinePartials).toEqual([partial(10, 0b1100n), partial(25, 0b0001n)]);
    const again = cumulativePartialAck(first.view, 10, { batchSize: 4, remaining: [0b1101n] });
    expect(again).toEqual({ view: first.view, applied: false });
  });

  it("merges with the base's partial into an inline override", () => {
    const { view } = cumulativePartialAck(VIEW, 20, { batchSize: 4, remaining: [0b1011n] });
    expect(view.markDeleteOffset).toBe(20);
    expect(view.inlinePartials).toEqual([partial(20, 0b0011n), partial(25, 0b0001n)]);
    expect(view.inlineRanges).toEqual([{ start: 30, end: 32 }]);
  });

  it("turns an entry with no batch index left into a whole ack and folds", () => {
    const { view, applied } = cumulativePartialAck(VIEW, 10, { batchSize: 4, remaining: [0b0001n] });
    expect(applied).toBe(true);
    expect(view.markDeleteOffset).toBe(11);
    const through = cumulativePartialAck(VIEW, 29, { batchSize: 4, remaining: [] });
    expect(through.view.markDeleteOffset).toBe(32);
  });

  it("moves markDelete without a partial when the request acknowledges no index", () => {
    const { view, applied } = cumulativePartialAck(VIEW, 18, { batchSize: 4, remaining: [0b1111n] });
    expect(applied).toBe(true);
    expect(view.markDeleteOffset).toBe(18);
    expect(view.inlinePartials).toEqual([partial(25, 0b0001n)]);
    expect(cumulativePartialAck(VIEW, 10, { batchSize: 4, remaining: [0b1111n] }).applied).toBe(false);
  });

  it("treats a whole-acked target as a cumulative ack through its range", () => {
    const { view } = cumulativePartialAck(VIEW, 13, { batchSize: 4, remaining: [1n] });
    expect(view.markDeleteOffset).toBe(16);
  });

  it("is not applied below markDelete and rejects bad requests", () => {
    expect(cumulativePartialAck(VIEW, 3, { batchSize: 4, remaining: [1n] }).applied).toBe(false);
    expectCode(ErrorCode.INVALID_ARGUMENT, () => cumulativePartialAck(VIEW, 10, { batchSize: 5, remaining: [1n] }));
    expectCode(ErrorCode.INVALID_ARGUMENT, () => cumulativePartialAck(VIEW, 11, { batchSize: 4, remaining: [16n] }));
    expectCode(ErrorCode.INVALID_ARGUMENT, () => cumulativePartialAck(VIEW, -2, { batchSize: 4, remaining: [1n] }));
  });
});
