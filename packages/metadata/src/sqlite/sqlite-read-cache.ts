// Exact read cache of the SQLite store, for a store that is the only writer of its file (the broker's embedded
// store: one broker per data directory). It keeps what `get` and `scan` read until the store's writer thread starts
// its next round: the thread bumps a shared counter at the start of every round, before anything of the round can
// commit, and every lookup first compares that counter with the one the cache was filled under (a mismatch drops
// everything). So a cached answer is what SQLite would answer now, or what it answered before a commit that no reader
// could have seen yet: every read that could observe the round's commit reads the counter after the bump.
// What a scan read is kept per prefix as one known range: every key under the prefix from the scan's lower bound up
// to the last row read (or to the prefix's end, when the scan ran out of keys). A later scan of that prefix whose
// lower bound lies within the range is answered from it when the range holds enough keys past that bound (or ends
// the prefix) — so sequential readers moving through a stream's index, or through an empty range, stop querying.
// Keys are ordered as SQLite orders them (BINARY: by UTF-8 bytes, i.e. by code point). Answers are copies: a caller
// may change the values it gets without changing the cache.
import type { KeyValue, ScanPage } from "@nereus/core";
import { type ScanLowerBound, compareUtf8 } from "../key-range/utf8-key-range.js";

/** Keys whose `get` results are kept; the cache starts over when more are read. */
const READ_CACHE_MAX_KEYS = 4_096;
/** Prefixes whose scan ranges are kept; the ranges start over when more are scanned. */
const READ_CACHE_MAX_PREFIXES = 256;
/** Scans that read more rows than this (a limit above 256) are not kept: at most ~13 MB of ranges in all. */
const READ_CACHE_MAX_SCAN_ROWS = 257;

/** A scan's effective lower bound (see `scanLowerBound`). */
export type ScanBound = ScanLowerBound;

/** Every key under a prefix from `bound` on, up to the last of `rows` or, when `complete`, to the prefix's end. */
interface KnownRange {
  readonly bound: ScanBound;
  readonly rows: readonly KeyValue[];
  readonly complete: boolean;
}

/** Hits and misses, for tests and metrics. */
export interface SqliteReadCacheStats {
  readonly hits: number;
  readonly misses: number;
  /** Times the cache was dropped because the writer thread started a round. */
  readonly invalidations: number;
}

function copy(item: KeyValue): KeyValue {
  return {
    key: item.key,
    value: item.value.slice(),
    modRevision: item.modRevision,
    createRevision: item.createRevision,
  };
}

/** Whether every key admitted by `query` is admitted by `known` (both lower bounds of the same prefix). */
function within(query: ScanBound, known: ScanBound): boolean {
  const order = compareUtf8(query.key, known.key);
  if (order !== 0) return order > 0;
  return query.exclusive || !known.exclusive;
}

/** Index of the first row admitted by `bound` (rows in key order). */
function firstAdmitted(rows: readonly KeyValue[], bound: ScanBound): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareUtf8((rows[middle] as KeyValue).key, bound.key);
    if (order > 0 || (order === 0 && !bound.exclusive)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * See the module comment. Used from the store's event-loop thread only. `epoch` arguments are the writer thread's
 * round counter read just before the lookup or the SQLite read whose result is stored.
 */
export class SqliteReadCache {
  #epoch = Number.NaN;
  readonly #keys = new Map<string, KeyValue | null>();
  readonly #ranges = new Map<string, KnownRange>();
  #hits = 0;
  #misses = 0;
  #invalidations = 0;

  get stats(): SqliteReadCacheStats {
    return { hits: this.#hits, misses: this.#misses, invalidations: this.#invalidations };
  }

  /** The result of `get(key)` when known under `epoch`: a copy, or null for an absent key; undefined when unknown. */
  get(epoch: number, key: string): KeyValue | null | undefined {
    this.#sync(epoch);
    const known = this.#keys.get(key);
    if (known === undefined) {
      this.#misses += 1;
      return undefined;
    }
    this.#hits += 1;
    return known === null ? null : copy(known);
  }

  /** Keeps what `get(key)` read under `epoch` (undefined: the key is absent). */
  putKey(epoch: number, key: string, found: KeyValue | undefined): void {
    this.#sync(epoch);
    if (this.#keys.size >= READ_CACHE_MAX_KEYS) this.#keys.clear();
    this.#keys.set(key, found === undefined ? null : copy(found));
  }

  /** The page `scan(prefix)` from `bound` with `limit` returns, when known under `epoch`; undefined when unknown. */
  scan(epoch: number, prefix: string, bound: ScanBound, limit: number): ScanPage | undefined {
    this.#sync(epoch);
    const range = this.#ranges.get(prefix);
    if (range !== undefined && within(bound, range.bound)) {
      const first = firstAdmitted(range.rows, bound);
      const admitted = range.rows.length - first;
      // More than `limit` known rows past the bound: the page, and at least one key after it. Otherwise the range must
      // reach the prefix's end to say no key follows.
      if (admitted > limit || range.complete) {
        this.#hits += 1;
        const end = first + Math.min(admitted, limit);
        const items: KeyValue[] = [];
        for (let index = first; index < end; index++) items.push(copy(range.rows[index] as KeyValue));
        return { items, more: admitted > limit };
      }
    }
    this.#misses += 1;
    return undefined;
  }

  /**
   * Keeps what a scan of `prefix` from `bound` read under `epoch`: `rows` in key order, all of them when `complete`
   * (the prefix has no key after the last one), else every key up to the last row.
   */
  putScan(epoch: number, prefix: string, bound: ScanBound, rows: readonly KeyValue[], complete: boolean): void {
    this.#sync(epoch);
    if (rows.length > READ_CACHE_MAX_SCAN_ROWS) return;
    if (!this.#ranges.has(prefix) && this.#ranges.size >= READ_CACHE_MAX_PREFIXES) this.#ranges.clear();
    this.#ranges.set(prefix, { bound, rows: rows.map(copy), complete });
  }

  /** Drops everything known when the writer thread's counter moved. */
  #sync(epoch: number): void {
    if (epoch === this.#epoch) return;
    if (this.#keys.size > 0 || this.#ranges.size > 0) this.#invalidations += 1;
    this.#keys.clear();
    this.#ranges.clear();
    this.#epoch = epoch;
  }
}
