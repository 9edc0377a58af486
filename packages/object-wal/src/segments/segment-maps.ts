// Memory maps of segment files for the reads on the event loop (hot-segment-reads.ts). A read served from a map is
// a view of the page cache itself: one mincore check instead of a pread, no copy, no buffer to allocate or collect.
// The maps come from a small native addon (native/segment-map.cc, built by the package's install script); without
// it, or with maps turned off, every read takes the pread path as before.
//
// Safety (a mapped page that lies wholly beyond the end of its file raises SIGBUS when touched):
// - a view is handed out only for a range that ends within the file's size as fstat reported it, and only when
//   every page of the range is resident (mincore), which a page beyond the end never is;
// - segment files only grow while the store is open (recovery truncates torn tails before any read), so a range
//   that was inside the file stays inside it;
// - the mapping is private and writable: a stray write through a view changes a private copy of its page, never
//   the file, and never faults.
// Memory: a map is a SharedArrayBuffer, which V8 does not count as external memory (an ArrayBuffer over a whole
// segment would start a full garbage collection at the first read of every segment). It is unmapped once nothing
// references it, whatever became of the segment (an unlinked file keeps its bytes while mapped). Like any shared
// memory, views are copied before a publish worker gets them (file-publish-worker.ts).
import { fstatSync } from "node:fs";
import { loadPackageAddon } from "@nereus/core";

/** The native addon's functions (native/segment-map.cc). */
interface SegmentMapAddon {
  map(fd: number, length: number): SharedArrayBuffer;
  resident(buffer: SharedArrayBuffer, offset: number, length: number): boolean;
}

/** Whether maps can be used in this process, and why not. */
export type SegmentMapSupport = { readonly available: true } | { readonly available: false; readonly reason: string };

let loaded: { readonly addon?: SegmentMapAddon; readonly support: SegmentMapSupport } | undefined;
/** Every buffer this module mapped (weakly: a collected one is unmapped). */
const mappedBuffers = new WeakSet<ArrayBufferLike>();

function isSegmentMapAddon(exports: unknown): exports is SegmentMapAddon {
  if (typeof exports !== "object" || exports === null) return false;
  const { map, resident } = exports as { map?: unknown; resident?: unknown };
  return typeof map === "function" && typeof resident === "function";
}

function load(): { readonly addon?: SegmentMapAddon; readonly support: SegmentMapSupport } {
  if (loaded !== undefined) return loaded;
  const result = loadPackageAddon("@nereus/object-wal", import.meta.url, "segment_map", isSegmentMapAddon);
  loaded = result.addon !== undefined ? { addon: result.addon, support: { available: true } } : { support: { available: false, reason: result.reason } };
  return loaded;
}

/** Whether segment maps work in this process (the native addon was built and loads). */
export function segmentMapSupport(): SegmentMapSupport {
  return load().support;
}

/** True when `buffer` is a segment mapping (tests, assertions). */
export function isMappedBuffer(buffer: ArrayBufferLike): boolean {
  return mappedBuffers.has(buffer);
}

/**
 * One segment file mapped from its start over `mapBytes` (at least the most the file can grow to). Used from one
 * thread only. The descriptor stays owned by the caller and must stay open while this object is used.
 */
export class SegmentMap {
  readonly #addon: SegmentMapAddon;
  readonly #fd: number;
  readonly #buffer: SharedArrayBuffer;
  /** The file's size when last looked at: ranges ending within it are inside the file for good. */
  #knownSize: number;

  private constructor(addon: SegmentMapAddon, fd: number, buffer: SharedArrayBuffer, size: number) {
    this.#addon = addon;
    this.#fd = fd;
    this.#buffer = buffer;
    this.#knownSize = size;
  }

  /** Maps the open file `fd`; undefined when maps are unavailable. Throws when mmap fails. */
  static open(fd: number, mapBytes: number): SegmentMap | undefined {
    if (!Number.isSafeInteger(mapBytes) || mapBytes < 1) throw new RangeError(`segment map length must be a positive integer, got ${String(mapBytes)}`);
    const { addon } = load();
    if (addon === undefined) return undefined;
    const buffer = addon.map(fd, mapBytes);
    mappedBuffers.add(buffer);
    return new SegmentMap(addon, fd, buffer, fstatSync(fd).size);
  }

  /** Bytes mapped (not the file's size). */
  get mappedBytes(): number {
    return this.#buffer.byteLength;
  }

  /**
   * A read-only-by-contract view of `length` bytes at `position`, or undefined when that range is not entirely in
   * the file and resident in memory (the caller then reads it with pread, which may block on the disk).
   */
  view(position: number, length: number): Uint8Array | undefined {
    const end = position + length;
    if (length < 1 || position < 0 || end > this.#buffer.byteLength) return undefined;
    if (end > this.#knownSize) {
      this.#knownSize = fstatSync(this.#fd).size;
      if (end > this.#knownSize) return undefined;
    }
    if (!this.#addon.resident(this.#buffer, position, length)) return undefined;
    return new Uint8Array(this.#buffer, position, length);
  }
}
