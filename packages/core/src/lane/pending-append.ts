// One caller's append while it waits in (or runs from) its stream lane: the validated batch, the resolved plan,
// its own deadline and the promise the caller awaits. Settles exactly once.
import type { AppendResult } from "../domain/append-types.js";
import type { AppendFailedError } from "../errors/append-outcome.js";
import type { Deadline } from "../timing/deadline.js";
import type { ExecutionPlan } from "../profiles/resolve-execution-plan.js";
import type { ValidatedBatch } from "../domain/validated-batch.js";

export type PendingState = "queued" | "running" | "settled";

/** A queued or running append. Invariant: `resolve`/`reject` take effect only for the first call. */
export class PendingAppend {
  readonly kind = "append" as const;
  readonly batch: ValidatedBatch;
  readonly plan: ExecutionPlan;
  readonly expectedStartOffset: number | undefined;
  readonly deadline: Deadline;
  readonly promise: Promise<AppendResult>;
  state: PendingState = "queued";
  /** Assigned when the append joins a physical attempt. */
  attemptId: string | undefined;
  #resolve: (result: AppendResult) => void = () => undefined;
  #reject: (error: AppendFailedError) => void = () => undefined;

  constructor(batch: ValidatedBatch, plan: ExecutionPlan, expectedStartOffset: number | undefined, deadline: Deadline) {
    this.batch = batch;
    this.plan = plan;
    this.expectedStartOffset = expectedStartOffset;
    this.deadline = deadline;
    this.promise = new Promise<AppendResult>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** Delivers a result; returns false when the append was already settled (e.g. its caller gave up earlier). */
  resolve(result: AppendResult): boolean {
    if (this.state === "settled") return false;
    this.state = "settled";
    this.#resolve(result);
    return true;
  }

  reject(error: AppendFailedError): boolean {
    if (this.state === "settled") return false;
    this.state = "settled";
    this.#reject(error);
    return true;
  }
}
