import { afterEach, describe, expect, it, vi } from "vitest";
import { DeferredIndexPuts, type HeldPut } from "./deferred-index-puts.js";
import { SegmentIndex, type SegmentLocation } from "./segment-index.js";

const location = (segment: number, recordOffset: number, size = 10): SegmentLocation => ({ segment, recordOffset, bodyOffset: recordOffset + 20, size, crc32c: recordOffset });
const put = (key: string, segment: number, recordOffset: number): HeldPut => ({ key, location: location(segment, recordOffset), recordBytes: 30 });

describe("DeferredIndexPuts", () => {
  const indexes: SegmentIndex[] = [];
  const open = (): SegmentIndex => {
    const index = SegmentIndex.open(":memory:");
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

  it("reports a failure once, keeps the held puts visible and applies nothing more", () => {
    const index = open();
    const failures: unknown[] = [];
    const puts = new DeferredIndexPuts(index, { maxHeld: 100, onFailure: (error) => failures.push(error) });
    puts.hold([put("k", 1, 0)], { segment: 1, offset: 30 });
    index.close();
    expect(puts.flush()).toBe(false);
    expect(puts.flush()).toBe(false);
    expect(failures).toHaveLength(1);
    expect(puts.get("k")).toEqual(location(1, 0));
    puts.close();
  });
});
