// The deadline of one cursor operation: fixed when the operation is submitted, including the time it waits in the
// lane and every CAS retry. Cheap to create (a number and the caller's signal): the timer-backed signal that aborts
// a hung store call is made only per attempt, by `signalFor`, and a group commit uses the latest member deadline.
import { ErrorCode, NereusError } from "@nereus/core";

/** Deadline of one operation. Invariant: `expired()` never turns false again once true. */
export class OperationDeadline {
  /** `performance.now()` value at which the operation times out. */
  readonly expiresAt: number;
  /** The caller's cancellation signal, if any. */
  readonly caller: AbortSignal | undefined;

  private constructor(expiresAt: number, caller: AbortSignal | undefined) {
    this.expiresAt = expiresAt;
    this.caller = caller;
  }

  /** A deadline `timeoutMs` from now, also ended by `caller`. */
  static start(timeoutMs: number, caller?: AbortSignal): OperationDeadline {
    return new OperationDeadline(performance.now() + timeoutMs, caller);
  }

  /** The deadline of a group commit: the latest member's, not cancelled by any one member's signal. */
  static latest(members: readonly OperationDeadline[]): OperationDeadline {
    let expiresAt = 0;
    for (const member of members) expiresAt = Math.max(expiresAt, member.expiresAt);
    return new OperationDeadline(expiresAt, undefined);
  }

  /** Milliseconds left (0 once expired or cancelled). */
  remainingMs(): number {
    if (this.caller?.aborted === true) return 0;
    return Math.max(0, this.expiresAt - performance.now());
  }

  expired(): boolean {
    return this.remainingMs() === 0;
  }

  /** A signal that aborts when this deadline ends (for one store call). */
  signal(): AbortSignal {
    const timeout = AbortSignal.timeout(Math.max(1, Math.ceil(this.remainingMs())));
    return this.caller === undefined ? timeout : AbortSignal.any([timeout, this.caller]);
  }

  /** CANCELLED when the caller aborted, TIMEOUT (retryable) otherwise. */
  error(what: string, cause?: unknown): NereusError {
    if (this.caller?.aborted === true) {
      return new NereusError(ErrorCode.CANCELLED, `${what}: cancelled by the caller`, {
        retryable: false,
        cause: cause ?? this.caller.reason,
      });
    }
    return new NereusError(ErrorCode.TIMEOUT, `${what}: deadline expired`, { retryable: true, cause });
  }
}
