// Segment maps (segment-maps.ts and native/segment-map.cc): the addon is built here, views hold the file's bytes
// (bytes appended later included), ranges outside the file, the map or memory get no view, writes through a view
// never reach the file, and mapped buffers are recognisable.
import { closeSync, ftruncateSync, openSync, readFileSync, writeFileSync, appendFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SegmentMap, isMappedBuffer, segmentMapSupport } from "./segment-maps.js";

const sized = (length: number, seed: number): Uint8Array => Uint8Array.from({ length }, (_, index) => (index * 31 + seed) % 251);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A file holding `bytes`, open for reading; closed and removed after the test. */
async function openFile(bytes: Uint8Array): Promise<{ file: string; fd: number }> {
  const root = await mkdtemp(path.join(tmpdir(), "nereus-segment-maps-"));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const file = path.join(root, "1.seg");
  writeFileSync(file, bytes);
  const fd = openSync(file, "r");
  cleanups.push(() => closeSync(fd));
  return { file, fd };
}

function mapOf(fd: number, mapBytes: number): SegmentMap {
  const map = SegmentMap.open(fd, mapBytes);
  if (map === undefined) throw new Error("segment maps are unavailable");
  return map;
}

describe("segment maps", () => {
  it("are available on Linux: the package's install script built the native addon", () => {
    // CI runs on Linux with a C++ compiler: a missing addon there is a broken build, not a reason to fall back quietly.
    if (process.platform !== "linux") return;
    expect(segmentMapSupport()).toEqual({ available: true });
  });

  it("serve views of the file's bytes, including bytes appended after the map was made", async () => {
    const { file, fd } = await openFile(sized(10_000, 1));
    const map = mapOf(fd, 1 << 20);
    expect(map.mappedBytes).toBe(1 << 20);
    expect(map.view(0, 10_000)).toEqual(sized(10_000, 1));
    expect(map.view(9_990, 10)).toEqual(sized(10_000, 1).subarray(9_990));
    expect(map.view(10_000, 100)).toBeUndefined();
    appendFileSync(file, sized(100, 2));
    expect(map.view(10_000, 100)).toEqual(sized(100, 2));
  });

  it("give no view for a range outside the file, outside the map, empty or negative", async () => {
    const { fd } = await openFile(sized(8192, 3));
    const map = mapOf(fd, 4096);
    expect(map.view(0, 4096)).toEqual(sized(8192, 3).subarray(0, 4096));
    expect(map.view(4000, 200)).toBeUndefined();
    expect(map.view(0, 0)).toBeUndefined();
    expect(map.view(-1, 10)).toBeUndefined();
    const wide = mapOf(fd, 1 << 20);
    expect(wide.view(8000, 500)).toBeUndefined();
  });

  it("give no view for pages that are not in memory (a hole the page cache never held)", async () => {
    const { file, fd } = await openFile(sized(4096, 4));
    const writable = openSync(file, "r+");
    ftruncateSync(writable, 8 << 20);
    closeSync(writable);
    const map = mapOf(fd, 8 << 20);
    expect(map.view(0, 4096)).toEqual(sized(4096, 4));
    expect(map.view(4 << 20, 4096)).toBeUndefined();
  });

  it("keep writes through a view private: the file never changes", async () => {
    const { file, fd } = await openFile(sized(5000, 5));
    const view = mapOf(fd, 1 << 16).view(100, 10);
    if (view === undefined) throw new Error("expected a view");
    view.fill(0);
    expect(view).toEqual(new Uint8Array(10));
    expect(new Uint8Array(readFileSync(file))).toEqual(sized(5000, 5));
  });

  it("mark their buffers, so that a view is copied before it is posted to a worker", async () => {
    const { fd } = await openFile(sized(100, 6));
    const view = mapOf(fd, 4096).view(0, 100);
    expect(view).toBeDefined();
    expect(isMappedBuffer((view as Uint8Array).buffer)).toBe(true);
    expect(isMappedBuffer(new Uint8Array(100).buffer)).toBe(false);
  });

  it("refuse a map length that is not a positive integer", async () => {
    const { fd } = await openFile(sized(100, 7));
    expect(() => SegmentMap.open(fd, 0)).toThrow(RangeError);
    expect(() => SegmentMap.open(fd, 1.5)).toThrow(/positive integer/);
  });
});
