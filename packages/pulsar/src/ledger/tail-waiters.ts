// Readers parked at the end of a ledger: each waits until the committed end passes the offset it wants to read
// next. The ledger advances the end after every committed append and releases everyone when no more entries will
// come (terminated) or fails them when it closes. A waiter registers synchronously after checking the end, so no
// append can slip between the check and the registration (no lost wake-up).

interface Waiter {
  readonly offset: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  readonly detach: () => void;
}

/** The parked readers of one ledger. */
export class TailWaiters {
  #waiters: Waiter[] = [];

  /** Parked readers. */
  get size(): number {
    return this.#waiters.length;
  }

  /**
   * Resolves once the committed end exceeds `offset` (at once when `currentEnd` already does). Rejects with the
   * signal's reason when `signal` aborts first.
   */
  wait(offset: number, currentEnd: number, signal?: AbortSignal): Promise<void> {
    if (currentEnd > offset) return Promise.resolve();
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiters = this.#waiters.filter((waiter) => waiter !== entry);
        reject(signal?.reason);
      };
      const entry: Waiter = {
        offset,
        resolve,
        reject,
        detach: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(entry);
    });
  }

  /** Wakes every reader waiting for an offset below `committedEnd`. */
  advance(committedEnd: number): void {
    if (this.#waiters.length === 0) return;
    const woken = this.#waiters.filter((waiter) => waiter.offset < committedEnd);
    if (woken.length === 0) return;
    this.#waiters = this.#waiters.filter((waiter) => waiter.offset >= committedEnd);
    for (const waiter of woken) {
      waiter.detach();
      waiter.resolve();
    }
  }

  /** Wakes every reader (the caller re-checks the ledger's state). */
  releaseAll(): void {
    const all = this.#waiters;
    this.#waiters = [];
    for (const waiter of all) {
      waiter.detach();
      waiter.resolve();
    }
  }

  /** Fails every reader with `error`. */
  failAll(error: unknown): void {
    const all = this.#waiters;
    this.#waiters = [];
    for (const waiter of all) {
      waiter.detach();
      waiter.reject(error);
    }
  }
}
