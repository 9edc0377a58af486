import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeferredIndexPuts, type HeldPut } from "./deferred-index-puts.js";
import { SegmentIndex, type SegmentLocation } from "./segment-index.js";

const location = (segment: number, recordOffset: number, size = 10): SegmentLocation => ({
  segment,
  recordOffset,
  bodyOffset: recordOffset + 20,
  size,
  crc32c: recordOffset,
});
const put = (key: string, segment: number, recordOffset: number): HeldPut => ({
  key,
  location: location(segment, recordOffset),
  recordBytes: 30,
});

describe("DeferredIndexPuts", () => {
  const indexes: SegmentIndex[] = [];
  const open = (): SegmentIndex => {
    const index = SegmentIndex.open(":memory:", Database);
    indexes.push(index);
    return index;
  };
  afterEach(() => {
    vi.useRealTimers();
    for (const index of indexes.splice(0)) index.close();
  });

  it("answers lookups from held puts at once and applies them, with the applied position, in one transaction", () => {
    const index = open();
    const failures: unknown[] = [];
    const puts = new DeferredIndexPuts(index, { maxHeld: 100, onFailure: (error) => failures.push(error) });
    puts.hold([put("a", 1, 0), put("b", 1, 30)], { segment: 1, offset: 60 });
    puts.hold([put("a", 1, 60)], { segment: 1, offset: 90 });
    expect(puts.held).toBe(3);
    expect(index.get("a")).toBeUndefined();
    expect(puts.get("a")).toEqual(location(1, 60));
    expect(puts.get("b")).toEqual(location(1, 30));
    expect(puts.flush()).toBe(true);
    puts.close();
    expect(puts.transactions).toBe(1);
    expect(puts.held).toBe(0);
    // The later put of a key wins, as if each had been applied in turn.
    expect(index.get("a")).toEqual(location(1, 60));
    expect(index.get("b")).toEqual(location(1, 30));
    expect(index.applied).toEqual({ segment: 1, offset: 90 });
    expect(index.livePuts(1)).toBe(2);
    expect(failures).toEqual([]);
  });

  it("applies once maxHeld puts are held, and after maxDelayMs otherwise", () => {
    vi.useFakeTimers();
    const index = open();
    const puts = new DeferredIndexPuts(index, { maxHeld: 2, maxDelayMs: 50, onFailure: () => undefined });
    puts.hold([put("x", 1, 0)], { segment: 1, offset: 30 });
    expect(index.get("x")).toBeUndefined();
    puts.hold([put("y", 1, 30)], { segment: 1, offset: 60 });
    expect(index.get("y")).toEqual(location(1, 30));
    puts.hold([put("z", 1, 60)], { segment: 1, offset: 90 });
    vi.advanceTimersByTime(49);
    expect(index.get("z")).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(index.get("z")).toEqual(location(1, 60));
    expect(index.applied).toEqual({ segment: 1, offset: 90 });
    expect(puts.transactions).toBe(2);
    puts.close();
  });

  it("keeps the records held and visible when applying fails, and applies them once the index accepts writes again", () => {
    vi.useFakeTimers();
    const index = open();
    const failures: unknown[] = [];
    let recovered = 0;
    const puts = new DeferredIndexPuts(index, {
      maxHeld: 100,
      retryDelayMs: 1_000,
      onFailure: (error) => failures.push(error),
      onRecovered: () => (recovered += 1),
    });
    puts.hold([put("k", 1, 0), put("gone", 1, 30)], { segment: 1, offset: 60 });
    // A full disk: the index transaction fails (and rolls back).
    const full = vi.spyOn(index, "transaction").mockImplementation(() => {
      throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    });
    expect(puts.flush()).toBe(false);
    expect(puts.failing).toBe(true);
    // A delete of a held put is seen at once, like the put.
    puts.hold([{ key: "gone", segment: 1, recordOffset: 60, recordBytes: 20, delete: { segment: 1, offset: 30 } }], {
      segment: 1,
      offset: 80,
    });
    expect(puts.get("k")).toEqual(location(1, 0));
    expect(puts.get("gone")).toBeUndefined();
    expect(index.get("k")).toBeUndefined();
    vi.advanceTimersByTime(1_000);
    expect(failures).toHaveLength(2);
    expect(recovered).toBe(0);
    // The disk has room again: the retry applies every held record, in order, with the applied position.
    full.mockRestore();
    vi.advanceTimersByTime(1_000);
    expect(recovered).toBe(1);
    expect(puts.failing).toBe(false);
    expect(puts.held).toBe(0);
    expect(index.get("k")).toEqual(location(1, 0));
    expect(index.get("gone")).toBeUndefined();
    expect(index.applied).toEqual({ segment: 1, offset: 80 });
    expect(index.livePuts(1)).toBe(1);
    puts.close();
  });
});
