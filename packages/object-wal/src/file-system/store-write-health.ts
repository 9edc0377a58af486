// Whether the filesystem object store can write right now, as its own writes find out: each part that writes (the
// segment log, the segment index, object files) reports its failures and successes here; the store is writable
// again once every part that failed has written successfully since. Listeners hear each failure and each recovery,
// so the broker can log them and answer health checks. It does not probe the disk: nothing is written for it.
import type { NereusError } from "@nereus/core";

/** A part of the store that writes (see the module comment). */
export type StoreWriter = "segment-log" | "segment-index" | "object-files";

/** The write health of a store: writable, or not since `since` (ms since the epoch) because of `reason`. */
export type StoreWriteHealth =
  | { readonly writable: true }
  | {
      readonly writable: false;
      /** The first failure's message, by the part that failed first. */
      readonly reason: string;
      readonly since: number;
      /** Writes that failed since then. */
      readonly failures: number;
      /** The parts failing now. */
      readonly failing: readonly StoreWriter[];
    };

/** What the store tells about its writes. Listeners must not throw (a throw is ignored). */
export interface StoreWriteHealthListener {
  /** A write failed; `health` is the state after it. */
  readonly onWriteFailure?: (error: NereusError, writer: StoreWriter, health: StoreWriteHealth) => void;
  /** Every part that failed wrote successfully since; `after` is the state that ended. */
  readonly onWritable?: (after: Extract<StoreWriteHealth, { writable: false }>) => void;
}

interface Failing {
  readonly reason: string;
  readonly since: number;
}

/** Tracks {@link StoreWriteHealth} from the reports of the store's writers. */
export class StoreWriteHealthTracker {
  readonly #listener: StoreWriteHealthListener;
  readonly #clock: () => number;
  readonly #failing = new Map<StoreWriter, Failing>();
  #failures = 0;

  constructor(listener: StoreWriteHealthListener = {}, clock: () => number = Date.now) {
    this.#listener = listener;
    this.#clock = clock;
  }

  get current(): StoreWriteHealth {
    let first: Failing | undefined;
    for (const failing of this.#failing.values())
      if (first === undefined || failing.since < first.since) first = failing;
    if (first === undefined) return { writable: true };
    return {
      writable: false,
      reason: first.reason,
      since: first.since,
      failures: this.#failures,
      failing: [...this.#failing.keys()],
    };
  }

  /** `writer` failed to write. */
  failed(writer: StoreWriter, error: NereusError): void {
    if (!this.#failing.has(writer)) this.#failing.set(writer, { reason: error.message, since: this.#clock() });
    this.#failures += 1;
    const health = this.current;
    try {
      this.#listener.onWriteFailure?.(error, writer, health);
    } catch {
      // A listener's failure must not change the outcome of the write.
    }
  }

  /** `writer` wrote successfully. */
  succeeded(writer: StoreWriter): void {
    if (this.#failing.size === 0 || !this.#failing.has(writer)) return;
    const before = this.current;
    this.#failing.delete(writer);
    if (this.#failing.size > 0 || before.writable) return;
    this.#failures = 0;
    try {
      this.#listener.onWritable?.(before);
    } catch {
      // As above.
    }
  }
}
