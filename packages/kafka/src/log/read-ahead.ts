// Sequential read-ahead of one partition: consumers that catch up read the log in order, one Fetch after another,
// and spend the time between two Fetches processing what they got. After a read that filled at least half its
// budget, the next budgets are read in the background and KEPT: the next Fetch that starts inside them is served
// from memory (no storage read, no head load, no slice decode), and each served Fetch tops the buffer up again, so
// a consumer that keeps up is served from memory until it reaches the log end (what the page cache and the disk's
// read-ahead do for a broker serving sequential reads). Entries are committed batches below the high watermark, so
// they never change; a Fetch that starts outside the buffer (another consumer, a seek) reads storage as usual and
// restarts the buffer at its end. At most one read-ahead per partition is in flight; its errors are ignored (the
// Fetch that needs the range reads it itself). Memory: each partition keeps at most READ_AHEAD_BUDGETS + 1 budgets,
// and all partitions together at most their shared ReadAheadMemory limit (a read-ahead that does not fit is skipped).
import type { ReadEntry, StreamStore } from "@nereus/core";
import { takeWithinBudget } from "./budgeted-entries.js";

/** A read-ahead starts only after a read that returned at least this share of its byte budget. */
const FULL_READ_SHARE = 0.5;
/**
 * The buffer is kept this many budgets ahead of the last served read: the next Fetch finds its whole budget buffered
 * even while the read-ahead topping it up has not finished.
 */
const READ_AHEAD_BUDGETS = 2;

/** The bytes all partitions' read-ahead buffers may hold together (shared by the partitions of one broker). */
export class ReadAheadMemory {
  readonly limit: number;
  #used = 0;

  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 0)
      throw new RangeError(`read-ahead memory must be a non-negative integer, got ${String(limit)}`);
    this.limit = limit;
  }

  /** Bytes held by buffers now. */
  get used(): number {
    return this.#used;
  }

  /** True when `bytes` more fit under the limit. */
  fits(bytes: number): boolean {
    return this.#used + bytes <= this.limit;
  }

  hold(bytes: number): void {
    this.#used += bytes;
  }

  release(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }
}

export class ReadAhead {
  readonly #store: StreamStore;
  readonly #closing: AbortSignal;
  readonly #memory: ReadAheadMemory;
  #streamId: string | undefined;
  /** Buffered entries: contiguous, ascending; `#end` is the offset right after the last one. */
  #entries: ReadEntry[] = [];
  #bytes = 0;
  #end = -1;
  /** Bumped whenever the buffer is dropped, so a read-ahead that finishes later does not refill it. */
  #generation = 0;
  #inFlight: Promise<void> | undefined;
  /** Starts the read-ahead that waits for the next turn, at once (undefined once it started). */
  #startPending: (() => void) | undefined;
  /** Read-aheads started (for tests and metrics). */
  started = 0;
  /** Reads served from the buffer (for tests and metrics). */
  hits = 0;

  constructor(
    store: StreamStore,
    closing: AbortSignal,
    memory: ReadAheadMemory = new ReadAheadMemory(64 * 1024 * 1024),
  ) {
    this.#store = store;
    this.#closing = closing;
    this.#memory = memory;
  }

  /** Bytes this partition's buffer holds. */
  get bufferedBytes(): number {
    return this.#bytes;
  }

  /**
   * The buffered entries of stream `streamId` from the one holding `offset`, within `maxBytes` (at least one) and
   * below `endOffset`; undefined when the buffer does not hold `offset` or cannot fill the budget although the log
   * goes on (then storage serves the read). Entries before the served ones are dropped (the reader moved past).
   */
  take(streamId: string, offset: number, maxBytes: number, endOffset: number): ReadEntry[] | undefined {
    if (streamId !== this.#streamId || this.#entries.length === 0) return undefined;
    const first = this.#entries.findIndex(
      (entry) => entry.offset <= offset && offset < entry.offset + entry.recordCount,
    );
    if (first < 0) return undefined;
    const { entries: served, bytes, next: index } = takeWithinBudget(this.#entries, first, maxBytes, endOffset);
    const filled = index < this.#entries.length || this.#end >= endOffset || bytes >= maxBytes;
    if (!filled) return undefined;
    this.#dropBefore(first);
    this.hits += 1;
    return served;
  }

  /**
   * {@link take}, except that when the buffer holds `offset` (or ends right at it) but not yet the whole budget and a
   * read-ahead is extending it, waits for that read-ahead first (it is already reading what the caller would read).
   */
  async read(streamId: string, offset: number, maxBytes: number, endOffset: number): Promise<ReadEntry[] | undefined> {
    const served = this.take(streamId, offset, maxBytes, endOffset);
    const running = this.#inFlight;
    if (served !== undefined || running === undefined || !this.#holdsOrEndsAt(streamId, offset)) return served;
    // Not started yet (it waits for the next turn): start it now rather than make this Fetch wait for a turn.
    this.#startPending?.();
    await running;
    return this.take(streamId, offset, maxBytes, endOffset);
  }

  /**
   * Called after a read of `entries` from stream `streamId` with budget `maxBytes` (`fromBuffer`: served by
   * {@link take}): keeps the buffer READ_AHEAD_BUDGETS budgets ahead of the read's end while the log goes on below
   * `endOffset`. After a storage read, the buffer restarts at that read's end, and only if the read was (nearly)
   * full — a small read means the reader is at the log end, where reading ahead finds nothing.
   */
  after(
    streamId: string,
    entries: readonly ReadEntry[],
    maxBytes: number,
    endOffset: number,
    fromBuffer = false,
  ): void {
    if (this.#closing.aborted) return;
    const last = entries.at(-1);
    if (last === undefined) return;
    const next = last.offset + last.recordCount;
    if (!fromBuffer) {
      let bytes = 0;
      for (const entry of entries) bytes += entry.payload.byteLength;
      // Storage served this read: the buffer (if any) did not hold it, so this reader is elsewhere.
      const continues = streamId === this.#streamId && next === this.#end;
      if (!continues) {
        if (bytes < maxBytes * FULL_READ_SHARE) return;
        this.clear();
        this.#streamId = streamId;
        this.#end = next;
      }
    }
    if (this.#inFlight !== undefined || this.#end >= endOffset) return;
    let ahead = 0;
    for (const entry of this.#entries) if (entry.offset >= next) ahead += entry.payload.byteLength;
    const wanted = READ_AHEAD_BUDGETS * maxBytes - ahead;
    if (wanted < maxBytes / 2 || !this.#memory.fits(wanted)) return;
    this.#readAhead(streamId, this.#end, wanted);
  }

  /** Drops the buffer (the topic was deleted or its state reloaded); a running read-ahead's result is discarded. */
  clear(): void {
    this.#generation += 1;
    this.#memory.release(this.#bytes);
    this.#entries = [];
    this.#bytes = 0;
    this.#end = -1;
    this.#streamId = undefined;
  }

  /** Waits for a running read-ahead (tests; close). */
  async settled(): Promise<void> {
    await this.#inFlight;
  }

  #readAhead(streamId: string, from: number, maxBytes: number): void {
    const generation = this.#generation;
    this.started += 1;
    // Started on the next turn: the Fetch that triggered it is answered (encoded and written) first (measured:
    // consume +6-8 % on the benchmark probe). A Fetch that needs it before then starts it itself, so no Fetch ever
    // depends on the event loop turning (in-memory stores resolve everything in microtasks).
    let start: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      start = resolve;
    });
    const immediate = setImmediate(() => this.#startPending?.());
    this.#startPending = () => {
      this.#startPending = undefined;
      clearImmediate(immediate);
      start();
    };
    this.#inFlight = started
      // A buffer dropped meanwhile needs nothing read.
      .then(() =>
        generation === this.#generation
          ? this.#store.read(streamId, from, { maxBytes, maxRecords: 0x7fff_ffff, signal: this.#closing })
          : undefined,
      )
      .then(
        (result) => {
          if (result === undefined || generation !== this.#generation || this.#end !== from) return;
          for (const entry of result.entries) {
            // The first entry may start before `from` only if `from` is inside it, which a buffer end never is.
            if (entry.offset !== this.#end) break;
            this.#entries.push(entry);
            this.#bytes += entry.payload.byteLength;
            this.#memory.hold(entry.payload.byteLength);
            this.#end = entry.offset + entry.recordCount;
          }
        },
        () => undefined,
      )
      .finally(() => {
        this.#inFlight = undefined;
      });
  }

  #holdsOrEndsAt(streamId: string, offset: number): boolean {
    if (streamId !== this.#streamId) return false;
    const first = this.#entries[0];
    return offset === this.#end || (first !== undefined && first.offset <= offset && offset < this.#end);
  }

  #dropBefore(index: number): void {
    if (index === 0) return;
    let dropped = 0;
    for (const entry of this.#entries.slice(0, index)) dropped += entry.payload.byteLength;
    this.#entries = this.#entries.slice(index);
    this.#bytes -= dropped;
    this.#memory.release(dropped);
  }
}
