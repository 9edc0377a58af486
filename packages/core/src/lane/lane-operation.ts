// A non-append task that must run in lane order (seal, delete, trim, session acquisition): it waits for every
// earlier accepted append and recovery of the same stream, and later appends wait for it.
import type { Deadline } from "../timing/deadline.js";

/** What a lane needs of a queued task, independent of its result type. */
export interface LaneTask {
  readonly kind: "operation";
  readonly deadline: Deadline;
  readonly state: "queued" | "running" | "settled";
  execute(): Promise<void>;
  reject(error: unknown): void;
}

/** A queued lane task with its own deadline. Settles exactly once. */
export class LaneOperation<T = unknown> implements LaneTask {
  readonly kind = "operation" as const;
  readonly deadline: Deadline;
  readonly promise: Promise<T>;
  state: "queued" | "running" | "settled" = "queued";
  readonly #body: () => Promise<T>;
  #resolve: (value: T) => void = () => undefined;
  #reject: (error: unknown) => void = () => undefined;

  constructor(deadline: Deadline, body: () => Promise<T>) {
    this.deadline = deadline;
    this.#body = body;
    this.promise = new Promise<T>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** Runs the body once and settles with its outcome. Never throws. */
  async execute(): Promise<void> {
    if (this.state !== "queued") return;
    this.state = "running";
    try {
      const value = await this.#body();
      this.#settle(() => this.#resolve(value));
    } catch (error) {
      this.#settle(() => this.#reject(error));
    }
  }

  reject(error: unknown): void {
    this.#settle(() => this.#reject(error));
  }

  #settle(action: () => void): void {
    if (this.state === "settled") return;
    this.state = "settled";
    action();
  }
}
