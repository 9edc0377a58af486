// One monotone deadline per operation (an append, a read, a lifecycle call, a recovery): every step of the
// operation runs under the same signal and never restarts with the full timeout. Measured on the monotone clock
// (`performance.now()`), so wall-clock jumps neither extend nor shorten it. Owns no buffers.
//
// Cost: one AbortController and one unref'd timer per deadline. The sources it combines (the caller's signal, the
// owner's close signal) are watched through one listener per source signal, shared by every deadline that names
// it (joining and leaving is O(1)), instead of `AbortSignal.any`/`AbortSignal.timeout`, whose per-call
// bookkeeping on a long-lived close signal grows with every operation. `dispose()` (called once the operation has
// settled) stops the timer and leaves the sources at once; without it a deadline cleans up when it ends.
// Its own signal takes any number of listeners without Node's leak warning: every concurrent step of the one
// operation listens to it (a read of many ranges listens once per range) and leaves when the step settles.
import { setMaxListeners } from "node:events";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** Default timeout of an operation that names none (30 s; docs/architecture.md §10). */
const DEFAULT_OPERATION_TIMEOUT_MS = 30_000;

/**
 * A deadline plus the signals it combines (the caller's signal, the timeout, the owner's close signal).
 * Invariant: `signal` aborts no later than `timeoutMs` after `start` (unless disposed first), and `error()` names
 * the reason exactly: `CANCELLED` (caller), `TIMEOUT` (deadline) or `STORAGE_CLOSED` (owner closed). The signal's
 * `reason` is the first source's reason (a `TimeoutError` DOMException for the timeout), as with `AbortSignal.any`.
 */
export class Deadline {
  /** Deadlines watching each source signal; the source's one listener aborts them all. */
  static readonly #watchers = new WeakMap<AbortSignal, Set<Deadline>>();

  readonly signal: AbortSignal;
  readonly #expiresAt: number;
  readonly #caller: AbortSignal | undefined;
  readonly #closing: AbortSignal | undefined;
  /** Set when this deadline owns its signal (not a view of another deadline's). */
  readonly #controller: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Sources this deadline currently watches. */
  #watched: AbortSignal[] | undefined;
  /** A union's listener on its member signals, with the members. */
  #memberListener: { readonly members: readonly Deadline[]; readonly listener: () => void } | undefined;

  private constructor(
    expiresAt: number,
    signal: AbortSignal,
    controller: AbortController | undefined,
    caller?: AbortSignal,
    closing?: AbortSignal,
  ) {
    this.#expiresAt = expiresAt;
    this.signal = signal;
    if (controller !== undefined) setMaxListeners(0, signal);
    this.#controller = controller;
    this.#caller = caller;
    this.#closing = closing;
  }

  /** Starts a deadline now. `timeoutMs` must be a positive finite number (INVALID_ARGUMENT otherwise). */
  static start(timeoutMs: number | undefined, caller?: AbortSignal, closing?: AbortSignal): Deadline {
    const ms = timeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS;
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `timeoutMs must be a positive finite number, got ${String(ms)}`,
        {
          retryable: false,
        },
      );
    }
    const delay = Math.ceil(ms);
    // Beyond u32 AbortSignal.timeout threw ERR_OUT_OF_RANGE; such a timeout still fails exactly that way.
    if (delay > 0xffff_ffff) AbortSignal.timeout(delay);
    const controller = new AbortController();
    const deadline = new Deadline(performance.now() + ms, controller.signal, controller, caller, closing);
    // An already-aborted source wins at once, in the order AbortSignal.any([timeout, caller, closing]) would pick.
    if (caller?.aborted === true) controller.abort(caller.reason);
    else if (closing?.aborted === true) controller.abort(closing.reason);
    else {
      const timer = setTimeout(Deadline.#onTimeout, delay, deadline);
      timer.unref?.();
      deadline.#timer = timer;
      if (caller !== undefined) deadline.#watch(caller);
      if (closing !== undefined) deadline.#watch(closing);
    }
    return deadline;
  }

  /**
   * A deadline shared by several operations (a group commit): it expires at the latest member deadline and its
   * signal aborts only once every member signal aborted (or `closing` aborts). With one member it is a view of that
   * member (same signal; disposing the view leaves the member untouched). Dispose a union once it is unused.
   */
  static union(members: readonly Deadline[], closing?: AbortSignal): Deadline {
    const first = members[0];
    if (first === undefined) throw new TypeError("Deadline.union needs at least one member");
    if (members.length === 1)
      return new Deadline(first.#expiresAt, first.signal, undefined, first.#caller, first.#closing);
    const controller = new AbortController();
    const expiresAt = Math.max(...members.map((member) => member.#expiresAt));
    const union = new Deadline(expiresAt, controller.signal, controller, undefined, closing);
    let pending = members.length;
    const onMemberAbort = (): void => {
      pending -= 1;
      if (pending === 0) union.#abort(new NereusError(ErrorCode.TIMEOUT, "every member deadline expired"));
    };
    union.#memberListener = { members, listener: onMemberAbort };
    for (const member of members) {
      if (member.signal.aborted) onMemberAbort();
      else member.signal.addEventListener("abort", onMemberAbort, { once: true });
    }
    if (!union.signal.aborted && closing !== undefined) {
      if (closing.aborted) union.#abort(closing.reason);
      else union.#watch(closing);
    }
    return union;
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

  /**
   * Releases the timer and the source listeners once the operation has settled: the signal will no longer abort
   * (an already aborted one stays aborted). Idempotent; a no-op for a one-member union view.
   */
  dispose(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const watched = this.#watched;
    if (watched !== undefined) {
      this.#watched = undefined;
      for (const source of watched) Deadline.#watchers.get(source)?.delete(this);
    }
    const members = this.#memberListener;
    if (members !== undefined) {
      this.#memberListener = undefined;
      for (const member of members.members) member.signal.removeEventListener("abort", members.listener);
    }
  }

  static #onTimeout(this: void, deadline: Deadline): void {
    deadline.#timer = undefined;
    deadline.#abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
  }

  #abort(reason: unknown): void {
    const controller = this.#controller;
    if (controller === undefined || controller.signal.aborted) return;
    this.dispose();
    controller.abort(reason);
  }

  #watch(source: AbortSignal): void {
    let watchers = Deadline.#watchers.get(source);
    if (watchers === undefined) {
      const created = new Set<Deadline>();
      watchers = created;
      Deadline.#watchers.set(source, created);
      source.addEventListener(
        "abort",
        () => {
          Deadline.#watchers.delete(source);
          for (const deadline of [...created]) deadline.#abort(source.reason);
          created.clear();
        },
        { once: true },
      );
    }
    watchers.add(this);
    (this.#watched ??= []).push(source);
  }
}
