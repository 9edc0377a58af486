// Open/closed state shared by the object stores: refuses calls after close (STORAGE_CLOSED) and on an already
// aborted signal (CANCELLED) before any I/O, tracks in-flight calls, and lets close() wait for them to settle.
// It does not cancel in-flight calls; callers abort their own signals for that.
import { ErrorCode, NereusError } from "@nereus/core";

/** Invariant: once `close()` was called, `run` rejects every new call; `close()` resolves after in-flight calls. */
export class StoreLifecycle {
  readonly #storeName: string;
  readonly #inFlight = new Set<Promise<unknown>>();
  #closing: Promise<void> | undefined;

  constructor(storeName: string) {
    this.#storeName = storeName;
  }

  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /** Runs `body` unless the store is closed or `signal` is already aborted (then rejects without calling it). */
  async run<T>(operation: string, signal: AbortSignal | undefined, body: () => Promise<T>): Promise<T> {
    if (this.#closing !== undefined) {
      throw new NereusError(ErrorCode.STORAGE_CLOSED, `${this.#storeName} is closed (${operation})`, {
        retryable: false,
        details: { operation },
      });
    }
    if (signal?.aborted === true) {
      throw new NereusError(ErrorCode.CANCELLED, `${this.#storeName} ${operation} cancelled before it was sent`, {
        retryable: false,
        cause: signal.reason,
        details: { operation },
      });
    }
    const call = body();
    this.#inFlight.add(call);
    try {
      return await call;
    } finally {
      this.#inFlight.delete(call);
    }
  }

  /** Counts `work`, started by a call `run` admitted, as in flight until it settles (close waits for it). */
  track(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.#inFlight.add(settled);
    void settled.then(() => this.#inFlight.delete(settled));
  }

  /** Idempotent: the first call stops new calls, waits for in-flight ones to settle, then runs `release` once. */
  close(release: () => Promise<void> | void): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.allSettled([...this.#inFlight]);
      await release();
    })();
    return this.#closing;
  }
}
