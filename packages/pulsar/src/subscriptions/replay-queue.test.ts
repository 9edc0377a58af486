import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReplayQueue } from "./replay-queue.js";

const meta = (offset: number, slot = offset % 3) => ({ offset, numMessages: 1, slot });

describe("ReplayQueue", () => {
  it("iterates in offset order and counts slots", () => {
    const queue = new ReplayQueue();
    for (const offset of [5, 2, 9, 2]) queue.add(meta(offset));
    expect(queue.entries().map((entry) => entry.offset)).toEqual([2, 5, 9]);
    expect(queue.hasSlot(2)).toBe(true);
    queue.delete(2);
    queue.delete(5);
    expect(queue.hasSlot(2)).toBe(false);
    expect(queue.size).toBe(1);
  });

  it("behaves as a sorted set under any adds and deletes", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.nat({ max: 200 })), { maxLength: 300 }), (ops) => {
        const queue = new ReplayQueue();
        const model = new Set<number>();
        for (const [add, offset] of ops) {
          if (add) {
            queue.add(meta(offset));
            model.add(offset);
          } else {
            queue.delete(offset);
            model.delete(offset);
          }
        }
        expect(queue.entries().map((entry) => entry.offset)).toEqual([...model].sort((a, b) => a - b));
        for (const slot of [0, 1, 2])
          expect(queue.hasSlot(slot)).toBe([...model].some((offset) => offset % 3 === slot));
      }),
    );
  });
});
