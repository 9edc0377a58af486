// The materialized coverage of each stream as this process last saw it: the materialization worker raises it after
// it publishes a generation, the lag admission hook and the REQUIRED_OBJECT_GENERATION coordinator read it and wait
// for it to rise. A hint only: it may be stale-low (coverage never shrinks), never ahead of metadata, so readers that
// must be sure re-read the materialization state.

/** Materialized coverage of a stream as last seen by this process. */
export interface StreamCoverage {
  readonly materializedEnd: number;
  readonly materializedCumulativeSize: number;
}

/** Coverage per stream, shared by the admission hook (reads) and the worker (writes after it publishes). */
export class CoverageCache {
  readonly #byStream = new Map<string, StreamCoverage>();
  readonly #waiters = new Map<string, Set<() => void>>();

  /** Resolves at the next `update` that raises the stream's coverage, or when `signal` aborts (never rejects). */
  changed(streamId: string, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const waiters = this.#waiters.get(streamId) ?? new Set<() => void>();
      this.#waiters.set(streamId, waiters);
      const done = (): void => {
        waiters.delete(done);
        if (waiters.size === 0 && this.#waiters.get(streamId) === waiters) this.#waiters.delete(streamId);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  get(streamId: string): StreamCoverage | undefined {
    return this.#byStream.get(streamId);
  }

  /** Records `coverage` unless a higher one is already known (coverage never shrinks). */
  update(streamId: string, coverage: StreamCoverage): void {
    const known = this.#byStream.get(streamId);
    if (known !== undefined && known.materializedEnd >= coverage.materializedEnd) return;
    if (this.#byStream.size >= 100_000) this.#byStream.clear();
    this.#byStream.set(streamId, coverage);
    for (const wake of [...(this.#waiters.get(streamId) ?? [])]) wake();
  }
}
