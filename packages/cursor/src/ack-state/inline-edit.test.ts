import { describe, expect, it } from "vitest";
import type { AckRange, PartialAck } from "../domain/ack-types.js";
import { addOffsetsToRanges, mergePartials } from "./inline-edit.js";

const ranges = (...pairs: [number, number][]): AckRange[] => pairs.map(([start, end]) => ({ start, end }));
const partial = (offset: number): PartialAck => ({ offset, batchSize: 2, remaining: [1n] });

describe("addOffsetsToRanges", () => {
  it("coalesces runs of offsets with each other and with touching ranges on both sides", () => {
    const existing = ranges([2, 4], [6, 8], [20, 22]);
    expect(addOffsetsToRanges(existing, [0, 4, 5, 10, 11, 19, 22, 30])).toEqual(
      ranges([0, 1], [2, 8], [10, 12], [19, 23], [30, 31]),
    );
    expect(addOffsetsToRanges(existing, [1])).toEqual(ranges([1, 4], [6, 8], [20, 22]));
    expect(addOffsetsToRanges(existing, [3])).toEqual(existing);
    expect(addOffsetsToRanges([], [5, 6, 8])).toEqual(ranges([5, 7], [8, 9]));
    expect(existing).toEqual(ranges([2, 4], [6, 8], [20, 22]));
  });
});

describe("mergePartials", () => {
  it("inserts and replaces by offset and removes the offsets that became whole", () => {
    const replaced = { ...partial(5), remaining: [2n] };
    expect(mergePartials([partial(1), partial(5), partial(9)], [partial(3), replaced, partial(12)], [1, 9])).toEqual([
      partial(3),
      replaced,
      partial(12),
    ]);
    expect(mergePartials([partial(1)], [], [])).toEqual([partial(1)]);
  });
});
