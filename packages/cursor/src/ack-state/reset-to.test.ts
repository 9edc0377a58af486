import { describe, expect, it } from "vitest";
import { EMPTY_ACK_BASE } from "./ack-base.js";
import { AckRangeSet } from "./ack-range-set.js";
import { type AckView, emptyAckView } from "./ack-view.js";
import { resetTo } from "./reset-to.js";

const VIEW: AckView = {
  markDeleteOffset: 10,
  base: { baseMarkDeleteOffset: 0, ranges: AckRangeSet.fromRanges([{ start: 20, end: 30 }]), partials: new Map() },
  inlineRanges: [{ start: 12, end: 13 }],
  inlinePartials: [],
};

describe("resetTo", () => {
  it("drops every ack, the base included, forwards and backwards", () => {
    expect(resetTo(VIEW, 25)).toEqual({ view: emptyAckView(25), applied: true });
    expect(resetTo(VIEW, 4).view).toEqual(emptyAckView(4));
    expect(resetTo(VIEW, 4).view.base).toBe(EMPTY_ACK_BASE);
  });

  it("keeps a partial of the target entry; all indexes acked means the entry is acked, none means no partial", () => {
    expect(resetTo(VIEW, 7, { batchSize: 3, remaining: [5n, 0n] }).view.inlinePartials).toEqual([
      { offset: 7, batchSize: 3, remaining: [5n] },
    ]);
    expect(resetTo(VIEW, 7, { batchSize: 3, remaining: [] }).view).toEqual(emptyAckView(8));
    expect(resetTo(VIEW, 7, { batchSize: 3, remaining: [7n] }).view).toEqual(emptyAckView(7));
  });

  it("is not applied when the view already is exactly the requested state", () => {
    const once = resetTo(VIEW, 7, { batchSize: 3, remaining: [5n] }).view;
    expect(resetTo(once, 7, { batchSize: 3, remaining: [5n] })).toEqual({ view: expect.anything(), applied: false });
    expect(resetTo(once, 7, { batchSize: 3, remaining: [4n] }).applied).toBe(true);
    expect(resetTo(once, 7).applied).toBe(true);
    expect(resetTo(emptyAckView(7), 7).applied).toBe(false);
  });

  it("rejects a bad target or bit map", () => {
    expect(() => resetTo(VIEW, -1)).toThrow(/reset target/);
    expect(() => resetTo(VIEW, 1, { batchSize: 2, remaining: [4n] })).toThrow(/batch size/);
  });
});
