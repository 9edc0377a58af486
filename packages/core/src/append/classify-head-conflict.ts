// Classifies a head CAS that lost (docs/architecture.md §3.3) from the values the failed transaction read back. Pure.
// Order matters: our own commit beats everything; a stale epoch/token wins over an offset conflict; a state change
// is STREAM_NOT_ACTIVE; a change that left end/size/version/lastCommitId alone (renew, trim) is retried.
import type { AppendSession, StreamHead } from "../domain/stream-head.js";
import type { ErrorCode } from "../errors/error-code.js";
import { sameSession } from "../session/same-session.js";

export type HeadConflictVerdict =
  /** Our commit is in the head (its replay marker exists, or the head names it). */
  | { readonly kind: "committed" }
  /** A compatible change: plan again against `current` and resend. */
  | { readonly kind: "retry" }
  /** The committed end moved under us and our commit is not there: check the chain, then OFFSET_CONFLICT. */
  | { readonly kind: "end-moved" }
  | { readonly kind: "fail"; readonly code: ErrorCode; readonly message: string };

export interface HeadConflictInput {
  /** The head the lost CAS expected. */
  readonly expected: StreamHead;
  /** The head now (from the failed txn's read-back); undefined if the key is gone. */
  readonly current: StreamHead | undefined;
  readonly commitId: string;
  /** Whether our replay marker exists (it is written only by the same txn as our head update). */
  readonly markerFound: boolean;
  /** Session the plan held (undefined when the commit was to acquire one). */
  readonly heldSession: AppendSession | undefined;
}

/** Decides what a lost head CAS means. Never returns "retry" when the head's commit facts moved. */
export function classifyHeadConflict(input: HeadConflictInput): HeadConflictVerdict {
  const { expected, current, commitId } = input;
  if (current === undefined) {
    return { kind: "fail", code: "STREAM_NOT_FOUND", message: `stream ${expected.streamId} head disappeared` };
  }
  if (input.markerFound || current.lastCommitId === commitId) return { kind: "committed" };
  const sessionIntact =
    input.heldSession === undefined
      ? sessionsEquivalent(expected.session, current.session)
      : current.session !== undefined && sameSession(current.session, input.heldSession);
  if (!sessionIntact) {
    return {
      kind: "fail",
      code: "FENCED_APPEND",
      message: `stream ${current.streamId}: a newer append session (epoch ${String(current.session?.epoch ?? 0)}) fenced this writer`,
    };
  }
  if (current.state !== "ACTIVE") {
    return { kind: "fail", code: "STREAM_NOT_ACTIVE", message: `stream ${current.streamId} is ${current.state}` };
  }
  if (
    current.committedEndOffset === expected.committedEndOffset &&
    current.cumulativeSize === expected.cumulativeSize &&
    current.commitVersion === expected.commitVersion &&
    current.lastCommitId === expected.lastCommitId
  ) {
    return { kind: "retry" };
  }
  return { kind: "end-moved" };
}

function sessionsEquivalent(a: AppendSession | undefined, b: AppendSession | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return sameSession(a, b) && a.expiresAtMillis === b.expiresAtMillis;
}
