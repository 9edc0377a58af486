// Reads of recently written segments on the calling thread. The segments written last are almost surely in the page
// cache, so a read of them is a synchronous positioned read (pread): a memory copy of a few microseconds per 100 KiB.
// A read job on a publish worker costs two thread hand-offs instead (a message to the worker, and its answer back
// through the event loop), which on a small machine shared with clients means waiting for a CPU twice. Sequential
// consumers that catch up read exactly these segments. Safeguards against blocking the event loop: only the active
// segment and the `window - 1` before it are read here, only ranges up to MAX_HOT_READ_BYTES (a larger copy takes a
// millisecond or more even from the cache), and SLOW_READS_TO_COLD reads of a segment in a row slower than
// `slowReadMs` (its bytes were not cached) mark it cold for good — its later reads go to the workers, as every read
// of an older segment does. One slow read alone proves nothing: on a busy machine the thread may just have lost its
// CPU during the read. A read that fails here for any reason is not an error: the caller reads through the workers,
// which report it. Reads land in reused buffers (lent-read-buffers.ts). Files stay open while their segment is in the
// window; an unlinked segment's open file still reads the same bytes (segments are append-only, and a record's bytes
// never change once indexed), so a cached descriptor is never stale.
import { closeSync, openSync, readSync } from "node:fs";
import { type LatencySnapshot, SharedLatencyHistogram } from "@nereus/core";
import { DEFAULT_LENT_READ_BUFFER_BYTES, LentReadBuffers, type LentReadBuffersStats } from "./lent-read-buffers.js";

/** Options of {@link HotSegmentReads}. */
export interface HotSegmentReadsOptions {
  /** How many of the newest segments (the active one included) are read on this thread; 0 reads none here. */
  readonly window: number;
  /** Reads slower than this (ms), SLOW_READS_TO_COLD in a row, mark their segment cold (default {@link DEFAULT_SLOW_HOT_READ_MS}). */
  readonly slowReadMs?: number;
  /** Bytes of reusable read buffers kept (default {@link DEFAULT_LENT_READ_BUFFER_BYTES}; 0: a new buffer per read). See lent-read-buffers.ts. */
  readonly bufferBytes?: number;
}

/** Default window: 16 segments (1 GiB of the default 64 MiB segments). */
export const DEFAULT_HOT_READ_SEGMENTS = 16;
/** A page-cache read of the largest slices takes well under a millisecond; one from the disk takes longer. */
const DEFAULT_SLOW_HOT_READ_MS = 2;
/** Consecutive slow reads that mark a segment cold (a sequential reader of uncached bytes gets there at once). */
export const SLOW_READS_TO_COLD = 3;
/** Longer ranges are read on the workers (the read-ahead's ranges are one WAL object each, ~100-200 KiB). */
export const MAX_HOT_READ_BYTES = 4 * 1024 * 1024;

/** Counters for tests, logs and metrics. */
export class HotSegmentReadsStats {
  /** Reads served on the calling thread. */
  reads = 0;
  /** Segments marked cold by SLOW_READS_TO_COLD slow reads in a row. */
  coldSegments = 0;
  /** Reads that failed here and went to the workers. */
  failures = 0;
}

/** See the module comment. Not thread-safe: one instance per segment log, used from its thread only. */
export class HotSegmentReads {
  readonly stats = new HotSegmentReadsStats();
  readonly #pathOf: (segment: number) => string;
  readonly #window: number;
  readonly #slowReadNanos: bigint;
  /** Open file descriptor per segment. */
  readonly #files = new Map<number, number>();
  readonly #cold = new Set<number>();
  /** Slow reads in a row, per segment (a fast read clears its count). */
  readonly #slowStreaks = new Map<number, number>();
  readonly #timings = SharedLatencyHistogram.create();
  readonly #buffers: LentReadBuffers;
  #closed = false;

  constructor(pathOf: (segment: number) => string, options: HotSegmentReadsOptions) {
    if (!Number.isSafeInteger(options.window) || options.window < 0)
      throw new RangeError(`hot read window must be a non-negative integer, got ${String(options.window)}`);
    const slowReadMs = options.slowReadMs ?? DEFAULT_SLOW_HOT_READ_MS;
    if (!(slowReadMs >= 0) || !Number.isFinite(slowReadMs))
      throw new RangeError(`slow hot read threshold must be a non-negative number of ms, got ${String(slowReadMs)}`);
    this.#pathOf = pathOf;
    this.#window = options.window;
    this.#slowReadNanos = BigInt(Math.round(slowReadMs * 1e6));
    this.#buffers = new LentReadBuffers(options.bufferBytes ?? DEFAULT_LENT_READ_BUFFER_BYTES);
  }

  /**
   * `length` bytes at `position` of segment `segment` (fewer when the file ends first), read on this thread; undefined
   * when this range is not read here (`active` is the active segment's number; ranges above MAX_HOT_READ_BYTES are
   * not), or the read failed. The bytes may be lent from a reused buffer (lent-read-buffers.ts): never modify them.
   */
  read(segment: number, active: number, position: number, length: number): Uint8Array | undefined {
    if (this.#closed || length > MAX_HOT_READ_BYTES || segment <= active - this.#window || this.#cold.has(segment))
      return undefined;
    const started = process.hrtime.bigint();
    try {
      let file = this.#files.get(segment);
      if (file === undefined) {
        file = openSync(this.#pathOf(segment), "r");
        this.#files.set(segment, file);
      }
      // Not zero-filled first: the read overwrites it; a short read zeroes the tail nobody is given.
      const bytes = this.#buffers.take(length);
      let filled = 0;
      while (filled < length) {
        const count = readSync(file, bytes, filled, length - filled, position + filled);
        if (count === 0) break;
        filled += count;
      }
      this.stats.reads += 1;
      const took = process.hrtime.bigint() - started;
      this.#timings.observeNanos(took);
      if (took <= this.#slowReadNanos) {
        this.#slowStreaks.delete(segment);
      } else {
        const streak = (this.#slowStreaks.get(segment) ?? 0) + 1;
        this.#slowStreaks.set(segment, streak);
        if (streak >= SLOW_READS_TO_COLD) {
          this.#cold.add(segment);
          this.#slowStreaks.delete(segment);
          this.stats.coldSegments += 1;
          this.forget(segment);
        }
      }
      if (filled === length) return bytes;
      bytes.fill(0, filled);
      return bytes.subarray(0, filled);
    } catch {
      this.stats.failures += 1;
      this.forget(segment);
      return undefined;
    }
  }

  /** Closes the file of `segment` (it was removed, or left the window). */
  forget(segment: number): void {
    const file = this.#files.get(segment);
    if (file === undefined) return;
    this.#files.delete(segment);
    try {
      closeSync(file);
    } catch {
      // Closing a read-only descriptor loses nothing.
    }
  }

  /** Closes the files of segments that left the window now that `active` is the active segment. */
  retire(active: number): void {
    for (const segment of [...this.#files.keys()]) if (segment <= active - this.#window) this.forget(segment);
    for (const segment of [...this.#cold]) if (segment <= active - this.#window) this.#cold.delete(segment);
    for (const segment of [...this.#slowStreaks.keys()])
      if (segment <= active - this.#window) this.#slowStreaks.delete(segment);
  }

  /** Closes every file; later reads return undefined. Idempotent. */
  close(): void {
    this.#closed = true;
    this.#buffers.close();
    for (const segment of [...this.#files.keys()]) this.forget(segment);
  }

  /** Durations of the reads served here (open included when the file was not open yet). */
  timings(): LatencySnapshot {
    return this.#timings.snapshot();
  }

  /** Counters of the read buffers: lent from the pool, or of their own. */
  get buffers(): LentReadBuffersStats {
    return this.#buffers.stats;
  }

  /** Open files (tests). */
  get openFiles(): number {
    return this.#files.size;
  }
}
