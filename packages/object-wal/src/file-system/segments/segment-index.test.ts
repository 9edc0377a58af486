import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SegmentIndex } from "./segment-index.js";

const at = (segment: number, recordOffset: number, size = 10) => ({
  segment,
  recordOffset,
  bodyOffset: recordOffset + 30,
  size,
  crc32c: 0,
});

describe("SegmentIndex", () => {
  it("counts live puts per segment; a later put of a key moves it", () => {
    const index = SegmentIndex.open(":memory:", Database);
    index.applyPut("a", at(1, 0), 40);
    index.applyPut("b", at(1, 40), 40);
    index.applyPut("a", at(2, 0), 40);
    expect(index.get("a")?.segment).toBe(2);
    expect(index.liveBytes(1)).toBe(10);
    expect(index.keysIn(1)).toEqual(["b"]);
    expect(index.segmentBytes(1)).toBe(80);
  });

  it("a delete removes only the put it names (a key deleted and put again survives an old delete)", () => {
    const index = SegmentIndex.open(":memory:", Database);
    index.applyPut("k", at(1, 0), 40);
    expect(index.applyDelete("k", 2, 0, 30, 1, 0)).toBe(true);
    index.applyPut("k", at(2, 30), 40);
    expect(index.applyDelete("k", 3, 0, 30, 1, 0)).toBe(false);
    expect(index.get("k")).toEqual(at(2, 30));
  });

  it("a segment is removable only when it holds no live put and its deletes name no segment still present", () => {
    const index = SegmentIndex.open(":memory:", Database);
    index.applyPut("x", at(1, 0), 40);
    index.applyPut("y", at(2, 0), 40);
    index.applyDelete("x", 3, 0, 30, 1, 0);
    index.applyDelete("y", 3, 30, 30, 2, 0);
    index.addSegment(4);
    // 1 and 2 are empty; 3's deletes still protect them.
    expect(index.removable(4)).toEqual([1, 2]);
    index.removeSegment(1);
    expect(index.removable(4)).toEqual([2]);
    index.removeSegment(2);
    expect(index.removable(4)).toEqual([3]);
    // The active segment never is.
    expect(index.removable(3)).toEqual([]);
  });

  it("needed deletes can be dropped once copied, and a live segment cannot be removed", () => {
    const index = SegmentIndex.open(":memory:", Database);
    index.applyPut("x", at(1, 0), 40);
    index.applyPut("z", at(1, 40), 40);
    index.applyDelete("x", 2, 0, 30, 1, 0);
    index.addSegment(3);
    expect(index.neededDeletes(2)).toEqual([{ key: "x", targetSegment: 1, targetOffset: 0 }]);
    expect(index.removable(3)).toEqual([]);
    index.dropDeletes(2);
    expect(index.removable(3)).toEqual([2]);
    expect(() => index.removeSegment(1)).toThrow(/live object/);
  });

  it("does not keep deletes of segments already gone", () => {
    const index = SegmentIndex.open(":memory:", Database);
    index.addSegment(5);
    index.applyDelete("old", 5, 0, 30, 1, 0);
    expect(index.neededDeletes(5)).toEqual([]);
    index.addSegment(6);
    expect(index.removable(6)).toEqual([5]);
  });

  it("picks the sparsest segment below a share of live bytes that still holds something to move", () => {
    const index = SegmentIndex.open(":memory:", Database);
    index.applyPut("a", at(1, 0, 100), 130);
    index.applyPut("b", at(1, 130, 100), 130);
    index.applyPut("c", at(2, 0, 100), 130);
    index.applyPut("d", at(2, 130, 100), 130);
    index.applyDelete("a", 3, 0, 30, 1, 0);
    index.addSegment(4);
    // Segment 1 is 100/260 live, 2 is 200/260, 3 holds only a delete that protects 1 (share 0).
    expect(index.sparsest(4, 0.5)).toBe(3);
    index.dropDeletes(3);
    expect(index.sparsest(4, 0.5)).toBe(1);
    expect(index.sparsest(4, 0.3)).toBeUndefined();
    expect(index.sparsest(1, 0.5)).toBeUndefined();
  });
});
