// Whether foreground work keeps the process busy: the bytes appended and read per second, sampled from monotone
// counters (the WAL writer's object bytes, the foreground reader's requested bytes), against a threshold. The
// materialization worker asks it before background work, so that work waits for a quieter moment instead of taking
// CPU and disk from appends and reads. Cheap: one subtraction per call; the rate is re-measured at most every
// `windowMs` (250 ms by default: background work that started in a quiet moment sees returning traffic within a
// quarter second; with 1 s windows it went on for a second or more into it, and the fixed-rate p99 of the Kafka
// benchmark doubled).
import { performance } from "node:perf_hooks";

/** Default shortest window of {@link ForegroundActivity}'s rate measurement. */
const DEFAULT_FOREGROUND_WINDOW_MS = 250;

export interface ForegroundActivityOptions {
  /** Monotone total of foreground bytes (appended + read) so far. */
  readonly total: () => number;
  /** At or above this many foreground bytes per second the process counts as busy (> 0). */
  readonly busyBytesPerSecond: number;
  /** Shortest window the rate is measured over (default {@link DEFAULT_FOREGROUND_WINDOW_MS}). */
  readonly windowMs?: number;
  readonly now?: () => number;
}

/**
 * Foreground load as a busy/not-busy verdict. Invariant: the verdict is the rate over the last completed window
 * (at least `windowMs` long; longer when nobody asked meanwhile); before the first window completes it is "busy"
 * if any foreground bytes were seen, so a burst right after start does not trigger background work.
 */
export class ForegroundActivity {
  readonly #total: () => number;
  readonly #threshold: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  #sampleAt: number;
  #sampleTotal: number;
  #busy: boolean | undefined;

  constructor(options: ForegroundActivityOptions) {
    if (!(Number.isFinite(options.busyBytesPerSecond) && options.busyBytesPerSecond > 0)) {
      throw new RangeError(`busyBytesPerSecond must be a positive number, got ${String(options.busyBytesPerSecond)}`);
    }
    const windowMs = options.windowMs ?? DEFAULT_FOREGROUND_WINDOW_MS;
    if (!(Number.isFinite(windowMs) && windowMs > 0))
      throw new RangeError(`windowMs must be a positive number, got ${String(windowMs)}`);
    this.#total = options.total;
    this.#threshold = options.busyBytesPerSecond;
    this.#windowMs = windowMs;
    this.#now = options.now ?? (() => performance.now());
    this.#sampleAt = this.#now();
    this.#sampleTotal = this.#total();
  }

  /** True while foreground bytes flow at `busyBytesPerSecond` or more. */
  busy(): boolean {
    const now = this.#now();
    const elapsed = now - this.#sampleAt;
    if (elapsed >= this.#windowMs) {
      const total = this.#total();
      this.#busy = ((total - this.#sampleTotal) * 1000) / elapsed >= this.#threshold;
      this.#sampleAt = now;
      this.#sampleTotal = total;
    }
    return this.#busy ?? this.#total() > this.#sampleTotal;
  }
}
