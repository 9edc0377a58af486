// Translates what an admin operation throws into the status Pulsar's REST API answers with: the storage and
// subscription errors once, at this boundary (the original stays as `cause`). Unknown failures are 500s whose
// reason is the error's message.
import { ErrorCode, NereusError } from "@nereus/core";
import { ledgerRefusalOf } from "../ledger/ledger-errors.js";
import { SubscriptionRefusedError } from "../subscriptions/subscription-refused-error.js";
import { AdminFailure, AdminStatus } from "./admin-exchange.js";

const BY_CODE: Readonly<Partial<Record<string, number>>> = {
  [ErrorCode.INVALID_ARGUMENT]: AdminStatus.BAD_REQUEST,
  [ErrorCode.STREAM_NOT_FOUND]: AdminStatus.NOT_FOUND,
  [ErrorCode.CURSOR_NOT_FOUND]: AdminStatus.NOT_FOUND,
  [ErrorCode.CURSOR_ALREADY_EXISTS]: AdminStatus.CONFLICT,
  [ErrorCode.OFFSET_TRIMMED]: AdminStatus.PRECONDITION_FAILED,
  [ErrorCode.OFFSET_NOT_AVAILABLE]: AdminStatus.PRECONDITION_FAILED,
  [ErrorCode.CURSOR_BUSY]: AdminStatus.PRECONDITION_FAILED,
  [ErrorCode.CURSOR_STATE_CONFLICT]: AdminStatus.PRECONDITION_FAILED,
  [ErrorCode.STREAM_NOT_ACTIVE]: AdminStatus.PRECONDITION_FAILED,
  [ErrorCode.UNSUPPORTED_STORAGE_PROFILE]: AdminStatus.PRECONDITION_FAILED,
  [ErrorCode.METADATA_LIMIT_EXCEEDED]: AdminStatus.PRECONDITION_FAILED,
};

/** The admin failure of anything an operation threw. */
export function adminFailureOf(error: unknown): AdminFailure {
  if (error instanceof AdminFailure) return error;
  if (error instanceof SubscriptionRefusedError) {
    return new AdminFailure(AdminStatus.PRECONDITION_FAILED, `Failed for Subscription Busy: ${error.message}`, {
      cause: error,
    });
  }
  if (!NereusError.is(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return new AdminFailure(AdminStatus.INTERNAL_ERROR, message, { cause: error });
  }
  const refusal = ledgerRefusalOf(error);
  if (refusal === "LEDGER_MISMATCH" || refusal === "POSITION_OUT_OF_RANGE") {
    return new AdminFailure(
      AdminStatus.PRECONDITION_FAILED,
      `Unable to find position for position specified: ${error.message}`,
      { cause: error },
    );
  }
  if (refusal === "TOPIC_NOT_FOUND") return new AdminFailure(AdminStatus.NOT_FOUND, error.message, { cause: error });
  const status =
    BY_CODE[error.code] ?? (error.retryable ? AdminStatus.SERVICE_UNAVAILABLE : AdminStatus.INTERNAL_ERROR);
  return new AdminFailure(status, error.message, { cause: error });
}
