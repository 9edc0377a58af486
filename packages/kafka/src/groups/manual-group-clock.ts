// A GroupClock for tests: time moves only when `advance` is called, which fires due timers in deadline order
// (ties in scheduling order) and lets promise callbacks settle between them.

import type { GroupClock, GroupTimer } from "./group-clock.js";

interface Scheduled {
  readonly at: number;
  readonly sequence: number;
  readonly callback: () => void;
  cancelled: boolean;
}

/** Manually advanced clock; `pending` counts live timers (to assert that nothing leaks). */
export class ManualGroupClock implements GroupClock {
  #now: number;
  #sequence = 0;
  readonly #timers = new Set<Scheduled>();

  constructor(startMs = 1_000_000) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  get pending(): number {
    return this.#timers.size;
  }

  schedule(delayMs: number, callback: () => void): GroupTimer {
    const entry: Scheduled = {
      at: this.#now + Math.max(0, delayMs),
      sequence: this.#sequence++,
      callback,
      cancelled: false,
    };
    this.#timers.add(entry);
    return {
      cancel: () => {
        entry.cancelled = true;
        this.#timers.delete(entry);
      },
    };
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await settle();
      let next: Scheduled | undefined;
      for (const entry of this.#timers) {
        if (
          entry.at <= target &&
          (next === undefined || entry.at < next.at || (entry.at === next.at && entry.sequence < next.sequence))
        )
          next = entry;
      }
      if (next === undefined) break;
      this.#timers.delete(next);
      this.#now = Math.max(this.#now, next.at);
      next.callback();
    }
    this.#now = target;
    await settle();
  }
}

/** Lets every queued promise callback run (setImmediate comes after the microtask queue drains). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
