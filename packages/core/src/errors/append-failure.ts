// Turns whatever stopped an append into the one error type callers see: `AppendFailedError` with an outcome.
// The code and message of the underlying `NereusError` are kept; anything else becomes an internal invariant
// failure (a bug or a misbehaving provider), with the original as `cause`.
import { AppendFailedError, type AppendAttemptId, type AppendOutcome } from "./append-outcome.js";
import { ErrorCode } from "./error-code.js";
import { NereusError } from "./nereus-error.js";

/**
 * Wraps `cause` as an `AppendFailedError`. Retryability: only a `KNOWN_NOT_COMMITTED` failure can be retryable
 * (then as retryable as its cause); `MAY_HAVE_COMMITTED` and `KNOWN_COMMITTED` forbid a new physical attempt and
 * are resolved with `recoverAppend(attemptId)` instead, so they are never `retryable`.
 */
export function appendFailure(cause: unknown, outcome: AppendOutcome, attemptId?: AppendAttemptId): AppendFailedError {
  const attempt = outcome === "KNOWN_NOT_COMMITTED" ? undefined : attemptId;
  if (AppendFailedError.isAppendFailure(cause) && cause.outcome === outcome && cause.attemptId === attempt)
    return cause;
  const base = NereusError.is(cause)
    ? cause
    : new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, `unexpected failure: ${describe(cause)}`, {
        retryable: false,
        cause,
      });
  return new AppendFailedError(base.code, base.message, outcome, attempt, {
    retryable: outcome === "KNOWN_NOT_COMMITTED" && base.retryable,
    cause: base === cause ? cause : base,
    details: base.details,
  });
}

function describe(value: unknown): string {
  return value instanceof Error ? `${value.name}: ${value.message}` : String(value);
}
