// What a failed start must undo: each step that opened something pushes how to close it, and a failure runs them
// in reverse order. A cleanup that fails is logged and the rest still run. The steps own nothing else.
import type { BrokerLogger } from "../logging/broker-logger.js";

/** The undo steps of a start in progress. */
export class StartupUndo {
  readonly #steps: Array<() => Promise<void> | void> = [];

  /** Registers how to undo what was just opened. */
  push(step: () => Promise<void> | void): void {
    this.#steps.push(step);
  }

  /** Runs every step, newest first; never throws. */
  async rollback(logger: BrokerLogger): Promise<void> {
    for (const step of this.#steps.reverse()) {
      try {
        await step();
      } catch (error) {
        logger.warn("cleanup after a failed start failed", { error });
      }
    }
  }
}
