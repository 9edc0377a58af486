import { describe, expect, it } from "vitest";
import { ReadChunks } from "./read-chunks.js";

describe("ReadChunks", () => {
  it("hands out power-of-two chunks up to the limit and reuses only released ones", () => {
    const chunks = new ReadChunks(256 * 1024);
    const first = chunks.take(100 * 1024);
    expect(first).toBe(0);
    expect(chunks.buffer(0).byteLength).toBe(128 * 1024);
    const second = chunks.take(20 * 1024);
    expect(chunks.buffer(second as number).byteLength).toBe(64 * 1024);
    expect(chunks.take(100 * 1024)).toBeUndefined();
    chunks.release(0);
    expect(chunks.take(70 * 1024)).toBe(0);
  });

  it("gives no chunk to reads below 16 KiB or above 8 MiB", () => {
    const chunks = new ReadChunks(64 * 1024 * 1024);
    expect(chunks.take(16 * 1024 - 1)).toBeUndefined();
    expect(chunks.take(8 * 1024 * 1024 + 1)).toBeUndefined();
    expect(chunks.take(8 * 1024 * 1024)).toBe(0);
  });
});
