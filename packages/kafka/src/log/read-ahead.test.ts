import type { ReadEntry, ReadOptions, ReadResult, StreamStore } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { ReadAhead } from "./read-ahead.js";

/** Records the reads a ReadAhead issues; each resolves when released (or fails). */
function recordingStore() {
  const reads: Array<{ streamId: string; offset: number; options: ReadOptions | undefined; settle: (ok: boolean) => void }> = [];
  const store = {
    read(streamId: string, offset: number, options?: ReadOptions): Promise<ReadResult> {
      return new Promise<ReadResult>((resolve, reject) => {
        reads.push({ streamId, offset, options, settle: (ok) => (ok ? resolve({ entries: [] } as unknown as ReadResult) : reject(new Error("read failed"))) });
      });
    },
  } as unknown as StreamStore;
  return { store, reads };
}

const entries = (from: number, count: number, size: number): ReadEntry[] =>
  Array.from({ length: count }, (_, index) => ({ offset: from + index * 10, recordCount: 10, payload: new Uint8Array(size) }) as unknown as ReadEntry);

describe("ReadAhead", () => {
  it("after a nearly full read, reads the next two budgets once in the background; errors are swallowed", async () => {
    const { store, reads } = recordingStore();
    const ahead = new ReadAhead(store, new AbortController().signal);
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    expect(reads.map((read) => [read.streamId, read.offset, read.options?.maxBytes])).toEqual([["s", 40, 2000]]);
    // One at a time.
    ahead.after("s", entries(40, 4, 300), 1000, 1000);
    expect(reads).toHaveLength(1);
    reads[0]?.settle(false);
    await ahead.settled();
    // Not the same range twice; the next one, yes.
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    expect(reads).toHaveLength(1);
    ahead.after("s", entries(40, 4, 300), 1000, 1000);
    expect(reads.map((read) => read.offset)).toEqual([40, 80]);
    reads[1]?.settle(true);
    await ahead.settled();
    expect(ahead.started).toBe(2);
  });

  it("does nothing after a small read, at the end of the log, for no entries, or once closing", () => {
    const { store, reads } = recordingStore();
    const closing = new AbortController();
    const ahead = new ReadAhead(store, closing.signal);
    ahead.after("s", entries(0, 1, 100), 1000, 1000);
    ahead.after("s", entries(0, 4, 300), 1000, 40);
    ahead.after("s", [], 1000, 1000);
    closing.abort();
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    expect(reads).toHaveLength(0);
  });
});
