import { ErrorCode, type ObjectSliceTarget, type StoredEntry } from "@nereus/core";
import { InMemoryObjectStore, nereusRejectionOf } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import { encodeWalObject } from "../format/encode-wal-object.js";
import { ObjectWalReader } from "./object-wal-reader.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One object with a small slice ("s-a": a, b) followed by a large one ("s-b": 4 KiB of x, y); targets of both. */
async function twoSliceObject(store: InMemoryObjectStore, key = "wal/one.nrs"): Promise<ObjectSliceTarget[]> {
  const encoded = encodeWalObject({
    writerId: "writer",
    attemptKey: "wo-1",
    createdAtMillis: 1,
    slices: [
      {
        streamId: "s-a",
        firstExpectedOffset: 0,
        entries: [
          { recordCount: 1, payload: encoder.encode("a") },
          { recordCount: 2, payload: encoder.encode("b") },
        ],
      },
      {
        streamId: "s-b",
        firstExpectedOffset: 0,
        entries: [
          { recordCount: 1, payload: encoder.encode("x".repeat(4096)) },
          { recordCount: 1, payload: encoder.encode("y") },
        ],
      },
    ],
  });
  await store.putIfAbsent(key, encoded.bytes);
  return encoded.manifest.map((slice) => ({
    type: "OBJECT_SLICE",
    version: 1,
    objectKey: key,
    objectType: "MULTI_STREAM_WAL_OBJECT",
    sliceOffset: slice.offset,
    sliceLength: slice.length,
    sliceChecksum: slice.checksum,
    entryCount: slice.entryCount,
  }));
}

function texts(entries: readonly StoredEntry[]): string[] {
  return entries.map((entry) => decoder.decode(entry.payload).slice(0, 3));
}

describe("ObjectWalReader", () => {
  it("serves a slice read again from its verified cache without another GET", async () => {
    const store = new InMemoryObjectStore();
    const [first] = await twoSliceObject(store);
    if (first === undefined) throw new Error("no slice");
    const reader = new ObjectWalReader({ objectStore: store });
    expect(texts(await reader.readEntries(first))).toEqual(["a", "b"]);
    expect(texts(await reader.readEntries(first))).toEqual(["a", "b"]);
    expect(store.stats.gets).toBe(1);
    expect(reader.stats).toMatchObject({ reads: 1, cacheHits: 1, cacheMisses: 1 });
  });

  it("reads adjacent slices of one object with one GET and verifies each", async () => {
    const store = new InMemoryObjectStore();
    const targets = await twoSliceObject(store);
    const reader = new ObjectWalReader({ objectStore: store });
    const results = await Promise.all(reader.accelerations.readEntriesMany(targets));
    expect(results.map(texts)).toEqual([
      ["a", "b"],
      ["xxx", "y"],
    ]);
    expect(store.stats.gets).toBe(1);
    expect(reader.stats.coalescedSlices).toBe(1);
  });

  it("does not span slices further apart than coalesceGapBytes", async () => {
    const store = new InMemoryObjectStore();
    const targets = await twoSliceObject(store);
    const [first, second] = targets;
    if (first === undefined || second === undefined) throw new Error("no slices");
    // Only the second slice and the first one of another object: nothing to join.
    const other = await twoSliceObject(store, "wal/two.nrs");
    const reader = new ObjectWalReader({ objectStore: store });
    await Promise.all(reader.accelerations.readEntriesMany([second, other[0] as ObjectSliceTarget]));
    expect(store.stats.gets).toBe(2);
    // Slices whose gap is larger than allowed are fetched separately.
    const apart = new ObjectWalReader({
      objectStore: store,
      coalesceGapBytes: 0,
      maxCoalescedBytes: first.sliceLength,
    });
    await Promise.all(apart.accelerations.readEntriesMany(targets));
    expect(store.stats.gets).toBe(4);
  });

  it("a corrupt slice in a coalesced GET fails alone, is not cached, and is downloaded again next time", async () => {
    const store = new InMemoryObjectStore();
    const targets = await twoSliceObject(store);
    const reader = new ObjectWalReader({ objectStore: store });
    // The flipped byte is the middle of the GET, inside the large second slice.
    store.faults.add({ op: "get", mode: "corrupt-read" });
    const [good, bad] = reader.accelerations.readEntriesMany(targets);
    expect(texts(await (good as Promise<readonly StoredEntry[]>))).toEqual(["a", "b"]);
    expect((await nereusRejectionOf(bad as Promise<unknown>)).code).toBe(ErrorCode.OBJECT_CHECKSUM_MISMATCH);
    const again = await reader.readEntries(targets[1] as ObjectSliceTarget);
    expect(texts(again)).toEqual(["xxx", "y"]);
    expect(store.stats.gets).toBe(2);
  });

  it("rejects bytes that do not match the target's checksum even when the slice itself is intact", async () => {
    const store = new InMemoryObjectStore();
    const [first] = await twoSliceObject(store);
    if (first === undefined) throw new Error("no slice");
    const reader = new ObjectWalReader({ objectStore: store });
    await reader.readEntries(first);
    // Same bytes, another claimed checksum: a different cache identity, so verified from scratch, and refused.
    const wrong = { ...first, sliceChecksum: (first.sliceChecksum + 1) >>> 0 };
    expect((await nereusRejectionOf(reader.readEntries(wrong))).code).toBe(ErrorCode.OBJECT_CHECKSUM_MISMATCH);
  });

  it("concurrent reads of one slice share one download", async () => {
    const store = new InMemoryObjectStore();
    const [first] = await twoSliceObject(store);
    if (first === undefined) throw new Error("no slice");
    const reader = new ObjectWalReader({ objectStore: store });
    const results = await Promise.all([
      reader.readEntries(first),
      reader.readEntries(first),
      reader.readEntries(first),
    ]);
    expect(results.map(texts)).toEqual([
      ["a", "b"],
      ["a", "b"],
      ["a", "b"],
    ]);
    expect(store.stats.gets).toBe(1);
  });

  it("keeps at most cacheBytes of slices, evicting the least recently used", async () => {
    const store = new InMemoryObjectStore();
    const [small, large] = await twoSliceObject(store);
    if (small === undefined || large === undefined) throw new Error("no slices");
    const reader = new ObjectWalReader({ objectStore: store, cacheBytes: large.sliceLength });
    await reader.readEntries(small);
    await reader.readEntries(large);
    expect(reader.cachedBytes).toBe(large.sliceLength);
    await reader.readEntries(large);
    expect(store.stats.gets).toBe(2);
    await reader.readEntries(small);
    expect(store.stats.gets).toBe(3);
    const uncached = new ObjectWalReader({ objectStore: store, cacheBytes: 0 });
    await uncached.readEntries(small);
    await uncached.readEntries(small);
    expect(store.stats.gets).toBe(5);
  });
});
