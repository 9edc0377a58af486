// Reads of the newest segments on the calling thread (hot-segment-reads.ts): the window, the fallback cases, cold
// segments, open files, a growing active segment; and the filesystem store using them (which reads go where, bytes,
// validation, unlinks).
import { appendFile, mkdtemp, readdir, readlink, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ErrorCode, NereusError } from "@nereus/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileSystemObjectStore, type SegmentLayoutOptions } from "../file-system-object-store.js";
import { HotSegmentReads, MAX_HOT_READ_BYTES, SLOW_READS_TO_COLD } from "./hot-segment-reads.js";

const sized = (length: number, seed: number): Uint8Array =>
  Uint8Array.from({ length }, (_, index) => (index * 31 + seed) % 251);

const roots: string[] = [];
async function newRoot(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "nereus-hot-reads-"));
  roots.push(root);
  return root;
}

const readers: HotSegmentReads[] = [];
const stores: FileSystemObjectStore[] = [];
afterEach(async () => {
  for (const reader of readers.splice(0)) reader.close();
  for (const store of stores.splice(0)) await store.close();
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** Segment files 1..count of 100 bytes each (segment n holds sized(100, n)) and a reader over them. */
async function segments(
  count: number,
  window: number,
  slowReadMs?: number,
): Promise<{ reader: HotSegmentReads; root: string }> {
  const root = await newRoot();
  for (let segment = 1; segment <= count; segment++)
    await writeFile(path.join(root, `${String(segment)}.seg`), sized(100, segment));
  const reader = new HotSegmentReads((segment) => path.join(root, `${String(segment)}.seg`), {
    window,
    ...(slowReadMs === undefined ? {} : { slowReadMs }),
  });
  readers.push(reader);
  return { reader, root };
}

describe("HotSegmentReads", () => {
  it("reads segments in the window (the active one and window - 1 before it) and leaves older ones to the workers", async () => {
    const { reader } = await segments(3, 2);
    expect(reader.read(3, 3, 10, 20)).toEqual(sized(100, 3).subarray(10, 30));
    expect(reader.read(2, 3, 0, 100)).toEqual(sized(100, 2));
    expect(reader.read(1, 3, 0, 100)).toBeUndefined();
    expect(reader.stats.reads).toBe(2);
    expect(reader.openFiles).toBe(2);
  });

  it("leaves ranges longer than MAX_HOT_READ_BYTES to the workers", async () => {
    const { reader, root } = await segments(1, 1);
    await writeFile(path.join(root, "1.seg"), new Uint8Array(MAX_HOT_READ_BYTES + 1));
    expect(reader.read(1, 1, 0, MAX_HOT_READ_BYTES + 1)).toBeUndefined();
    expect(reader.read(1, 1, 1, MAX_HOT_READ_BYTES)).toHaveLength(MAX_HOT_READ_BYTES);
    expect(reader.stats.reads).toBe(1);
    expect(reader.stats.failures).toBe(0);
  });

  it("returns the bytes up to the file's end when it is shorter, and nothing for a missing file (a failure)", async () => {
    const { reader, root } = await segments(1, 4);
    expect(reader.read(1, 1, 90, 20)).toEqual(sized(100, 1).subarray(90));
    expect(reader.read(2, 2, 0, 10)).toBeUndefined();
    expect(reader.stats.failures).toBe(1);
    expect(reader.openFiles).toBe(1);
    // Not marked cold: once the file exists, it is read here.
    await writeFile(path.join(root, "2.seg"), sized(100, 2));
    expect(reader.read(2, 2, 0, 10)).toEqual(sized(100, 2).subarray(0, 10));
  });

  it("marks a segment cold after SLOW_READS_TO_COLD reads in a row slower than the threshold: later reads go to the workers", async () => {
    // Every read is slower than 0 ms.
    const { reader } = await segments(3, 3, 0);
    for (let read = 0; read < SLOW_READS_TO_COLD; read++) expect(reader.read(3, 3, 0, 100)).toEqual(sized(100, 3));
    expect(reader.read(3, 3, 0, 100)).toBeUndefined();
    expect(reader.stats.coldSegments).toBe(1);
    expect(reader.openFiles).toBe(0);
    // Another segment is judged by its own reads.
    expect(reader.read(2, 3, 0, 100)).toEqual(sized(100, 2));
    expect(reader.stats.coldSegments).toBe(1);
  });

  it("keeps a segment hot while its reads are fast (no streak of slow reads starts)", async () => {
    const { reader } = await segments(1, 1, 50);
    // Reads of 100 cached bytes take far less than 50 ms.
    for (let read = 0; read < 10; read++) expect(reader.read(1, 1, 0, 100)).toEqual(sized(100, 1));
    expect(reader.stats.coldSegments).toBe(0);
    expect(reader.stats.reads).toBe(10);
  });

  it("closes the files of segments that leave the window, of forgotten segments, and all of them at close", async () => {
    const { reader } = await segments(4, 3);
    for (const segment of [2, 3, 4]) expect(reader.read(segment, 4, 0, 1)).toBeDefined();
    expect(reader.openFiles).toBe(3);
    reader.retire(5);
    expect(reader.openFiles).toBe(2);
    reader.forget(4);
    expect(reader.openFiles).toBe(1);
    reader.close();
    expect(reader.openFiles).toBe(0);
    expect(reader.read(4, 4, 0, 1)).toBeUndefined();
  });

  it("reads nothing with a window of 0, and refuses bad options", async () => {
    const { reader, root } = await segments(1, 0);
    expect(reader.read(1, 1, 0, 10)).toBeUndefined();
    expect(reader.stats.reads).toBe(0);
    const pathOf = (segment: number): string => path.join(root, `${String(segment)}.seg`);
    expect(() => new HotSegmentReads(pathOf, { window: -1 })).toThrow(RangeError);
    expect(() => new HotSegmentReads(pathOf, { window: 1.5 })).toThrow(RangeError);
    expect(() => new HotSegmentReads(pathOf, { window: 1, slowReadMs: Number.NaN })).toThrow(RangeError);
    expect(() => new HotSegmentReads(pathOf, { window: 1, bufferBytes: -1 })).toThrow(RangeError);
  });

  it("reads into reusable shared buffers (lent-read-buffers.ts), or into buffers of their own with bufferBytes 0", async () => {
    const root = await newRoot();
    const bytes = sized(300_000, 5);
    await writeFile(path.join(root, "1.seg"), bytes);
    const pathOf = (segment: number): string => path.join(root, `${String(segment)}.seg`);
    const pooled = new HotSegmentReads(pathOf, { window: 1 });
    const unpooled = new HotSegmentReads(pathOf, { window: 1, bufferBytes: 0 });
    readers.push(pooled, unpooled);
    const lent = pooled.read(1, 1, 1000, 200_000);
    expect(lent?.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(lent).toEqual(bytes.subarray(1000, 201_000));
    // A short read (the file ends first) is cut to what the file holds.
    expect(pooled.read(1, 1, 250_000, 100_000)).toEqual(bytes.subarray(250_000));
    expect(pooled.buffers).toMatchObject({ lent: 2, own: 0 });
    const own = unpooled.read(1, 1, 1000, 200_000);
    expect(own?.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(own).toEqual(bytes.subarray(1000, 201_000));
    expect(unpooled.buffers).toMatchObject({ lent: 0, own: 1 });
  });

  it("reads bytes appended to a segment after its file was opened (the active segment grows)", async () => {
    const root = await newRoot();
    const file = path.join(root, "1.seg");
    await writeFile(file, sized(1000, 6));
    const reader = new HotSegmentReads(() => file, { window: 1 });
    readers.push(reader);
    expect(reader.read(1, 1, 900, 200)).toEqual(sized(1000, 6).subarray(900));
    await appendFile(file, sized(100, 7));
    expect(reader.read(1, 1, 1000, 100)).toEqual(sized(100, 7));
    expect(reader.openFiles).toBe(1);
    expect(reader.stats).toMatchObject({ reads: 2, failures: 0 });
    expect(reader.timings().count).toBe(2);
  });
});

describe("FileSystemObjectStore hot segment reads", () => {
  function openStore(root: string, segments: SegmentLayoutOptions): FileSystemObjectStore {
    const store = new FileSystemObjectStore({ root, segments });
    stores.push(store);
    return store;
  }

  /** 16 objects of 900 bytes in 4 KiB segments (four per segment): three sealed segments and the active one. */
  async function filled(store: FileSystemObjectStore): Promise<string[]> {
    const keys = Array.from({ length: 16 }, (_, index) => `hot/${String(index).padStart(2, "0")}`);
    for (const [index, key] of keys.entries()) await store.putIfAbsent(key, sized(900, index));
    return keys;
  }

  it("serves reads of the newest segments on the calling thread and older ones through the workers, byte for byte", async () => {
    const store = openStore(await newRoot(), { segmentBytes: 4096, compactBelow: 0, hotReadSegments: 2 });
    const keys = await filled(store);
    const reads = (): number => store.hotReadStats?.reads ?? 0;
    // The newest object sits in the active segment, the oldest in the first segment, outside the window.
    const newest = keys.length - 1;
    expect(await store.get(keys[newest] ?? "", { offset: 100, length: 50 })).toEqual(
      sized(900, newest).subarray(100, 150),
    );
    expect(reads()).toBe(1);
    expect(await store.get(keys[0] ?? "")).toEqual(sized(900, 0));
    expect(reads()).toBe(1);
    for (const [index, key] of keys.entries()) expect(await store.get(key)).toEqual(sized(900, index));
    expect(reads()).toBeGreaterThan(1);
    expect(reads()).toBeLessThan(keys.length + 1);
    // Each is timed as the store's hotRead step.
    expect(store.ioTimings().hotRead.count).toBe(reads());
  });

  it("reads everything through the workers with hotReadSegments 0, and validates the options before any I/O", async () => {
    const root = await newRoot();
    const store = openStore(root, { segmentBytes: 4096, compactBelow: 0, hotReadSegments: 0 });
    const keys = await filled(store);
    for (const [index, key] of keys.entries()) expect(await store.get(key)).toEqual(sized(900, index));
    expect(store.hotReadStats?.reads).toBe(0);
    const bad: ReadonlyArray<[option: "hotReadSegments" | "hotReadBufferBytes", value: number]> = [
      ["hotReadSegments", -1],
      ["hotReadSegments", 2.5],
      ["hotReadBufferBytes", -1],
      ["hotReadBufferBytes", 0.5],
    ];
    for (const [option, value] of bad) {
      let error: unknown;
      try {
        new FileSystemObjectStore({ root: path.join(root, "never"), segments: { [option]: value } });
      } catch (caught) {
        error = caught;
      }
      expect(NereusError.is(error) ? error.code : error).toBe(ErrorCode.INVALID_ARGUMENT);
      expect(String((error as Error).message)).toContain(`segments.${option}`);
    }
    await expect(readdir(path.join(root, "never"))).rejects.toThrow();
  });

  it("reads into the reused buffers its options size, and counts them", async () => {
    const pooled = openStore(await newRoot(), { segmentBytes: 1024 * 1024, compactBelow: 0 });
    const unpooled = openStore(await newRoot(), { segmentBytes: 1024 * 1024, compactBelow: 0, hotReadBufferBytes: 0 });
    const body = sized(100_000, 9);
    for (const store of [pooled, unpooled]) {
      await store.putIfAbsent("big", body);
      expect(await store.get("big")).toEqual(body);
      expect(store.readBufferStats.workers).toEqual({ lent: 0, own: 0, returned: 0 });
    }
    expect(pooled.readBufferStats.eventLoop).toMatchObject({ lent: 1, own: 0, chunkBytes: 128 * 1024 });
    expect(unpooled.readBufferStats.eventLoop).toMatchObject({ lent: 0, own: 1, chunkBytes: 0 });
  });

  it("writes a body read from a reused buffer whole when it is put again", async () => {
    const store = openStore(await newRoot(), { segmentBytes: 1024 * 1024, compactBelow: 0 });
    const body = sized(100_000, 10);
    await store.putIfAbsent("big", body);
    const read = await store.get("big");
    expect(read.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(store.readBufferStats.eventLoop).toMatchObject({ lent: 1 });
    await store.putIfAbsent("again", read.subarray(10, 90_010));
    expect(Buffer.compare(await store.get("again"), body.subarray(10, 90_010))).toBe(0);
  });

  it("keeps no file of an unlinked segment open", async () => {
    const root = await newRoot();
    const store = openStore(root, { segmentBytes: 4096, compactBelow: 0, hotReadSegments: 16 });
    const keys = await filled(store);
    // Read every segment here (all are in the window), then delete the objects of the sealed ones.
    for (const key of keys) await store.get(key);
    await store.deleteMany(keys.slice(0, 12));
    await vi.waitFor(() => expect(store.segmentStats?.segmentsRemoved).toBe(3), { timeout: 10_000, interval: 20 });
    const directory = path.join(root, "segments");
    const open: string[] = [];
    for (const fd of await readdir("/proc/self/fd")) {
      const target = await readlink(path.join("/proc/self/fd", fd)).catch(() => "");
      if (target.startsWith(directory)) open.push(target);
    }
    expect(open.filter((target) => target.endsWith("(deleted)"))).toEqual([]);
    expect(open.length).toBeGreaterThan(0);
  });
});
