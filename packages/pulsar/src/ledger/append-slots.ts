// A bound on the appends the managed ledgers of one factory have in flight in the stream store. The store refuses
// appends beyond its process-wide budget (BACKPRESSURE_REJECTED), and a refused append fails every entry admitted
// behind it in its ledger; so an append waits here, first come first served, for one of `limit` slots instead. No I/O.
import { ErrorCode, NereusError } from "@nereus/core";

/** Default slots of a factory: half the stream store's default budget of 1,024 pending appends. */
const DEFAULT_APPEND_SLOTS = 512;

/** A first-come-first-served counting semaphore. Invariant: `release` follows exactly one `acquire`. */
export class AppendSlots {
  readonly #limit: number;
  #used = 0;
  readonly #waiting: (() => void)[] = [];
  #head = 0;

  constructor(limit = DEFAULT_APPEND_SLOTS) {
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `append slots must be a positive integer, got ${String(limit)}`,
      );
    }
    this.#limit = limit;
  }

  /** Slots held now. */
  get used(): number {
    return this.#used;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length - this.#head;
  }

  /** Resolves once the caller holds a slot; slots go to callers in call order. */
  acquire(): Promise<void> {
    if (this.#used < this.#limit && this.waiting === 0) {
      this.#used += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Gives a held slot back (to the longest waiting caller, if any). */
  release(): void {
    if (this.waiting === 0) {
      this.#used -= 1;
      return;
    }
    const next = this.#waiting[this.#head]!;
    this.#head += 1;
    if (this.#head > 1_024 && this.#head * 2 > this.#waiting.length) {
      this.#waiting.splice(0, this.#head);
      this.#head = 0;
    }
    next();
  }
}
