import { ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, it } from "vitest";
import type { PartialAck } from "../domain/ack-types.js";
import type { CursorSnapshotContent } from "../domain/snapshot-content.js";
import { ackBaseFromSnapshot, EMPTY_ACK_BASE } from "./ack-base.js";

const content = (
  baseMarkDeleteOffset: number,
  ranges: [number, number][],
  partials: PartialAck[] = [],
): CursorSnapshotContent => ({
  snapshotId: "a".repeat(32),
  streamId: "stream",
  cursorNameHash: "b".repeat(32),
  cursorGeneration: 1,
  sourceMutationSequence: 5,
  baseMarkDeleteOffset,
  createdAtMillis: 0,
  rangeStarts: new Float64Array(ranges.map(([start]) => start)),
  rangeEnds: new Float64Array(ranges.map(([, end]) => end)),
  partials,
});

const expectCorrupt = (run: () => unknown): void => {
  try {
    run();
  } catch (error) {
    expect(NereusError.hasCode(error, ErrorCode.METADATA_INVARIANT_VIOLATION)).toBe(true);
    return;
  }
  expect.fail("expected METADATA_INVARIANT_VIOLATION");
};

describe("AckBase", () => {
  it("is empty for a root without snapshot", () => {
    expect(EMPTY_ACK_BASE.ranges.size).toBe(0);
    expect(EMPTY_ACK_BASE.partials.size).toBe(0);
  });

  it("holds a snapshot's ranges and partials, partials in offset order", () => {
    const partial = { offset: 12, batchSize: 3, remaining: [1n] };
    const base = ackBaseFromSnapshot(
      content(
        10,
        [
          [11, 12],
          [20, 30],
        ],
        [partial, { ...partial, offset: 40 }],
      ),
    );
    expect(base.baseMarkDeleteOffset).toBe(10);
    expect(base.ranges.toRanges()).toEqual([
      { start: 11, end: 12 },
      { start: 20, end: 30 },
    ]);
    expect([...base.partials.keys()]).toEqual([12, 40]);
    expect(base.partials.get(12)).toBe(partial);
  });

  it("refuses content that breaks the snapshot invariants", () => {
    const partial = { offset: 12, batchSize: 3, remaining: [1n] };
    expectCorrupt(() => ackBaseFromSnapshot(content(10, [[10, 12]])));
    expectCorrupt(() => ackBaseFromSnapshot(content(10, [], [{ ...partial, offset: 9 }])));
    expectCorrupt(() => ackBaseFromSnapshot(content(10, [], [partial, partial])));
    expectCorrupt(() => ackBaseFromSnapshot(content(10, [[11, 13]], [partial])));
  });
});
