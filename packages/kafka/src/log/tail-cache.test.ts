import type { ReadEntry } from "@nereus/core";
import { describe, expect, test } from "vitest";
import { ReadAheadMemory } from "./read-ahead.js";
import { TailCache } from "./tail-cache.js";

/** `count` entries of `recordCount` records and `size` bytes each, from `offset` on. */
function entries(offset: number, count: number, size = 10, recordCount = 2): ReadEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    offset: offset + index * recordCount,
    recordCount,
    payload: new Uint8Array(size).fill(index),
  }));
}

/** Adds `list` in order. */
function append(cache: TailCache, streamId: string, list: readonly ReadEntry[]): void {
  for (const entry of list) cache.add(streamId, entry);
}

const offsets = (read: readonly ReadEntry[] | undefined): number[] | undefined => read?.map((entry) => entry.offset);

describe("TailCache", () => {
  test("serves whole entries from the one holding the offset, within the budget (at least one) and below the end", () => {
    const cache = new TailCache(1_000, new ReadAheadMemory(10_000));
    append(cache, "s", entries(0, 5));
    expect(offsets(cache.read("s", 3, 25, 10))).toEqual([2, 4]);
    expect(offsets(cache.read("s", 3, 1, 10))).toEqual([2]);
    expect(offsets(cache.read("s", 0, 1_000, 6))).toEqual([0, 2, 4]);
    expect(cache.read("s", 10, 1_000, 12)).toBeUndefined();
    expect(cache.read("other", 0, 1_000, 10)).toBeUndefined();
    expect(cache.hits).toBe(3);
  });

  test("keeps the newest entries within its bytes and the shared memory budget", () => {
    const memory = new ReadAheadMemory(35);
    const cache = new TailCache(30, memory);
    append(cache, "s", entries(0, 5));
    expect(cache.bytes).toBe(30);
    expect(memory.used).toBe(30);
    expect(cache.read("s", 3, 1_000, 10)).toBeUndefined();
    expect(offsets(cache.read("s", 4, 1_000, 10))).toEqual([4, 6, 8]);
    // Another partition holds memory: this one keeps what still fits.
    memory.hold(15);
    append(cache, "s", entries(10, 1));
    expect(cache.read("s", 6, 1_000, 12)).toBeUndefined();
    expect(offsets(cache.read("s", 8, 1_000, 12))).toEqual([8, 10]);
    expect(memory.used).toBe(15 + 20);
    cache.clear();
    expect(memory.used).toBe(15);
  });

  test("a gap, another stream or an entry too large restarts it", () => {
    const memory = new ReadAheadMemory(1_000);
    const cache = new TailCache(100, memory);
    append(cache, "s", entries(0, 3));
    append(cache, "s", entries(10, 1));
    expect(cache.read("s", 0, 1_000, 20)).toBeUndefined();
    expect(offsets(cache.read("s", 10, 1_000, 20))).toEqual([10]);
    append(cache, "t", entries(12, 1));
    expect(cache.read("s", 10, 1_000, 20)).toBeUndefined();
    expect(offsets(cache.read("t", 12, 1_000, 20))).toEqual([12]);
    append(cache, "t", entries(14, 1, 500));
    expect(cache.bytes).toBe(0);
    expect(memory.used).toBe(0);
    expect(new TailCache(0, memory).bytes).toBe(0);
    expect(() => new TailCache(-1, memory)).toThrow(RangeError);
  });

  test("many small entries: lookups stay exact while old ones are dropped and the list compacted", () => {
    const cache = new TailCache(1_000, new ReadAheadMemory(1_000_000));
    for (let index = 0; index < 5_000; index += 1) append(cache, "s", entries(index, 1, 10, 1));
    expect(cache.bytes).toBe(1_000);
    expect(cache.read("s", 4_899, 1_000, 5_000)).toBeUndefined();
    expect(offsets(cache.read("s", 4_900, 30, 5_000))).toEqual([4_900, 4_901, 4_902]);
    expect(offsets(cache.read("s", 4_999, 1_000, 5_000))).toEqual([4_999]);
  });
});
