// Reusable read buffers of the hot reads (lent-read-buffers.ts): which reads are lent, that a lent chunk is never
// reused while any view of it is alive, that it is reused once its views were collected, and the limit.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { LentReadBuffers, MIN_LENT_READ_BYTES } from "./lent-read-buffers.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** Collects garbage until `buffers` got `count` chunks back in all (bounded). */
async function untilReturned(buffers: LentReadBuffers, count: number): Promise<void> {
  for (let attempt = 0; attempt < 200 && buffers.stats.returned < count; attempt++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(buffers.stats.returned).toBeGreaterThanOrEqual(count);
}

/**
 * A part of a buffer taken from `buffers` (every byte set to `value`). Made here, not in the test: an async test's
 * suspended frame could keep the whole buffer alive in a register.
 */
function lentPart(buffers: LentReadBuffers, length: number, value: number): Uint8Array {
  return buffers
    .take(length)
    .fill(value)
    .subarray(10, length - 10_000);
}

describe("LentReadBuffers", () => {
  it("lends reads from 16 KiB to 8 MiB out of shared chunks and gives other lengths buffers of their own", () => {
    const buffers = new LentReadBuffers(64 * 1024 * 1024);
    const lent = buffers.take(100_000);
    expect(lent.byteLength).toBe(100_000);
    expect(lent.buffer).toBeInstanceOf(SharedArrayBuffer);
    // The chunk is the size class above the length: 128 KiB.
    expect(lent.buffer.byteLength).toBe(128 * 1024);
    expect(buffers.take(MIN_LENT_READ_BYTES).buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(buffers.take(8 * 1024 * 1024).buffer.byteLength).toBe(8 * 1024 * 1024);
    const small = buffers.take(MIN_LENT_READ_BYTES - 1);
    const large = buffers.take(8 * 1024 * 1024 + 1);
    expect(small.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(large.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect([small.byteLength, large.byteLength]).toEqual([MIN_LENT_READ_BYTES - 1, 8 * 1024 * 1024 + 1]);
    expect(buffers.stats).toMatchObject({ lent: 3, own: 2 });
    expect(buffers.chunkBytes).toBe(128 * 1024 + 64 * 1024 + 8 * 1024 * 1024);
  });

  it("keeps at most its limit of chunks: past it, and with limit 0, reads get buffers of their own", () => {
    const buffers = new LentReadBuffers(256 * 1024);
    const held = [buffers.take(100_000), buffers.take(100_000)];
    const third = buffers.take(100_000);
    expect(held.map((view) => view.buffer instanceof SharedArrayBuffer)).toEqual([true, true]);
    expect(third.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(buffers.chunkBytes).toBe(256 * 1024);
    const none = new LentReadBuffers(0);
    expect(none.take(100_000).buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(none.stats).toMatchObject({ lent: 0, own: 1 });
    expect(() => new LentReadBuffers(-1)).toThrow(/non-negative integer/);
    expect(() => new LentReadBuffers(1.5)).toThrow(/non-negative integer/);
  });

  it("never reuses a chunk while a view of it is alive; reuses it once every view was collected", async () => {
    // Room for one 128 KiB chunk.
    const buffers = new LentReadBuffers(128 * 1024);
    // Only a part of the lent buffer survives: it alone must keep the chunk lent.
    const holder: { held?: Uint8Array } = { held: lentPart(buffers, 100_000, 7) };
    for (let index = 0; index < 5; index++) {
      const other = buffers.take(100_000);
      expect(other.buffer).not.toBeInstanceOf(SharedArrayBuffer);
      other.fill(9);
    }
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(buffers.stats.returned).toBe(0);
    expect(holder.held?.every((byte) => byte === 7)).toBe(true);
    expect(buffers.take(100_000).buffer).not.toBeInstanceOf(SharedArrayBuffer);
    // Drop the last view: the chunk comes back and the next read is lent from it again.
    holder.held = undefined;
    await untilReturned(buffers, 1);
    const again = buffers.take(120_000);
    expect(again.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(buffers.chunkBytes).toBe(128 * 1024);
    expect(buffers.stats.lent).toBe(2);
  });

  it("lets its free chunks go once nothing was lent for an idle period, and keeps them while reads go on", async () => {
    const buffers = new LentReadBuffers(1024 * 1024, 200);
    const holder: { held?: Uint8Array } = { held: lentPart(buffers, 100_000, 1) };
    lentPart(buffers, 100_000, 2);
    await untilReturned(buffers, 1);
    expect(buffers.chunkBytes).toBe(256 * 1024);
    // Reads going on (each collected right away, so a chunk is free at every check): nothing is let go.
    for (let round = 0; round < 12; round++) {
      lentPart(buffers, 100_000, 3);
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(buffers.stats.released).toBe(0);
    expect(buffers.stats.returned).toBeGreaterThan(1);
    // Idle: the chunks of the reads above come back and go; the one still lent stays counted until it comes back,
    // then goes at a later check.
    await vi.waitFor(
      () => {
        collectGarbage();
        expect(buffers.stats.released).toBeGreaterThanOrEqual(1);
      },
      { timeout: 5_000, interval: 10 },
    );
    expect(holder.held?.every((byte) => byte === 1)).toBe(true);
    expect(buffers.chunkBytes).toBe(128 * 1024);
    holder.held = undefined;
    await vi.waitFor(
      () => {
        collectGarbage();
        expect(buffers.chunkBytes).toBe(0);
      },
      { timeout: 5_000, interval: 10 },
    );
    // A later read allocates a chunk again.
    expect(buffers.take(100_000).buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(buffers.chunkBytes).toBe(128 * 1024);
    buffers.close();
    expect(() => new LentReadBuffers(1024, -1)).toThrow(/idle period/);
  });

  it("after close lends nothing more, while buffers lent before stay readable", () => {
    const buffers = new LentReadBuffers(1024 * 1024);
    const lent = lentPart(buffers, 50_000, 3);
    buffers.close();
    buffers.close();
    expect(buffers.take(50_000).buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(lent.every((byte) => byte === 3)).toBe(true);
  });
});
