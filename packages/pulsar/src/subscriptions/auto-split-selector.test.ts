import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AutoSplitSelector } from "./auto-split-selector.js";

describe("AutoSplitSelector", () => {
  it("splits the largest range, the newcomer taking its lower half", () => {
    const selector = new AutoSplitSelector();
    selector.add(1n);
    expect(selector.ranges()).toEqual([{ consumerId: 1n, start: 0, end: 65_535 }]);
    selector.add(2n);
    selector.add(3n);
    expect(selector.ranges()).toEqual([
      { consumerId: 3n, start: 0, end: 16_384 },
      { consumerId: 2n, start: 16_385, end: 32_768 },
      { consumerId: 1n, start: 32_769, end: 65_535 },
    ]);
    expect([0, 16_384, 16_385, 32_769, 65_535].map((slot) => selector.select(slot))).toEqual([3n, 3n, 2n, 1n, 1n]);
  });

  it("gives a leaving consumer's range to the one above, the topmost range to the one below", () => {
    const selector = new AutoSplitSelector();
    for (const id of [1n, 2n, 3n]) selector.add(id);
    selector.remove(2n);
    expect(selector.ranges()).toEqual([
      { consumerId: 3n, start: 0, end: 16_384 },
      { consumerId: 1n, start: 16_385, end: 65_535 },
    ]);
    selector.remove(1n);
    expect(selector.ranges()).toEqual([{ consumerId: 3n, start: 0, end: 65_535 }]);
    selector.remove(3n);
    expect(selector.select(5)).toBeUndefined();
  });

  it("always covers every slot exactly once with one range per consumer", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 20 })), { maxLength: 60 }), (ops) => {
        const selector = new AutoSplitSelector();
        const present = new Set<bigint>();
        for (const [add, id] of ops) {
          if (add) selector.add(BigInt(id));
          else selector.remove(BigInt(id));
          if (add) present.add(BigInt(id));
          else present.delete(BigInt(id));
          const ranges = selector.ranges();
          expect(new Set(ranges.map((range) => range.consumerId))).toEqual(present);
          expect(ranges.length).toBe(present.size);
          let next = 0;
          for (const range of ranges) {
            expect(range.start).toBe(next);
            expect(range.end).toBeGreaterThanOrEqual(range.start);
            expect(selector.select(range.start)).toBe(range.consumerId);
            expect(selector.select(range.end)).toBe(range.consumerId);
            next = range.end + 1;
          }
          if (present.size > 0) expect(next).toBe(65_536);
        }
      }),
    );
  });
});
