// A token bucket: `ratePerSecond` tokens a second, at most `capacity` saved up (a full bucket at start). How the
// broker paces topic auto-creation: a take that finds no token is refused at once (the caller answers a retriable
// error); nothing waits. Time comes from the given clock, so tests drive it.

/** A token bucket over a millisecond clock. */
export class TokenBucket {
  readonly ratePerSecond: number;
  readonly capacity: number;
  readonly #clock: () => number;
  #tokens: number;
  #at: number;

  /** `ratePerSecond` > 0 tokens a second, at most `capacity` >= 1 saved; starts full. */
  constructor(ratePerSecond: number, capacity: number, clock: () => number) {
    this.ratePerSecond = ratePerSecond;
    this.capacity = capacity;
    this.#clock = clock;
    this.#tokens = capacity;
    this.#at = clock();
  }

  /** Takes one token when there is one (true), else takes nothing (false). */
  tryTake(): boolean {
    const now = this.#clock();
    if (now > this.#at) {
      this.#tokens = Math.min(this.capacity, this.#tokens + ((now - this.#at) * this.ratePerSecond) / 1000);
      this.#at = now;
    }
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
