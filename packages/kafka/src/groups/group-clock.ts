// The time source of the group coordinator: a millisecond clock and one-shot timers. The system clock uses
// unref'd Node timers (a pending session timeout never keeps a process alive); tests pass a ManualGroupClock.

/** A scheduled callback; `cancel` is idempotent. */
export interface GroupTimer {
  cancel(): void;
}

/** Clock and timers. `schedule` never calls back synchronously. */
export interface GroupClock {
  now(): number;
  schedule(delayMs: number, callback: () => void): GroupTimer;
}

/** `Date.now` and unref'd `setTimeout`. */
export const systemGroupClock: GroupClock = {
  now: () => Date.now(),
  schedule(delayMs, callback) {
    const handle = setTimeout(callback, Math.max(0, delayMs));
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
};
