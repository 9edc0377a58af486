// Rate limiting for log lines that a flood can repeat (refused connections, writes failing on a full disk): the first
// event is written at once, later ones at most once per interval, each line with the number of events it stood for.

/** Writes an event at most once per interval, telling each write how many events were left out since the last. */
export class RateLimitedLog {
  readonly #intervalMs: number;
  readonly #clock: () => number;
  #lastAt = Number.NEGATIVE_INFINITY;
  #suppressed = 0;

  constructor(intervalMs: number, clock: () => number = Date.now) {
    this.#intervalMs = intervalMs;
    this.#clock = clock;
  }

  /** Calls `write(suppressed)` when the interval has passed since the last write; else counts the event. */
  record(write: (suppressed: number) => void): void {
    const now = this.#clock();
    if (now - this.#lastAt < this.#intervalMs) {
      this.#suppressed += 1;
      return;
    }
    const suppressed = this.#suppressed;
    this.#suppressed = 0;
    this.#lastAt = now;
    write(suppressed);
  }

  /** Forgets the last write: the next event is written at once. */
  reset(): void {
    this.#lastAt = Number.NEGATIVE_INFINITY;
    this.#suppressed = 0;
  }
}
