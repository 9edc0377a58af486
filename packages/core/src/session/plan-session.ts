// The append-session state machine (docs/architecture.md §1) as a pure function: given the head a commit will be CASed
// against, decide which session the commit runs under and which session the new head carries. The decision is
// written by the same head CAS that commits the append (acquire and renew cost no extra round trip); fencing is
// the CAS on the head revision plus epoch/token, never a local clock or lock.
import type { AppendSession, StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { newFencingToken } from "../identity/fencing-token.js";
import { sameSession } from "./same-session.js";

export interface SessionPolicy {
  /** Lease length written on acquire/renew (>= 1 ms). */
  readonly ttlMs: number;
  /** Renew when less than this much lease remains (default: a third of the lease). */
  readonly renewBeforeMs: number;
  /** Take over a session of another writer once it has expired. */
  readonly stealExpired: boolean;
}

export interface SessionInput {
  readonly head: StreamHead;
  readonly writerId: string;
  /** The session this process acquired and still believes it holds on this stream. */
  readonly held: AppendSession | undefined;
  readonly nowMillis: number;
  readonly policy: SessionPolicy;
  /** Explicit ownership change: take a new epoch even over a live session of another writer. */
  readonly preempt?: boolean;
  /** Token source (tests inject a deterministic one). */
  readonly newToken?: () => string;
}

/**
 * `session` is what the commit is fenced by (its epoch and token hash enter the commit intent); `next` is what
 * the new head carries (equal to `session` unless renewed); `changed` says the head's session field changes.
 */
export interface SessionPlan {
  readonly kind: "keep" | "renew" | "acquire";
  readonly session: AppendSession;
  readonly next: AppendSession;
  readonly changed: boolean;
}

/**
 * Decides the session for a commit against `head`. Rules:
 * - held and current (same writer, epoch, token): keep; renew (`leaseVersion + 1`, new expiry) when less than
 *   `renewBeforeMs` remains; re-acquire with `epoch + 1` once expired.
 * - held but the head names another session: `FENCED_APPEND` (a newer owner exists).
 * - not held: acquire `epoch + 1` with a fresh token when the head has no session, a session of this same writer
 *   id (a previous run of this process, now fenced), an expired session (if `stealExpired`) or when `preempt`.
 *   A live session of another writer ⇒ `FENCED_APPEND`; an expired one with stealing off ⇒ `APPEND_SESSION_EXPIRED`.
 * Throws `NereusError` for those outcomes and `INVALID_ARGUMENT` for an expiry beyond the safe-integer range.
 */
export function planSession(input: SessionInput): SessionPlan {
  const { head, writerId, held, nowMillis, policy } = input;
  const current = head.session;
  const expiresAt = nowMillis + policy.ttlMs;
  if (!Number.isSafeInteger(expiresAt) || policy.ttlMs < 1) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "session expiry is out of range", { retryable: false });
  }
  const acquire = (): SessionPlan => {
    const session: AppendSession = {
      writerId,
      epoch: (current?.epoch ?? 0) + 1,
      fencingToken: (input.newToken ?? newFencingToken)(),
      leaseVersion: 1,
      expiresAtMillis: expiresAt,
    };
    return { kind: "acquire", session, next: session, changed: true };
  };
  if (held !== undefined) {
    if (current === undefined || !sameSession(current, held)) {
      throw fenced(head, `this writer's session (epoch ${String(held.epoch)}) was replaced`);
    }
    const remaining = current.expiresAtMillis - nowMillis;
    if (remaining <= 0) return acquire();
    if (remaining >= policy.renewBeforeMs) return { kind: "keep", session: current, next: current, changed: false };
    const next: AppendSession = { ...current, leaseVersion: current.leaseVersion + 1, expiresAtMillis: expiresAt };
    return { kind: "renew", session: current, next, changed: true };
  }
  if (input.preempt === true || current === undefined || current.writerId === writerId) return acquire();
  if (current.expiresAtMillis <= nowMillis) {
    if (policy.stealExpired) return acquire();
    throw new NereusError(
      ErrorCode.APPEND_SESSION_EXPIRED,
      `stream ${head.streamId}: the session of writer ${current.writerId} expired and stealing is disabled`,
      { retryable: false },
    );
  }
  throw fenced(head, `writer ${current.writerId} holds a live session (epoch ${String(current.epoch)})`);
}

function fenced(head: StreamHead, reason: string): NereusError {
  return new NereusError(ErrorCode.FENCED_APPEND, `stream ${head.streamId}: append fenced: ${reason}`, {
    retryable: false,
    details: { streamId: head.streamId, epoch: head.session?.epoch },
  });
}
