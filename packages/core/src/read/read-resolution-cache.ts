// The read path's positive resolution cache (docs/architecture.md §5): index entries a resolve scan
// already read — generation-0 offset-index entries (immutable once written) and COMMITTED generation-index entries —
// kept per stream, so the offsets that follow resolve without two metadata scans. Only what a scan returned is
// kept: never "no entry here" and never an end of stream (a miss always goes back to metadata).
// What may change under a cached entry, and how it is handled:
// - trim: every read loads the head first and hands it to `observeHead`, which drops entries that end at or below
//   the trim offset (reads below it fail OFFSET_TRIMMED before the cache is consulted anyway);
// - delete / re-create: a head that is not ACTIVE or SEALED, a missing head, or a head of another incarnation
//   (different createdAtMillis) drops the stream's entries;
// - quarantine: the read path drops the quarantined generation entry; a generation quarantined by another process,
//   or a target that fails for any reason when read through a cached resolution, makes the read drop the whole stream
//   and resolve again from metadata (which then quarantines and falls back as usual);
// - a higher generation published later is found once the entries age out (`maxAgeMs`); until then a lower
//   committed generation is read, which holds the same bytes.
// Bounded: at most `maxStreams` streams (least recently used dropped) and `maxEntriesPerStream` entries per stream.
// Over the bound, entries older than `maxAgeMs` go first (they are never used), then those of earlier scans, lowest
// offsets first (consumers move forward); the page a scan just added is never evicted for older entries — a
// consumer re-reading from the start while the cache holds the far end would otherwise lose every page it scans. Lookups consider, like a scan page, only the first
// `lookahead` entries ending above the offset.
import type { OffsetIndexEntry } from "../domain/commit-records.js";
import type { StreamHead } from "../domain/stream-head.js";
import type { IndexedRange } from "./read-indexed-entries.js";
import type { GenerationCandidate } from "./scan-generation-candidates.js";

export interface ReadResolutionCacheOptions {
  /** Streams with cached entries (default 1,024). */
  readonly maxStreams?: number;
  /** Cached entries per stream (default 2,048). */
  readonly maxEntriesPerStream?: number;
  /** Age after which an entry is no longer used (default 10 s); bounds how long a new generation goes unnoticed. */
  readonly maxAgeMs?: number;
  /** Monotone milliseconds (default `performance.now`). */
  readonly now?: () => number;
}

/** A cached resolution of one committed range. */
export interface CachedResolution {
  readonly range: IndexedRange;
  /** Cumulative logical size of the stream at `range.offsetEnd` (byte estimates of a read plan). */
  readonly cumulativeSize: number;
  /** Set when the entry came from the generation index (its key, for quarantine). */
  readonly generationKey: string | undefined;
  /** Higher wins: generation-index entries above offset-index ones, then the higher generation. */
  readonly rank: number;
  readonly loadedAt: number;
}

interface StreamEntries {
  readonly createdAtMillis: number;
  /** Sorted by offsetEnd, then rank. */
  entries: CachedResolution[];
}

/**
 * The cache's order: by offsetEnd, then rank, then generation key (offset-index entries, which have none, first).
 * Two entries compare equal exactly when they came from the same metadata key: an offset-index key is
 * (offsetEnd, generation) and its rank is the generation; a generation-index entry is named by its key.
 */
function byEndThenRank(a: CachedResolution, b: CachedResolution): number {
  const order = a.range.offsetEnd - b.range.offsetEnd || a.rank - b.rank;
  if (order !== 0 || a.generationKey === b.generationKey) return order;
  if (a.generationKey === undefined) return -1;
  if (b.generationKey === undefined) return 1;
  return a.generationKey < b.generationKey ? -1 : 1;
}

/**
 * Merges two lists sorted by {@link byEndThenRank}, each without duplicates; an entry of `fresh` replaces the entry
 * of `cached` from the same key. Linear, no per-merge map.
 */
function mergeReplacing(cached: readonly CachedResolution[], fresh: readonly CachedResolution[]): CachedResolution[] {
  const merged: CachedResolution[] = [];
  let i = 0;
  let j = 0;
  while (i < cached.length && j < fresh.length) {
    const order = byEndThenRank(fresh[j] as CachedResolution, cached[i] as CachedResolution);
    if (order <= 0) {
      merged.push(fresh[j++] as CachedResolution);
      if (order === 0) i += 1;
    } else merged.push(cached[i++] as CachedResolution);
  }
  while (i < cached.length) merged.push(cached[i++] as CachedResolution);
  while (j < fresh.length) merged.push(fresh[j++] as CachedResolution);
  return merged;
}

/** Sorts by {@link byEndThenRank} and keeps one entry per key (the last given). */
function sortedUnique(entries: CachedResolution[]): CachedResolution[] {
  entries.sort(byEndThenRank);
  const unique: CachedResolution[] = [];
  for (const entry of entries) {
    const last = unique.length - 1;
    if (last >= 0 && byEndThenRank(unique[last] as CachedResolution, entry) === 0) unique[last] = entry;
    else unique.push(entry);
  }
  return unique;
}

/** Generation-index entries outrank every offset-index entry. */
const GENERATION_INDEX_RANK = 2 ** 40;
const LOOKAHEAD = 128;

export class ReadResolutionCache {
  readonly #streams = new Map<string, StreamEntries>();
  readonly #maxStreams: number;
  readonly #maxEntriesPerStream: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  /** Lookups answered from the cache / not. */
  hits = 0;
  misses = 0;

  constructor(options: ReadResolutionCacheOptions = {}) {
    this.#maxStreams = options.maxStreams ?? 1024;
    this.#maxEntriesPerStream = options.maxEntriesPerStream ?? 2048;
    this.#maxAgeMs = options.maxAgeMs ?? 10_000;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Entries cached for `streamId` (tests and diagnostics). */
  size(streamId: string): number {
    return this.#streams.get(streamId)?.entries.length ?? 0;
  }

  /** Reconciles the stream's entries with a freshly loaded head (trim, state, incarnation). */
  observeHead(head: StreamHead): void {
    const stream = this.#streams.get(head.streamId);
    if (stream === undefined) return;
    if ((head.state !== "ACTIVE" && head.state !== "SEALED") || head.createdAtMillis !== stream.createdAtMillis) {
      this.#streams.delete(head.streamId);
      return;
    }
    if (stream.entries.length > 0 && (stream.entries[0]?.range.offsetEnd ?? 0) <= head.trimOffset) {
      stream.entries = stream.entries.filter((entry) => entry.range.offsetEnd > head.trimOffset);
    }
  }

  dropStream(streamId: string): void {
    this.#streams.delete(streamId);
  }

  /** Drops one generation-index entry (it was quarantined). */
  dropGeneration(streamId: string, generationKey: string): void {
    const stream = this.#streams.get(streamId);
    if (stream !== undefined) stream.entries = stream.entries.filter((entry) => entry.generationKey !== generationKey);
  }

  /**
   * Adds what one resolve scan read: an offset-index page and the COMMITTED entries of a generation-index page
   * scanned from `generationsFrom` (if given). That generation page is authoritative: cached generation entries
   * ending above `generationsFrom` that it does not hold any more (quarantined elsewhere, or beyond the page) go.
   */
  addScan(
    head: StreamHead,
    indexPage: readonly OffsetIndexEntry[],
    generations: readonly GenerationCandidate[],
    generationsFrom?: number,
  ): void {
    const now = this.#now();
    let stream = this.#streams.get(head.streamId);
    if (stream === undefined || stream.createdAtMillis !== head.createdAtMillis) {
      stream = { createdAtMillis: head.createdAtMillis, entries: [] };
    }
    this.#streams.delete(head.streamId);
    this.#streams.set(head.streamId, stream);
    const fresh: CachedResolution[] = [];
    for (const entry of indexPage) {
      if (entry.offsetEnd <= head.trimOffset || entry.offsetEnd > head.committedEndOffset) continue;
      fresh.push({
        range: entry,
        cumulativeSize: entry.cumulativeSize,
        generationKey: undefined,
        rank: entry.generation,
        loadedAt: now,
      });
    }
    for (const candidate of generations) {
      const { entry } = candidate;
      if (
        entry.state !== "COMMITTED" ||
        entry.offsetEnd <= head.trimOffset ||
        entry.offsetEnd > head.committedEndOffset
      )
        continue;
      fresh.push({
        range: entry,
        cumulativeSize: entry.cumulativeSize,
        generationKey: candidate.key,
        rank: GENERATION_INDEX_RANK + entry.generation,
        loadedAt: now,
      });
    }
    const superseded = (entry: CachedResolution): boolean =>
      generationsFrom !== undefined && entry.generationKey !== undefined && entry.range.offsetEnd > generationsFrom;
    // Nothing new and nothing to drop: the common case of a read that scanned no generations (keep the array).
    const dropsSome = stream.entries.some(superseded);
    if (fresh.length === 0 && !dropsSome) {
      this.#evictStreams();
      return;
    }
    // A fresh entry replaces a cached one of the same key; both lists sorted, then merged (a scan adds a page, the
    // stream may hold thousands: no per-scan map or sort of all of them).
    const kept = dropsSome ? stream.entries.filter((entry) => !superseded(entry)) : stream.entries;
    const entries = mergeReplacing(kept, sortedUnique(fresh));
    stream.entries = entries.length > this.#maxEntriesPerStream ? this.#bounded(entries, now) : entries;
    this.#evictStreams();
  }

  /**
   * `entries` cut to `maxEntriesPerStream` (order kept): stale ones dropped, then entries loaded before `now`
   * from the lowest offsets, then (only if one scan alone exceeds the bound) the lowest offsets.
   */
  #bounded(entries: readonly CachedResolution[], now: number): CachedResolution[] {
    const live = entries.filter((entry) => now - entry.loadedAt <= this.#maxAgeMs);
    let excess = live.length - this.#maxEntriesPerStream;
    if (excess <= 0) return live;
    const kept: CachedResolution[] = [];
    for (const entry of live) {
      if (excess > 0 && entry.loadedAt < now) excess -= 1;
      else kept.push(entry);
    }
    return kept.length > this.#maxEntriesPerStream ? kept.slice(kept.length - this.#maxEntriesPerStream) : kept;
  }

  /** Drops the least recently used streams beyond `maxStreams`. */
  #evictStreams(): void {
    for (const streamId of this.#streams.keys()) {
      if (this.#streams.size <= this.#maxStreams) break;
      this.#streams.delete(streamId);
    }
  }

  /** The best fresh cached entry covering `offset`, or undefined (a miss: resolve from metadata). */
  lookup(streamId: string, offset: number): CachedResolution | undefined {
    const stream = this.#streams.get(streamId);
    const found = stream === undefined ? undefined : this.#best(stream, offset, this.#now());
    if (found === undefined) this.misses += 1;
    else this.hits += 1;
    return found;
  }

  /**
   * Consecutive cached resolutions starting with the one covering `offset`: each next one starts where the previous
   * ends, below `end`; stops after `maxRanges` or once the estimated bytes after the first reach `byteBudget`.
   * Empty on a miss.
   */
  plan(streamId: string, offset: number, end: number, byteBudget: number, maxRanges: number): CachedResolution[] {
    const first = this.lookup(streamId, offset);
    if (first === undefined) return [];
    const stream = this.#streams.get(streamId);
    const now = this.#now();
    const plan = [first];
    let bytes = 0;
    let previous = first;
    while (stream !== undefined && plan.length < maxRanges && bytes < byteBudget && previous.range.offsetEnd < end) {
      const next = this.#best(stream, previous.range.offsetEnd, now);
      if (next === undefined || next.range.offsetStart !== previous.range.offsetEnd) break;
      bytes += Math.max(0, next.cumulativeSize - previous.cumulativeSize);
      plan.push(next);
      previous = next;
    }
    return plan;
  }

  #best(stream: StreamEntries, offset: number, now: number): CachedResolution | undefined {
    const { entries } = stream;
    // First entry ending above `offset` (entries are sorted by offsetEnd).
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((entries[middle]?.range.offsetEnd ?? 0) <= offset) low = middle + 1;
      else high = middle;
    }
    let best: CachedResolution | undefined;
    for (let index = low; index < entries.length && index < low + LOOKAHEAD; index++) {
      const entry = entries[index];
      if (entry === undefined || entry.range.offsetStart > offset || now - entry.loadedAt > this.#maxAgeMs) continue;
      if (best === undefined || entry.rank > best.rank) best = entry;
    }
    return best;
  }
}
