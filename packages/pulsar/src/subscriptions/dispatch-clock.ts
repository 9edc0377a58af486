// The clock of ack-timeout redelivery: current time and one-shot timers. Tests pass a manual clock; brokers use
// the system clock, whose timers do not keep the process alive.

/** A scheduled callback; `cancel` is idempotent. */
export interface ClockTimer {
  cancel(): void;
}

/** Milliseconds and one-shot timers. */
export interface DispatchClock {
  now(): number;
  /** Calls `callback` once, `delayMs` from now, unless cancelled first. */
  setTimer(delayMs: number, callback: () => void): ClockTimer;
}

/** Wall-clock time and unref'd Node.js timers. */
export const systemClock: DispatchClock = {
  now: () => Date.now(),
  setTimer(delayMs, callback) {
    const timer = setTimeout(callback, Math.max(0, delayMs));
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};
