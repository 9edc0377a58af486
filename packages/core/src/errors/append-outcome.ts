// Append failure outcomes: orthogonal to the error code and mandatory on every failed append.
import type { ErrorCode } from "./error-code.js";
import { NereusError, type NereusErrorOptions } from "./nereus-error.js";

/**
 * What a failed append proves about the head:
 * - `KNOWN_NOT_COMMITTED`: the head was provably not advanced by this attempt; a new attempt is safe.
 * - `MAY_HAVE_COMMITTED`: the head request was sent and its result is unknown; only `recoverAppend` may resolve it.
 * - `KNOWN_COMMITTED`: the head names this attempt but a later step failed; recover the original result.
 */
export type AppendOutcome = "KNOWN_NOT_COMMITTED" | "MAY_HAVE_COMMITTED" | "KNOWN_COMMITTED";

/** Opaque, process-local handle of one append attempt: `processRunId + "/" + sequence`. */
export type AppendAttemptId = string;

/**
 * A failed append. Invariant: `attemptId` is present iff `outcome` is `MAY_HAVE_COMMITTED` or `KNOWN_COMMITTED`;
 * callers holding such an error must not start a new physical append for the same data, only `recoverAppend`.
 */
export class AppendFailedError extends NereusError {
  readonly outcome: AppendOutcome;
  readonly attemptId: AppendAttemptId | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    outcome: AppendOutcome,
    attemptId: AppendAttemptId | undefined,
    options: NereusErrorOptions = {},
  ) {
    super(code, message, options);
    this.name = "AppendFailedError";
    this.outcome = outcome;
    if (outcome === "KNOWN_NOT_COMMITTED" && attemptId !== undefined) {
      throw new TypeError("KNOWN_NOT_COMMITTED failures carry no attempt id");
    }
    if (outcome !== "KNOWN_NOT_COMMITTED" && attemptId === undefined) {
      throw new TypeError(`${outcome} failures must carry an attempt id`);
    }
    this.attemptId = attemptId;
  }

  static isAppendFailure(value: unknown): value is AppendFailedError {
    return NereusError.is(value) && typeof (value as AppendFailedError).outcome === "string";
  }
}
