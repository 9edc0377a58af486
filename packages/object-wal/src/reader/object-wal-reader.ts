// The Object WAL reader (WalReader for OBJECT_SLICE targets): ranged GETs of slices, each decoded by the strict NRS1
// slice decoder, which verifies its CRC32C against the target's checksum and the stored one, its structure and its
// entry count. Serves WAL slices (MULTI_STREAM_WAL_OBJECT) and per-stream generation objects
// (STREAM_GENERATION_OBJECT), which share the format. Corruption fails with OBJECT_CHECKSUM_MISMATCH (or
// DECODE_ERROR for a well-formed slice that disagrees with its target), never with wrong data.
// Two things make sequential reads cheap: `accelerations.readEntriesMany` fetches slices of one object that lie next
// to each other (up to `coalesceGapBytes` apart) with one GET and still verifies every slice on its own; and verified
// slices are kept in a byte-bounded LRU (objects are immutable, so a slice named by key, offset, length and checksum
// never changes), so a slice read in parts — a large generation slice, or the slice a budget-limited read stopped
// in — is downloaded and hashed once. Concurrent reads of one slice share one download. A failed slice is never cached.
// Buffers: returned payloads are read-only views shared with the cache and with other callers; copy to modify.
import {
  ErrorCode,
  NereusError,
  WAL_SPI_VERSION,
  type ObjectSliceTarget,
  type ObjectStore,
  type ReadTarget,
  type ReadTargetType,
  type StoredEntry,
  type WalIoOptions,
  type WalReader,
  type WalReaderAccelerations,
} from "@nereus/core";
import { decodeSliceBytes } from "../format/decode-slice.js";
import { VerifiedSliceCache } from "./verified-slice-cache.js";

/** Object types whose slices are NRS1 slices. */
const NRS1_OBJECT_TYPES: ReadonlySet<string> = new Set(["MULTI_STREAM_WAL_OBJECT", "STREAM_GENERATION_OBJECT"]);

const DEFAULT_SLICE_CACHE_BYTES = 16 * 1024 * 1024;
const DEFAULT_COALESCE_GAP_BYTES = 64 * 1024;
const DEFAULT_MAX_COALESCED_BYTES = 16 * 1024 * 1024;

export interface ObjectWalReaderOptions {
  readonly objectStore: ObjectStore;
  /**
   * Bytes of verified slices kept for later reads (default 16 MiB, two of the largest generation slices the
   * materialization plans by default; 0 disables the cache). Cached slices keep their read buffers alive: with the
   * filesystem store, a larger cache leaves fewer of its reusable read buffers free.
   */
  readonly cacheBytes?: number;
  /** Largest gap between two requested slices of one object that one GET still spans (default 64 KiB). */
  readonly coalesceGapBytes?: number;
  /** Largest GET that spans several slices (default 16 MiB; a single larger slice is still read whole). */
  readonly maxCoalescedBytes?: number;
}

/** Counters of one reader. */
export class ObjectWalReaderStats {
  /** Ranged GETs issued. */
  reads = 0;
  /** Bytes downloaded. */
  bytes = 0;
  /** Slices served from the verified-slice cache. */
  cacheHits = 0;
  /** Slices that had to be downloaded. */
  cacheMisses = 0;
  /** Slices that shared a GET with an earlier slice of the same request. */
  coalescedSlices = 0;
  /** Slice bytes callers asked for (cache hits included): the read load this reader serves. */
  requestedBytes = 0;
}

/** One slice to download, with the callbacks of everyone waiting for it. */
interface PendingSlice {
  readonly key: string;
  readonly target: ObjectSliceTarget;
  resolve(entries: readonly StoredEntry[]): void;
  reject(error: unknown): void;
}

/** Reads NRS1 slices named by OBJECT_SLICE targets. */
export class ObjectWalReader implements WalReader {
  readonly spiVersion = WAL_SPI_VERSION;
  readonly targetTypes: readonly ReadTargetType[] = ["OBJECT_SLICE"];
  readonly stats = new ObjectWalReaderStats();
  /** `readEntriesMany`: slices of one object that lie close together are fetched by one GET. */
  readonly accelerations: Required<WalReaderAccelerations> = {
    readEntriesMany: (targets, options) => this.#readEntriesMany(targets, options),
  };
  readonly #store: ObjectStore;
  readonly #cache: VerifiedSliceCache;
  readonly #inFlight = new Map<string, Promise<readonly StoredEntry[]>>();
  readonly #coalesceGapBytes: number;
  readonly #maxCoalescedBytes: number;

  constructor(options: ObjectWalReaderOptions) {
    this.#store = options.objectStore;
    this.#cache = new VerifiedSliceCache(options.cacheBytes ?? DEFAULT_SLICE_CACHE_BYTES);
    this.#coalesceGapBytes = nonNegative("coalesceGapBytes", options.coalesceGapBytes ?? DEFAULT_COALESCE_GAP_BYTES);
    this.#maxCoalescedBytes = nonNegative(
      "maxCoalescedBytes",
      options.maxCoalescedBytes ?? DEFAULT_MAX_COALESCED_BYTES,
    );
  }

  /** Bytes of verified slices currently cached. */
  get cachedBytes(): number {
    return this.#cache.bytes;
  }

  readEntries(target: ReadTarget, options: WalIoOptions = {}): Promise<readonly StoredEntry[]> {
    const [result] = this.#readEntriesMany([target], options);
    if (result === undefined) throw new TypeError("readEntriesMany returned no result");
    return result;
  }

  /**
   * The entries of each target, one promise per target in the same order; each settles on its own (a corrupt slice
   * rejects only its own promise). Slices of one object within `coalesceGapBytes` of each other are fetched by one
   * GET. Callers should attach a handler to every promise.
   */
  #readEntriesMany(targets: readonly ReadTarget[], options: WalIoOptions = {}): Array<Promise<readonly StoredEntry[]>> {
    const results: Array<Promise<readonly StoredEntry[]>> = [];
    const pending = new Map<string, PendingSlice>();
    for (const target of targets) {
      if (target.type !== "OBJECT_SLICE" || !NRS1_OBJECT_TYPES.has(target.objectType)) {
        const what = target.type === "OBJECT_SLICE" ? `${target.objectType} slices` : `${target.type} targets`;
        results.push(
          Promise.reject(
            new NereusError(ErrorCode.UNSUPPORTED_READ_TARGET, `the Object WAL reader cannot read ${what}`, {
              retryable: false,
            }),
          ),
        );
        continue;
      }
      this.stats.requestedBytes += target.sliceLength;
      const key = VerifiedSliceCache.keyOf(target);
      const cached = this.#cache.get(key);
      if (cached !== undefined && cached.length === target.entryCount) {
        this.stats.cacheHits += 1;
        results.push(Promise.resolve(cached));
        continue;
      }
      const shared = this.#inFlight.get(key);
      if (shared !== undefined) {
        this.stats.cacheHits += 1;
        // Another caller's download: if it fails (its caller's signal, or a fault), this caller reads on its own.
        results.push(
          shared.then(
            (entries) => checkEntryCount(entries, target),
            () => {
              options.signal?.throwIfAborted();
              return this.readEntries(target, options);
            },
          ),
        );
        continue;
      }
      this.stats.cacheMisses += 1;
      let slice: PendingSlice | undefined;
      const promise = new Promise<readonly StoredEntry[]>((resolve, reject) => {
        slice = { key, target, resolve, reject };
      });
      if (slice === undefined) throw new TypeError("promise executor did not run");
      pending.set(key, slice);
      this.#inFlight.set(key, promise);
      // The in-flight entry is removed whether the download succeeds or not (a failure is never shared later).
      promise.then(
        () => this.#inFlight.delete(key),
        () => this.#inFlight.delete(key),
      );
      results.push(promise);
    }
    for (const run of this.#runs([...pending.values()])) void this.#download(run, options.signal);
    return results;
  }

  /** Drops every cached slice (tests, or an operator forcing re-verification). */
  clearCache(): void {
    this.#cache.clear();
  }

  /** Groups slices into GETs: same object, in offset order, gaps up to the limit, total up to the limit. */
  #runs(slices: readonly PendingSlice[]): PendingSlice[][] {
    const byObject = new Map<string, PendingSlice[]>();
    for (const slice of slices) {
      const list = byObject.get(slice.target.objectKey);
      if (list === undefined) byObject.set(slice.target.objectKey, [slice]);
      else list.push(slice);
    }
    const runs: PendingSlice[][] = [];
    for (const list of byObject.values()) {
      list.sort((a, b) => a.target.sliceOffset - b.target.sliceOffset);
      let run: PendingSlice[] = [];
      let runStart = 0;
      let runEnd = 0;
      for (const slice of list) {
        const { sliceOffset, sliceLength } = slice.target;
        const end = sliceOffset + sliceLength;
        const joins =
          run.length > 0 &&
          sliceOffset >= runEnd &&
          sliceOffset - runEnd <= this.#coalesceGapBytes &&
          end - runStart <= this.#maxCoalescedBytes;
        if (joins) {
          run.push(slice);
          runEnd = end;
        } else {
          if (run.length > 0) runs.push(run);
          run = [slice];
          runStart = sliceOffset;
          runEnd = end;
        }
      }
      if (run.length > 0) runs.push(run);
    }
    return runs;
  }

  /** One GET covering `run`, then each slice verified and settled on its own. */
  async #download(run: readonly PendingSlice[], signal: AbortSignal | undefined): Promise<void> {
    const first = run[0];
    const last = run[run.length - 1];
    if (first === undefined || last === undefined) return;
    const start = first.target.sliceOffset;
    const end = last.target.sliceOffset + last.target.sliceLength;
    let bytes: Uint8Array;
    try {
      this.stats.reads += 1;
      this.stats.coalescedSlices += run.length - 1;
      bytes = await this.#store.get(first.target.objectKey, { offset: start, length: end - start }, { signal });
      this.stats.bytes += bytes.byteLength;
    } catch (error) {
      for (const slice of run) slice.reject(error);
      return;
    }
    for (const slice of run) {
      const { target } = slice;
      try {
        const from = target.sliceOffset - start;
        // A short body makes the view short too; the decoder reports the length mismatch.
        const view = bytes.subarray(
          Math.min(from, bytes.byteLength),
          Math.min(from + target.sliceLength, bytes.byteLength),
        );
        const decoded = decodeSliceBytes(view, {
          offset: target.sliceOffset,
          length: target.sliceLength,
          checksum: target.sliceChecksum,
          entryCount: target.entryCount,
        });
        this.#cache.set(slice.key, decoded.entries, target.sliceLength);
        slice.resolve(decoded.entries);
      } catch (error) {
        slice.reject(error);
      }
    }
  }
}

/** Entries of a shared download, checked against this caller's expected entry count. */
function checkEntryCount(entries: readonly StoredEntry[], target: ObjectSliceTarget): readonly StoredEntry[] {
  if (entries.length !== target.entryCount) {
    throw new NereusError(
      ErrorCode.DECODE_ERROR,
      `NRS1 slice: entryCount is ${String(entries.length)}, the target says ${String(target.entryCount)}`,
      { retryable: false, details: { field: "entryCount", objectOffset: target.sliceOffset } },
    );
  }
  return entries;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative safe integer, got ${String(value)}`);
  return value;
}
