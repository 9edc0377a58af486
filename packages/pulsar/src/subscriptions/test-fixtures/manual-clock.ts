// A clock tests move by hand: `advance` runs the timers that fall due, in deadline order. Test-only.
import type { ClockTimer, DispatchClock } from "../dispatch-clock.js";

interface Scheduled {
  readonly at: number;
  readonly sequence: number;
  readonly callback: () => void;
  cancelled: boolean;
}

export class ManualClock implements DispatchClock {
  #now: number;
  #sequence = 0;
  #timers: Scheduled[] = [];

  constructor(start = 1_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(delayMs: number, callback: () => void): ClockTimer {
    const timer: Scheduled = {
      at: this.#now + Math.max(0, delayMs),
      sequence: this.#sequence++,
      callback,
      cancelled: false,
    };
    this.#timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Timers not yet run or cancelled. */
  get pending(): number {
    return this.#timers.filter((timer) => !timer.cancelled).length;
  }

  /** Moves time forward by `ms`, running every timer due on the way. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      const due = this.#timers
        .filter((timer) => !timer.cancelled && timer.at <= target)
        .sort((left, right) => left.at - right.at || left.sequence - right.sequence)[0];
      if (due === undefined) break;
      due.cancelled = true;
      this.#now = due.at;
      due.callback();
    }
    this.#timers = this.#timers.filter((timer) => !timer.cancelled);
    this.#now = target;
  }
}
