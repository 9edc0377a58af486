// The newest committed batches of one partition, kept in memory from their append on, so a consumer at the log end
// — the usual Kafka consumer, woken by the append it waits for — reads them without a storage read (what the page
// cache does for the active segment of an Apache Kafka broker). The entries are the stored batches themselves: the
// payloads handed over to the store, which nobody modifies any more. They are contiguous, in offset order, and
// end at the end of the last committed group; `maxBytes` bounds them (the oldest go first) and every byte is also
// held in the tail caches' shared memory budget (an entry that does not fit there is not kept, and neither is
// anything before it). Invariant: only committed batches, exactly as stored; the partition drops the cache whenever
// it drops its committed state.
import type { ReadEntry } from "@nereus/core";
import { takeWithinBudget } from "./budgeted-entries.js";
import type { ReadAheadMemory } from "./read-ahead.js";

export class TailCache {
  readonly #maxBytes: number;
  readonly #memory: ReadAheadMemory;
  /** The stream the entries belong to (a topic deleted and created again gets another stream). */
  #streamId: string | undefined;
  /** Entries from `#start` on are cached (the ones before it were dropped; compacted now and then). */
  #entries: ReadEntry[] = [];
  #start = 0;
  #bytes = 0;
  /** The offset right after the last entry (-1 when empty). */
  #end = -1;
  /** Reads served (for tests and metrics). */
  hits = 0;

  /** A cache of at most `maxBytes` (0 keeps nothing). */
  constructor(maxBytes: number, memory: ReadAheadMemory) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0)
      throw new RangeError(`tail cache bytes must be a non-negative integer, got ${String(maxBytes)}`);
    this.#maxBytes = maxBytes;
    this.#memory = memory;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** True when this cache keeps anything at all (its size is not 0). */
  get enabled(): boolean {
    return this.#maxBytes > 0;
  }

  /**
   * Adds a committed entry of stream `streamId` (entries come in offset order). An entry that does not continue the
   * cached ones (another stream, or a gap) restarts the cache; one that cannot fit empties it.
   */
  add(streamId: string, entry: ReadEntry): void {
    if (this.#maxBytes === 0) return;
    if (streamId !== this.#streamId) {
      this.clear();
      this.#streamId = streamId;
    }
    if (entry.offset !== this.#end) this.clear();
    const size = entry.payload.byteLength;
    while (this.#start < this.#entries.length && (this.#bytes + size > this.#maxBytes || !this.#memory.fits(size)))
      this.#dropOldest();
    if (size > this.#maxBytes || !this.#memory.fits(size)) {
      this.clear();
      return;
    }
    this.#entries.push(entry);
    this.#bytes += size;
    this.#memory.hold(size);
    this.#end = entry.offset + entry.recordCount;
  }

  /**
   * The cached entries of stream `streamId` from the one holding `offset`, within `maxBytes` (at least one) and below
   * `endOffset`; undefined when the cache does not hold `offset`.
   */
  read(streamId: string, offset: number, maxBytes: number, endOffset: number): ReadEntry[] | undefined {
    if (streamId !== this.#streamId || this.#start >= this.#entries.length) return undefined;
    const first = this.#indexOf(offset);
    if (first < 0) return undefined;
    const served = takeWithinBudget(this.#entries, first, maxBytes, endOffset).entries;
    if (served.length === 0) return undefined;
    this.hits += 1;
    return served;
  }

  /** Drops everything (and gives the memory back). */
  clear(): void {
    this.#memory.release(this.#bytes);
    this.#entries = [];
    this.#start = 0;
    this.#bytes = 0;
    this.#end = -1;
  }

  /** Index of the entry holding `offset` (binary search: entries are contiguous and ascending), or -1. */
  #indexOf(offset: number): number {
    let low = this.#start;
    let high = this.#entries.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const entry = this.#entries[middle] as ReadEntry;
      if (offset < entry.offset) high = middle - 1;
      else if (offset >= entry.offset + entry.recordCount) low = middle + 1;
      else return middle;
    }
    return -1;
  }

  #dropOldest(): void {
    const oldest = this.#entries[this.#start];
    if (oldest === undefined) return;
    this.#start += 1;
    this.#bytes -= oldest.payload.byteLength;
    this.#memory.release(oldest.payload.byteLength);
    // Compact once the dropped prefix is the larger part (amortized O(1) per entry).
    if (this.#start > 32 && this.#start * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#start);
      this.#start = 0;
    }
  }
}
