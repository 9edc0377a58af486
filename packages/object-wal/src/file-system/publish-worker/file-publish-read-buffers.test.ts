// Read buffers of the publish pool: reads are answered in shared chunks the workers lend and get back once the
// main thread's last view of a chunk was garbage-collected; lent bytes never change while anything references them.
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { FilePublishPool } from "./file-publish-worker.js";
import type { ReadOutcome } from "./publish-jobs.js";
import { FileSystemObjectStore } from "../file-system-object-store.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const roots: string[] = [];
const pools: FilePublishPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function setup(options: { readBufferBytes?: number; size?: number } = {}) {
  const root = await mkdtemp(path.join(tmpdir(), "nereus-read-buffers-"));
  roots.push(root);
  const pool = new FilePublishPool(options.size ?? 1, { readBufferBytes: options.readBufferBytes });
  pools.push(pool);
  /** Writes a file of `length` random bytes (no header) and returns them. */
  const file = async (name: string, length: number): Promise<{ path: string; bytes: Uint8Array }> => {
    const bytes = new Uint8Array(randomBytes(length));
    const filePath = path.join(root, name);
    await writeFile(filePath, bytes);
    return { path: filePath, bytes };
  };
  const read = async (filePath: string, length?: number): Promise<Uint8Array> => {
    const outcome: ReadOutcome = await pool.read({ path: filePath, headerBytes: 0, offset: 0, length });
    if (outcome.kind !== "read") throw new Error(`read failed: ${outcome.error.code}`);
    return outcome.bytes;
  };
  return { root, pool, file, read };
}

/** Collects garbage until the pool has given back `count` chunks in all (bounded). */
async function untilReleased(pool: FilePublishPool, count: number): Promise<void> {
  for (let attempt = 0; attempt < 200 && pool.releasedChunks < count; attempt++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(pool.releasedChunks).toBeGreaterThanOrEqual(count);
}

describe("FilePublishPool read buffers", () => {
  it("answers a read in a lent shared chunk with the file's bytes", async () => {
    const { pool, file, read } = await setup();
    const { path: filePath, bytes } = await file("a", 100_000);
    const got = await read(filePath);
    expect(got.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.from(got).equals(Buffer.from(bytes))).toBe(true);
    expect(pool.lentReads).toBe(1);
    expect(pool.ownBufferReads).toBe(0);
  });

  it("never reuses a chunk while a view of it is alive; reuses it once the views were collected", async () => {
    // One 128 KiB chunk in all: a second read while the first is held gets a buffer of its own.
    const { pool, file, read } = await setup({ readBufferBytes: 128 * 1024 });
    const first = await file("first", 100_000);
    const second = await file("second", 100_000);
    const holder: { held?: Uint8Array } = { held: (await read(first.path)).subarray(10, 90_000) };
    const held = (): Uint8Array => holder.held ?? new Uint8Array(0);
    const other = await read(second.path);
    expect(other.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.from(other).equals(Buffer.from(second.bytes))).toBe(true);
    // More reads while `held` lives: none may land in its chunk.
    for (let index = 0; index < 5; index++) await read(second.path);
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Buffer.from(held()).equals(Buffer.from(first.bytes.subarray(10, 90_000)))).toBe(true);
    expect(pool.lentReads).toBe(1);
    // Drop every view of the first read: its chunk goes back and the next read is lent again.
    expect(held().length).toBe(89_990);
    delete holder.held;
    await untilReleased(pool, 1);
    const again = await read(second.path);
    expect(again.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.from(again).equals(Buffer.from(second.bytes))).toBe(true);
    expect(pool.lentReads).toBe(2);
  });

  it("keeps bytes of reads that are still referenced intact across many reads and collections", async () => {
    const { pool, file, read } = await setup({ readBufferBytes: 1024 * 1024 });
    const files = await Promise.all(
      Array.from({ length: 8 }, (_, index) => file(`f${String(index)}`, 40_000 + index * 7_000)),
    );
    const kept: Array<{ bytes: Uint8Array; expected: Uint8Array }> = [];
    for (let round = 0; round < 60; round++) {
      const source = files[round % files.length];
      if (source === undefined) throw new Error("no file");
      const bytes = await read(source.path);
      // Keep every fourth read; the others become garbage and their chunks return to the pool.
      if (round % 4 === 0) kept.push({ bytes, expected: source.bytes });
      if (round % 10 === 9) collectGarbage();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await untilReleased(pool, 1);
    for (const { bytes, expected } of kept) expect(Buffer.from(bytes).equals(Buffer.from(expected))).toBe(true);
    expect(pool.lentReads).toBeGreaterThan(15);
  });

  it("gives short reads, reads above the largest chunk and every read with readBufferBytes 0 buffers of their own", async () => {
    const { pool, file, read } = await setup();
    const small = await file("small", 1_000);
    const large = await file("large", 9 * 1024 * 1024);
    expect((await read(small.path)).buffer).not.toBeInstanceOf(SharedArrayBuffer);
    const largeBytes = await read(large.path);
    expect(largeBytes.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.from(largeBytes).equals(Buffer.from(large.bytes))).toBe(true);
    expect(pool.lentReads).toBe(0);
    const off = await setup({ readBufferBytes: 0 });
    const medium = await off.file("medium", 200_000);
    expect((await off.read(medium.path)).buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(off.pool.lentReads).toBe(0);
    expect(off.pool.ownBufferReads).toBe(1);
  });

  it("a short file answers with the bytes it has, in a lent chunk too", async () => {
    const { file, read } = await setup();
    const { path: filePath, bytes } = await file("short", 50_000);
    const got = await read(filePath, 80_000);
    expect(got.length).toBe(50_000);
    expect(Buffer.from(got).equals(Buffer.from(bytes))).toBe(true);
  });

  it("writes what a shared-memory body held when the job was handed over, not what it holds later", async () => {
    const { root, pool } = await setup();
    await mkdir(path.join(root, "tmp"));
    const shared = new Uint8Array(new SharedArrayBuffer(64 * 1024)).fill(7);
    const body = shared.subarray(0, 60_000);
    const published = pool.publish({
      temporary: path.join(root, "tmp", "x.tmp"),
      target: path.join(root, "objects", "x.obj"),
      header: new Uint8Array([1]),
      body,
      fsync: false,
    });
    shared.fill(9);
    expect(await published).toEqual({ kind: "published", created: true });
    const written = await readFile(path.join(root, "objects", "x.obj"));
    expect(written.length).toBe(60_001);
    expect(written.subarray(1).every((value) => value === 7)).toBe(true);
    // A segment record's body likewise.
    const segment = path.join(root, "segment");
    const segmentBody = shared.subarray(0, 30_000);
    shared.fill(5);
    const writing = pool.writeSegment({
      path: segment,
      create: true,
      position: 0,
      records: [{ head: new Uint8Array([2]), body: segmentBody }],
      sync: false,
      syncDirectory: false,
      close: true,
    });
    shared.fill(6);
    expect(await writing).toEqual({ kind: "written", skipped: [] });
    const segmentBytes = await readFile(segment);
    expect(segmentBytes.length).toBe(30_001);
    expect(segmentBytes.subarray(1).every((value) => value === 5)).toBe(true);
  });

  it("rejects a bad read buffer size: the pool with a RangeError, the store with INVALID_ARGUMENT", async () => {
    expect(() => new FilePublishPool(1, { readBufferBytes: -1 })).toThrow(RangeError);
    expect(() => new FilePublishPool(1, { readBufferBytes: 1.5 })).toThrow(RangeError);
    expect(
      () => new FileSystemObjectStore({ root: path.join(tmpdir(), "unused"), readBufferBytes: Number.NaN }),
    ).toThrow(/readBufferBytes must be a non-negative integer/);
  });
});
