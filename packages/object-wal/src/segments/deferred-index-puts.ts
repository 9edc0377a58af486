// Put records reach the segment index in batches instead of one SQLite transaction per write job. The index is a
// cache of the segments (segment-index.ts): a record is durable once its segment write returned, and a reopen replays
// every record after the index's `applied` position, so holding index updates back for a moment loses nothing.
// Lookups see held puts at once (they are answered from memory first). One transaction per write job cost about a
// tenth of a millisecond of the event loop, mostly the COMMIT writing the same few index pages again.
import type { AppliedPosition, SegmentIndex, SegmentLocation } from "./segment-index.js";

/** One put record written to a segment, waiting for the index. */
export interface HeldPut {
  readonly key: string;
  readonly location: SegmentLocation;
  /** Bytes of the whole record (head and body): the segment's valid length grows by this much. */
  readonly recordBytes: number;
}

export interface DeferredIndexPutsOptions {
  /** Apply once this many puts are held (default 64). */
  readonly maxHeld?: number;
  /** Apply at the latest this long after the first put was held (default 100 ms). */
  readonly maxDelayMs?: number;
  /** Called once when applying fails; the held puts stay visible to lookups, nothing more is applied. */
  readonly onFailure: (error: unknown) => void;
}

/**
 * Invariants: held puts are applied in the order they were held, in one transaction together with the `applied`
 * position of the last of them; `get` answers from the held puts first, so a lookup never misses a written object;
 * after a failure nothing more is applied (the layout has failed and a reopen replays the segments).
 */
export class DeferredIndexPuts {
  readonly #index: SegmentIndex;
  readonly #maxHeld: number;
  readonly #maxDelayMs: number;
  readonly #onFailure: (error: unknown) => void;
  #held: HeldPut[] = [];
  #latest = new Map<string, SegmentLocation>();
  #applied: AppliedPosition | undefined;
  #timer: NodeJS.Timeout | undefined;
  #failed = false;
  /** Index transactions run for held puts (for tests and stats). */
  transactions = 0;

  constructor(index: SegmentIndex, options: DeferredIndexPutsOptions) {
    this.#index = index;
    this.#maxHeld = options.maxHeld ?? 64;
    this.#maxDelayMs = options.maxDelayMs ?? 100;
    this.#onFailure = options.onFailure;
  }

  /** Puts held now. */
  get held(): number {
    return this.#held.length;
  }

  /** Where `key` lives: a held put first, else the index. */
  get(key: string): SegmentLocation | undefined {
    return this.#latest.get(key) ?? this.#index.get(key);
  }

  /** Holds the puts of one write job; every record before `applied` is then written. */
  hold(puts: readonly HeldPut[], applied: AppliedPosition): void {
    for (const put of puts) {
      this.#held.push(put);
      this.#latest.set(put.key, put.location);
    }
    this.#applied = applied;
    if (this.#held.length >= this.#maxHeld) this.flush();
    else if (this.#timer === undefined && this.#held.length > 0) {
      this.#timer = setTimeout(() => this.flush(), this.#maxDelayMs);
      this.#timer.unref();
    }
  }

  /**
   * Applies the held puts now (before anything reads the index as a whole, and before a delete is applied). Returns
   * false when applying failed, now or earlier.
   */
  flush(): boolean {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#failed) return false;
    const applied = this.#applied;
    if (this.#held.length === 0 || applied === undefined) return true;
    const held = this.#held;
    try {
      this.#index.transaction(() => {
        for (const put of held) this.#index.applyPut(put.key, put.location, put.recordBytes);
        this.#index.setApplied(applied);
      });
    } catch (error) {
      this.#failed = true;
      this.#onFailure(error);
      return false;
    }
    this.transactions += 1;
    this.#held = [];
    this.#latest = new Map();
    this.#applied = undefined;
    return true;
  }

  /** Stops the timer (call `flush` first to keep the held puts). */
  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
