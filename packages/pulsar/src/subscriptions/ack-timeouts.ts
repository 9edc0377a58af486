// One timer for the ack-timeout deadlines of a subscription: armed for the earliest deadline anyone asked for,
// re-armed by the subscription after each expiry. The clock is injected (tests advance a manual one).
import type { ClockTimer, DispatchClock } from "./dispatch-clock.js";

/** Calls `onExpired` once the earliest armed deadline has passed. */
export class AckTimeouts {
  readonly #clock: DispatchClock;
  readonly #onExpired: () => void;
  #timer: ClockTimer | undefined;
  #due: number | undefined;

  constructor(clock: DispatchClock, onExpired: () => void) {
    this.#clock = clock;
    this.#onExpired = onExpired;
  }

  /** Makes sure the timer fires no later than `deadline` (clock milliseconds). */
  arm(deadline: number): void {
    if (this.#due !== undefined && this.#due <= deadline) return;
    this.#timer?.cancel();
    this.#due = deadline;
    this.#timer = this.#clock.setTimer(deadline - this.#clock.now(), () => {
      this.#timer = undefined;
      this.#due = undefined;
      this.#onExpired();
    });
  }

  cancel(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#due = undefined;
  }
}
