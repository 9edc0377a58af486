import type { ReadEntry } from "@nereus/core";
import { describe, expect, test } from "vitest";
import { encodeRecordBatch } from "../protocol/records/encode-record-batch.js";
import { type RetentionScan, deletePrefix, sumBatchBytes } from "./retention-scan.js";

/** A partition of `count` one-record batches; batch i has timestamp i * 10 and offset i. */
function partition(count: number): {
  entries: ReadEntry[];
  reads: Array<[number, number]>;
  read: RetentionScan["read"];
} {
  const entries = Array.from({ length: count }, (_, index) => ({
    offset: index,
    recordCount: 1,
    payload: encodeRecordBatch({
      baseTimestamp: index * 10,
      records: [{ value: new TextEncoder().encode(`v${String(index)}`) }],
    }),
  }));
  const reads: Array<[number, number]> = [];
  const read = async (offset: number, maxBytes: number): Promise<ReadEntry[]> => {
    reads.push([offset, maxBytes]);
    const result: ReadEntry[] = [];
    let bytes = 0;
    for (const entry of entries.slice(offset)) {
      if (result.length > 0 && bytes + entry.payload.byteLength > maxBytes) break;
      result.push(entry);
      bytes += entry.payload.byteLength;
    }
    return result;
  };
  return { entries, reads, read };
}

describe("deletePrefix", () => {
  test("lets batches go until the rule keeps one, reading one batch first and trimming once at the end", async () => {
    const { entries, reads, read } = partition(6);
    const size = entries[0]?.payload.byteLength ?? 0;
    const trims: Array<[number, number]> = [];
    const cut = await deletePrefix({
      from: 0,
      until: 6,
      readBytes: 1 << 20,
      stepBytes: 1 << 20,
      read,
      trim: async (offset, removed) => void trims.push([offset, removed]),
      letGo: (batch) => batch.maxTimestamp < 30,
    });
    expect(cut).toBe(3);
    expect(trims).toEqual([[3, 3 * size]]);
    expect(reads).toEqual([
      [0, 1],
      [1, 1 << 20],
    ]);
  });

  test("trims every stepBytes, stops at the high watermark it was given, and reads nothing more when the first batch stays", async () => {
    const { entries, read } = partition(6);
    const size = entries[0]?.payload.byteLength ?? 0;
    const trims: Array<[number, number]> = [];
    const trim = async (offset: number, removed: number): Promise<void> => void trims.push([offset, removed]);
    expect(
      await deletePrefix({ from: 0, until: 5, readBytes: 1 << 20, stepBytes: 2 * size, read, trim, letGo: () => true }),
    ).toBe(5);
    expect(trims).toEqual([
      [2, 2 * size],
      [4, 2 * size],
      [5, size],
    ]);
    const kept = partition(3);
    expect(
      await deletePrefix({
        from: 1,
        until: 3,
        readBytes: 1 << 20,
        stepBytes: 1,
        read: kept.read,
        trim,
        letGo: () => false,
      }),
    ).toBe(1);
    expect(kept.reads).toEqual([[1, 1]]);
  });

  test("an aborted pass starts no further read or trim", async () => {
    const { read } = partition(6);
    const controller = new AbortController();
    const trims: number[] = [];
    const cut = await deletePrefix({
      from: 0,
      until: 6,
      readBytes: 1 << 20,
      stepBytes: 1 << 20,
      read,
      trim: async (offset) => void trims.push(offset),
      letGo: (batch) => {
        if (batch.baseOffset === 2) controller.abort();
        return true;
      },
      signal: controller.signal,
    });
    expect(cut).toBe(0);
    expect(trims).toEqual([]);
  });
});

describe("sumBatchBytes", () => {
  test("adds the whole batches of [from, until)", async () => {
    const { entries, read } = partition(5);
    const size = entries[0]?.payload.byteLength ?? 0;
    expect(await sumBatchBytes(read, 1, 4, 2 * size)).toBe(3 * size);
    expect(await sumBatchBytes(read, 0, 0, size)).toBe(0);
    const aborted = AbortSignal.abort();
    expect(await sumBatchBytes(read, 0, 5, size, aborted)).toBeUndefined();
  });
});
