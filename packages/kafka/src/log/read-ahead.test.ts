import type { ReadEntry, ReadOptions, ReadResult, StreamStore } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { ReadAhead, ReadAheadMemory } from "./read-ahead.js";

/** `count` entries of 10 records and `size` bytes each, from offset `from`. */
const entries = (from: number, count: number, size: number): ReadEntry[] =>
  Array.from(
    { length: count },
    (_, index) =>
      ({ offset: from + index * 10, recordCount: 10, payload: new Uint8Array(size) }) as unknown as ReadEntry,
  );

/** Records the reads a ReadAhead issues; each resolves with entries of `size` bytes filling its budget when settled. */
function recordingStore(size = 300) {
  const reads: Array<{
    streamId: string;
    offset: number;
    options: ReadOptions | undefined;
    settle: (ok: boolean) => void;
  }> = [];
  const store = {
    read(streamId: string, offset: number, options?: ReadOptions): Promise<ReadResult> {
      return new Promise<ReadResult>((resolve, reject) => {
        const count = Math.max(1, Math.floor((options?.maxBytes ?? size) / size));
        reads.push({
          streamId,
          offset,
          options,
          settle: (ok) =>
            ok
              ? resolve({ entries: entries(offset, count, size) } as unknown as ReadResult)
              : reject(new Error("read failed")),
        });
      });
    },
  } as unknown as StreamStore;
  return { store, reads };
}

const offsets = (served: readonly ReadEntry[] | undefined): number[] | undefined =>
  served?.map((entry) => entry.offset);

/** Read-aheads start on the next turn of the event loop (after the Fetch that triggered them is answered). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("ReadAhead", () => {
  it("after a nearly full read, reads the next two budgets in the background and serves the next reads from them", async () => {
    const { store, reads } = recordingStore();
    const memory = new ReadAheadMemory(1_000_000);
    const ahead = new ReadAhead(store, new AbortController().signal, memory);
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    await nextTurn();
    expect(reads.map((read) => [read.streamId, read.offset, read.options?.maxBytes])).toEqual([["s", 40, 2000]]);
    // One at a time.
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    await nextTurn();
    expect(reads).toHaveLength(1);
    reads[0]?.settle(true);
    await ahead.settled();
    expect([ahead.bufferedBytes, memory.used]).toEqual([1800, 1800]);
    // An offset inside a buffered batch gets that whole batch, then whole batches within the budget.
    const served = ahead.take("s", 45, 1000, 1000);
    expect(offsets(served)).toEqual([40, 50, 60]);
    ahead.after("s", served ?? [], 1000, 1000, true);
    await nextTurn();
    // Topped up from the buffer's end so that two budgets stay ahead of the served range (900 bytes were left).
    expect(reads.map((read) => [read.offset, read.options?.maxBytes])).toEqual([
      [40, 2000],
      [100, 1100],
    ]);
    reads[1]?.settle(true);
    await ahead.settled();
    expect(offsets(ahead.take("s", 70, 1000, 1000))).toEqual([70, 80, 90]);
    // Entries before the reader's position are dropped: 70-120 stay (2,700 bytes were read ahead, 900 dropped).
    expect(memory.used).toBe(ahead.bufferedBytes);
    expect(ahead.bufferedBytes).toBe(1800);
    expect(ahead.hits).toBe(2);
  });

  it("answers undefined outside the buffer, for another stream, or when the buffer cannot fill the budget before the log end", async () => {
    const { store, reads } = recordingStore();
    const ahead = new ReadAhead(store, new AbortController().signal);
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    await nextTurn();
    reads[0]?.settle(true);
    await ahead.settled();
    expect(ahead.take("s", 0, 1000, 1000)).toBeUndefined();
    expect(ahead.take("other", 40, 1000, 1000)).toBeUndefined();
    // Six batches (1,800 bytes) buffered: a 5,000-byte budget cannot be filled while the log goes on ...
    expect(ahead.take("s", 40, 5000, 1000)).toBeUndefined();
    // ... but can when the log ends inside the buffer (no entry at or past the end is served).
    expect(offsets(ahead.take("s", 40, 5000, 80))).toEqual([40, 50, 60, 70]);
  });

  it("read() waits for the read-ahead extending the buffer instead of reading the same range again", async () => {
    const { store, reads } = recordingStore();
    const ahead = new ReadAhead(store, new AbortController().signal);
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    await nextTurn();
    const pending = ahead.read("s", 40, 1000, 1000);
    reads[0]?.settle(true);
    expect(offsets(await pending)).toEqual([40, 50, 60]);
    // Nothing is waited for when nothing runs.
    expect(await ahead.read("s", 500, 1000, 1000)).toBeUndefined();
  });

  it("a storage read elsewhere restarts the buffer; a read-ahead of the dropped buffer is discarded; clear releases memory", async () => {
    const { store, reads } = recordingStore();
    const memory = new ReadAheadMemory(1_000_000);
    const ahead = new ReadAhead(store, new AbortController().signal, memory);
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    await nextTurn();
    ahead.after("s", entries(500, 4, 300), 1000, 1000);
    await nextTurn();
    reads[0]?.settle(true);
    await ahead.settled();
    expect(ahead.bufferedBytes).toBe(0);
    expect(ahead.take("s", 40, 1000, 1000)).toBeUndefined();
    ahead.after("s", entries(500, 4, 300), 1000, 1000);
    await nextTurn();
    expect(reads.map((read) => read.offset)).toEqual([40, 540]);
    reads[1]?.settle(true);
    await ahead.settled();
    expect(offsets(ahead.take("s", 540, 1000, 1000))).toEqual([540, 550, 560]);
    ahead.clear();
    expect([ahead.bufferedBytes, memory.used]).toEqual([0, 0]);
    expect(ahead.take("s", 540, 1000, 1000)).toBeUndefined();
  });

  it("does nothing after a small read, at the end of the log, for no entries, once closing, or beyond the memory limit; failures are swallowed", async () => {
    const { store, reads } = recordingStore();
    const closing = new AbortController();
    const ahead = new ReadAhead(store, closing.signal, new ReadAheadMemory(1500));
    ahead.after("s", entries(0, 1, 100), 1000, 1000);
    await nextTurn();
    ahead.after("s", entries(0, 4, 300), 1000, 40);
    await nextTurn();
    ahead.after("s", [], 1000, 1000);
    await nextTurn();
    // Two budgets (2,000 bytes) do not fit under 1,500.
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    await nextTurn();
    expect(reads).toHaveLength(0);
    ahead.after("s", entries(0, 4, 300), 500, 1000);
    await nextTurn();
    expect(reads).toHaveLength(1);
    reads[0]?.settle(false);
    await ahead.settled();
    expect(ahead.bufferedBytes).toBe(0);
    closing.abort();
    ahead.after("s", entries(100, 4, 300), 500, 1000);
    await nextTurn();
    expect(reads).toHaveLength(1);
  });

  it("a read-ahead starts on the next turn, and not at all when the buffer was dropped before", async () => {
    const { store, reads } = recordingStore();
    const ahead = new ReadAhead(store, new AbortController().signal);
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    expect(reads).toHaveLength(0);
    ahead.clear();
    await ahead.settled();
    expect(reads).toHaveLength(0);
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    await nextTurn();
    expect(reads).toHaveLength(1);
  });

  it("a Fetch that needs the read-ahead before the next turn starts it itself (no event-loop turn needed)", async () => {
    const { store, reads } = recordingStore();
    const ahead = new ReadAhead(store, new AbortController().signal);
    ahead.after("s", entries(0, 4, 300), 1000, 1000);
    const pending = ahead.read("s", 40, 1000, 1000);
    for (let step = 0; step < 5; step += 1) await Promise.resolve();
    expect(reads.map((read) => read.offset)).toEqual([40]);
    reads[0]?.settle(true);
    expect(offsets(await pending)).toEqual([40, 50, 60]);
  });

  it("rejects a negative memory limit", () => {
    expect(() => new ReadAheadMemory(-1)).toThrow(RangeError);
  });
});
