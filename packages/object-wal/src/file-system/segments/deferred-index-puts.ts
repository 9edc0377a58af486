// Segment records reach the segment index in batches instead of one SQLite transaction per write job. The index is a
// cache of the segments (segment-index.ts): a record is durable once its segment write returned, and a reopen replays
// every record after the index's `applied` position, so holding index updates back for a moment loses nothing.
// Lookups see held records at once (they are answered from memory first). One transaction per write job cost about a
// tenth of a millisecond of the event loop, mostly the COMMIT writing the same few index pages again. Puts are held
// until a batch is due; the deletes of a job (and every record held before them) are applied at once.
// When applying fails (SQLITE_FULL on a full disk, say), the transaction rolled back: the records stay held and
// visible, and applying is tried again later (after `retryDelayMs`, or on the next flush), so the index catches up by
// itself once the disk accepts writes again.
import type { AppliedPosition, SegmentIndex, SegmentLocation } from "./segment-index.js";

/** One put record written to a segment, waiting for the index. */
export interface HeldPut {
  readonly key: string;
  readonly location: SegmentLocation;
  /** Bytes of the whole record (head and body): the segment's valid length grows by this much. */
  readonly recordBytes: number;
  readonly delete?: undefined;
}

/** One delete record written to a segment, waiting for the index: removes `key` if it is still the put it names. */
interface HeldDelete {
  readonly key: string;
  /** Where the delete record itself lies. */
  readonly segment: number;
  readonly recordOffset: number;
  readonly recordBytes: number;
  /** The put it deletes. */
  readonly delete: { readonly segment: number; readonly offset: number };
}

/** A record waiting for the index. */
export type HeldRecord = HeldPut | HeldDelete;

export interface DeferredIndexPutsOptions {
  /** Apply once this many records are held (default 64). */
  readonly maxHeld?: number;
  /** Apply at the latest this long after the first record was held (default 100 ms). */
  readonly maxDelayMs?: number;
  /** After a failed apply, try again this long later (default 1,000 ms). */
  readonly retryDelayMs?: number;
  /** Called each time applying fails; the held records stay visible and are applied later. */
  readonly onFailure: (error: unknown) => void;
  /** Called when applying succeeds after one or more failures. */
  readonly onRecovered?: () => void;
}

/**
 * Invariants: held records are applied in the order they were held, in one transaction together with the `applied`
 * position of the last of them (all of them or none); `get` answers from the held records first, so a lookup never
 * misses a written object nor finds a deleted one; a failed apply changes nothing in the index and is retried.
 */
export class DeferredIndexPuts {
  readonly #index: SegmentIndex;
  readonly #maxHeld: number;
  readonly #maxDelayMs: number;
  readonly #retryDelayMs: number;
  readonly #onFailure: (error: unknown) => void;
  readonly #onRecovered: (() => void) | undefined;
  #held: HeldRecord[] = [];
  /** Where each key of a held record lives now (null: deleted by a held delete). */
  #latest = new Map<string, SegmentLocation | null>();
  #applied: AppliedPosition | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Whether the last apply failed. */
  #failing = false;
  #closed = false;
  /** Index transactions run for held records (for tests and stats). */
  transactions = 0;

  constructor(index: SegmentIndex, options: DeferredIndexPutsOptions) {
    this.#index = index;
    this.#maxHeld = options.maxHeld ?? 64;
    this.#maxDelayMs = options.maxDelayMs ?? 100;
    this.#retryDelayMs = options.retryDelayMs ?? 1_000;
    this.#onFailure = options.onFailure;
    this.#onRecovered = options.onRecovered;
  }

  /** Records held now. */
  get held(): number {
    return this.#held.length;
  }

  /** Whether the last attempt to apply failed (the index lags the segments until one succeeds). */
  get failing(): boolean {
    return this.#failing;
  }

  /** Where `key` lives: a held record first, else the index. */
  get(key: string): SegmentLocation | undefined {
    const held = this.#latest.get(key);
    if (held !== undefined) return held ?? undefined;
    return this.#index.get(key);
  }

  /** Holds the records of one write job; every record before `applied` is then written. */
  hold(records: readonly HeldRecord[], applied: AppliedPosition): void {
    for (const record of records) {
      this.#held.push(record);
      if (record.delete === undefined) {
        this.#latest.set(record.key, record.location);
      } else {
        const current = this.get(record.key);
        if (
          current !== undefined &&
          current.segment === record.delete.segment &&
          current.recordOffset === record.delete.offset
        )
          this.#latest.set(record.key, null);
      }
    }
    this.#applied = applied;
    if (this.#held.length >= this.#maxHeld && !this.#failing) this.flush();
    else this.#arm(this.#failing ? this.#retryDelayMs : this.#maxDelayMs);
  }

  /**
   * Applies the held records now (before anything reads the index as a whole). Returns false when applying failed:
   * the records stay held and visible, and are tried again later.
   */
  flush(): boolean {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const applied = this.#applied;
    if (this.#held.length === 0 || applied === undefined) return true;
    const held = this.#held;
    try {
      this.#index.transaction(() => {
        for (const record of held) {
          if (record.delete === undefined) this.#index.applyPut(record.key, record.location, record.recordBytes);
          else
            this.#index.applyDelete(
              record.key,
              record.segment,
              record.recordOffset,
              record.recordBytes,
              record.delete.segment,
              record.delete.offset,
            );
        }
        this.#index.setApplied(applied);
      });
    } catch (error) {
      this.#failing = true;
      this.#arm(this.#retryDelayMs);
      this.#onFailure(error);
      return false;
    }
    this.transactions += 1;
    this.#held = [];
    this.#latest = new Map();
    this.#applied = undefined;
    if (this.#failing) {
      this.#failing = false;
      this.#onRecovered?.();
    }
    return true;
  }

  /** Stops the timer (call `flush` first to keep the held records). */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(delayMs: number): void {
    if (this.#closed || this.#timer !== undefined || this.#held.length === 0) return;
    this.#timer = setTimeout(() => this.flush(), delayMs);
    this.#timer.unref();
  }
}
