// A latency histogram in shared memory. A worker thread that does a store's physical I/O (a segment write and its
// fdatasync, a SQLite commit and the datasync of its `-wal` file) records how long each step took with a few atomic
// adds — no message, no lock, nothing on the event loop — and the main thread reads a snapshot when /metrics is
// scraped. The worker attaches to the histogram's handle (`SharedLatencyHistogram.attach`) and records with
// `observeNanos`, the same code the main thread would run.
// Layout (`BigInt64Array` over `words`): [0] observations, [1] their sum in nanoseconds, [2 + i] observations that
// fell into bucket i (at most `boundsNanos[i]`, above the bound before it), [2 + bounds] those above every bound.

/** Default bucket upper bounds in seconds: 50 us to 1 s, fine enough to tell a page-cache write from a device flush. */
const DEFAULT_LATENCY_BOUNDS_SECONDS: readonly number[] = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 1,
];

/** The part of a histogram that crosses threads (structured-clonable): its words and bucket bounds. */
export interface SharedLatencyHistogramHandle {
  readonly words: SharedArrayBuffer;
  /** Bucket upper bounds in nanoseconds, strictly ascending. */
  readonly boundsNanos: readonly number[];
}

/** A histogram as read at one moment; `buckets` are cumulative (Prometheus style) and end with `le: Infinity`. */
export interface LatencySnapshot {
  readonly count: number;
  readonly sumSeconds: number;
  readonly buckets: ReadonlyArray<{ readonly le: number; readonly count: number }>;
}

/**
 * See the module comment. Invariants: counts only grow; a snapshot taken while a worker records may count an
 * observation in `count` a moment before or after its bucket (each word is exact, the set is not one atomic read).
 */
export class SharedLatencyHistogram {
  readonly handle: SharedLatencyHistogramHandle;
  readonly #view: BigInt64Array;

  private constructor(handle: SharedLatencyHistogramHandle) {
    this.handle = handle;
    this.#view = new BigInt64Array(handle.words);
  }

  /** A zeroed histogram with bucket upper bounds `boundsSeconds` (positive, strictly ascending). */
  static create(boundsSeconds: readonly number[] = DEFAULT_LATENCY_BOUNDS_SECONDS): SharedLatencyHistogram {
    if (boundsSeconds.length === 0) throw new RangeError("a latency histogram needs at least one bucket bound");
    const boundsNanos = boundsSeconds.map((seconds, index) => {
      if (!(Number.isFinite(seconds) && seconds > 0))
        throw new RangeError(`bucket bound ${String(seconds)} is not a positive number of seconds`);
      if (index > 0 && seconds <= (boundsSeconds[index - 1] as number))
        throw new RangeError("bucket bounds must be strictly ascending");
      return Math.round(seconds * 1e9);
    });
    const words = new SharedArrayBuffer((2 + boundsNanos.length + 1) * BigInt64Array.BYTES_PER_ELEMENT);
    return new SharedLatencyHistogram({ words, boundsNanos });
  }

  /**
   * The histogram whose words `handle` names, as another thread received it (a worker given `histogram.handle`):
   * what it records lands in the same shared words.
   */
  static attach(handle: SharedLatencyHistogramHandle): SharedLatencyHistogram {
    return new SharedLatencyHistogram(handle);
  }

  /** Records one duration (on whichever thread holds this histogram). */
  observeNanos(nanos: bigint): void {
    if (nanos < 0n) throw new RangeError(`a duration cannot be negative, got ${String(nanos)} ns`);
    const bounds = this.handle.boundsNanos;
    let bucket = 0;
    while (bucket < bounds.length && nanos > BigInt(bounds[bucket] as number)) bucket += 1;
    Atomics.add(this.#view, 2 + bucket, 1n);
    Atomics.add(this.#view, 1, nanos);
    Atomics.add(this.#view, 0, 1n);
  }

  snapshot(): LatencySnapshot {
    const bounds = this.handle.boundsNanos;
    const buckets: Array<{ le: number; count: number }> = [];
    let cumulative = 0;
    for (let bucket = 0; bucket <= bounds.length; bucket += 1) {
      cumulative += Number(Atomics.load(this.#view, 2 + bucket));
      buckets.push({
        le: bucket < bounds.length ? (bounds[bucket] as number) / 1e9 : Number.POSITIVE_INFINITY,
        count: cumulative,
      });
    }
    return {
      count: Number(Atomics.load(this.#view, 0)),
      sumSeconds: Number(Atomics.load(this.#view, 1)) / 1e9,
      buckets,
    };
  }
}
