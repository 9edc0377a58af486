import { describe, expect, it } from "vitest";
import { SharedBodyPool } from "./shared-body-pool.js";

describe("SharedBodyPool", () => {
  it("hands out bodies behind the header in size classes and reuses a buffer once released and unused", () => {
    const dropped: number[] = [];
    const pool = new SharedBodyPool({
      headerBytes: 8,
      minClassBytes: 1024,
      maxClassBytes: 8192,
      onDrop: (id) => dropped.push(id),
    });
    const body = pool.allocate(1500);
    expect(body.byteOffset).toBe(8);
    expect(body.length).toBe(1500);
    expect(body.buffer.byteLength).toBe(2048);
    const memory = pool.lookup(body);
    expect(memory?.memory).toBe(body.buffer);
    pool.beginUse(body.buffer as SharedArrayBuffer);
    pool.release(body);
    // Still in use by a put: not reused yet.
    expect(pool.allocate(1500).buffer).not.toBe(body.buffer);
    pool.endUse(body.buffer as SharedArrayBuffer);
    expect(pool.freeBytes).toBe(2048);
    const again = pool.allocate(2000);
    expect(again.buffer).toBe(body.buffer);
    expect(pool.lookup(again)?.id).toBe(memory?.id);
    expect(dropped).toEqual([]);
  });

  it("does not reuse what it did not hand out, nor a released body it no longer holds", () => {
    const pool = new SharedBodyPool({ headerBytes: 8 });
    expect(pool.lookup(new Uint8Array(10))).toBeUndefined();
    expect(pool.lookup(new Uint8Array(new SharedArrayBuffer(20), 8, 4))).toBeUndefined();
    const body = pool.allocate(10);
    pool.release(body);
    expect(pool.lookup(body)).toBeUndefined();
    pool.release(new Uint8Array(3));
  });

  it("drops bodies above the biggest class and free buffers beyond the cap", () => {
    const dropped: number[] = [];
    const pool = new SharedBodyPool({
      headerBytes: 8,
      minClassBytes: 1024,
      maxClassBytes: 4096,
      maxFreeBytes: 4096,
      onDrop: (id) => dropped.push(id),
    });
    const huge = pool.allocate(10_000);
    expect(huge.buffer.byteLength).toBe(10_008);
    const hugeId = pool.lookup(huge)?.id;
    pool.release(huge);
    expect(dropped).toEqual([hugeId]);
    const a = pool.allocate(4000);
    const b = pool.allocate(4000);
    const bId = pool.lookup(b)?.id;
    pool.release(a);
    pool.release(b);
    expect(pool.freeBytes).toBe(4096);
    expect(dropped).toEqual([hugeId, bId]);
  });
});
