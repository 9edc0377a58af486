// One monotone deadline per operation (an append, a read, a lifecycle call, a recovery): every step of the
// operation runs under the same signal and never restarts with the full timeout. Measured on the monotone clock
// (`performance.now()`), so wall-clock jumps neither extend nor shorten it. Owns no buffers.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** Default timeout of an operation that names none (digest §9: append/read timeout 30 s). */
export const DEFAULT_OPERATION_TIMEOUT_MS = 30_000;

/**
 * A deadline plus the signals it combines (the caller's signal, the timeout, the owner's close signal).
 * Invariant: `signal` aborts no later than `timeoutMs` after `start`, and `error()` names the reason exactly:
 * `CANCELLED` (caller), `TIMEOUT` (deadline) or `STORAGE_CLOSED` (owner closed).
 */
export class Deadline {
  readonly signal: AbortSignal;
  readonly #expiresAt: number;
  readonly #caller: AbortSignal | undefined;
  readonly #closing: AbortSignal | undefined;

  private constructor(expiresAt: number, signal: AbortSignal, caller?: AbortSignal, closing?: AbortSignal) {
    this.#expiresAt = expiresAt;
    this.signal = signal;
    this.#caller = caller;
    this.#closing = closing;
  }

  /** Starts a deadline now. `timeoutMs` must be a positive finite number (INVALID_ARGUMENT otherwise). */
  static start(timeoutMs: number | undefined, caller?: AbortSignal, closing?: AbortSignal): Deadline {
    const ms = timeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS;
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, `timeoutMs must be a positive finite number, got ${String(ms)}`, {
        retryable: false,
      });
    }
    const signals = [AbortSignal.timeout(Math.ceil(ms))];
    if (caller !== undefined) signals.push(caller);
    if (closing !== undefined) signals.push(closing);
    return new Deadline(performance.now() + ms, AbortSignal.any(signals), caller, closing);
  }

  /**
   * A deadline shared by several operations (a group commit): it expires at the latest member deadline and its
   * signal aborts only once every member signal aborted (or `closing` aborts).
   */
  static union(members: readonly Deadline[], closing?: AbortSignal): Deadline {
    const first = members[0];
    if (first === undefined) throw new TypeError("Deadline.union needs at least one member");
    if (members.length === 1) return first;
    const controller = new AbortController();
    let pending = members.length;
    const onMemberAbort = (): void => {
      pending -= 1;
      if (pending === 0) controller.abort(new NereusError(ErrorCode.TIMEOUT, "every member deadline expired"));
    };
    for (const member of members) {
      if (member.signal.aborted) onMemberAbort();
      else member.signal.addEventListener("abort", onMemberAbort, { once: true });
    }
    const signal = closing === undefined ? controller.signal : AbortSignal.any([controller.signal, closing]);
    const expiresAt = Math.max(...members.map((member) => member.#expiresAt));
    return new Deadline(expiresAt, signal, undefined, closing);
  }

  /** Milliseconds left (0 when expired or aborted). */
  remainingMs(): number {
    if (this.signal.aborted) return 0;
    return Math.max(0, this.#expiresAt - performance.now());
  }

  get aborted(): boolean {
    return this.signal.aborted;
  }

  /** Throws `error(what)` when the deadline has passed or a signal aborted. */
  check(what: string): void {
    if (this.signal.aborted || performance.now() >= this.#expiresAt) throw this.error(what);
  }

  /** The error describing why this deadline ended (call once `aborted` or expired). */
  error(what: string): NereusError {
    if (this.#closing?.aborted === true) {
      return new NereusError(ErrorCode.STORAGE_CLOSED, `${what}: the stream store was closed`, { retryable: false });
    }
    if (this.#caller?.aborted === true) {
      return new NereusError(ErrorCode.CANCELLED, `${what}: cancelled by the caller`, {
        retryable: false,
        cause: this.#caller.reason,
      });
    }
    return new NereusError(ErrorCode.TIMEOUT, `${what}: deadline expired`);
  }
}
