// The one place storage errors (the core's, the cursors' and the facade's own refusals) become Pulsar server
// errors, with whether the client may simply try again. Command handlers answer ERROR / SEND_ERROR with the result;
// a handler with a more precise answer for its command (a seek to a trimmed position, say) decides that itself.
import { AppendFailedError, ErrorCode, NereusError } from "@nereus/core";
import { ServerError } from "../protocol/index.js";
import { ledgerRefusalOf } from "./ledger-errors.js";

/** A storage failure as a Pulsar server error. */
export interface PulsarErrorMapping {
  /** A {@link ServerError} value. */
  readonly serverError: number;
  readonly message: string;
  readonly retryable: boolean;
}

const BY_REFUSAL: Readonly<Record<string, number>> = {
  LEDGER_MISMATCH: ServerError.NotAllowedError,
  POSITION_OUT_OF_RANGE: ServerError.NotAllowedError,
  WRITE_FENCED: ServerError.PersistenceError,
  TERMINATED: ServerError.TopicTerminatedError,
  LEDGER_FAILED: ServerError.ServiceNotReady,
  CLOSED: ServerError.ServiceNotReady,
  TOPIC_NOT_FOUND: ServerError.TopicNotFound,
};

const BY_CODE: Readonly<Partial<Record<ErrorCode, number>>> = {
  [ErrorCode.STREAM_NOT_FOUND]: ServerError.TopicNotFound,
  [ErrorCode.STREAM_NOT_ACTIVE]: ServerError.TopicTerminatedError,
  [ErrorCode.FENCED_APPEND]: ServerError.ServiceNotReady,
  [ErrorCode.APPEND_SESSION_EXPIRED]: ServerError.ServiceNotReady,
  [ErrorCode.STORAGE_CLOSED]: ServerError.ServiceNotReady,
  [ErrorCode.BACKPRESSURE_REJECTED]: ServerError.TooManyRequests,
  [ErrorCode.METADATA_UNAVAILABLE]: ServerError.MetadataError,
  [ErrorCode.METADATA_CONDITION_FAILED]: ServerError.MetadataError,
  [ErrorCode.METADATA_LIMIT_EXCEEDED]: ServerError.MetadataError,
  [ErrorCode.METADATA_INVARIANT_VIOLATION]: ServerError.MetadataError,
  [ErrorCode.UNSUPPORTED_STORAGE_PROFILE]: ServerError.NotAllowedError,
  [ErrorCode.INVALID_ARGUMENT]: ServerError.NotAllowedError,
  [ErrorCode.OFFSET_TRIMMED]: ServerError.NotAllowedError,
  [ErrorCode.OFFSET_NOT_AVAILABLE]: ServerError.NotAllowedError,
  [ErrorCode.CURSOR_NOT_FOUND]: ServerError.SubscriptionNotFound,
  [ErrorCode.CURSOR_ALREADY_EXISTS]: ServerError.NotAllowedError,
  [ErrorCode.CURSOR_BUSY]: ServerError.ServiceNotReady,
  [ErrorCode.CURSOR_FENCED]: ServerError.ServiceNotReady,
  [ErrorCode.CURSOR_STATE_CONFLICT]: ServerError.UnknownError,
};

/**
 * Maps any error of the storage side onto a Pulsar server error: facade refusals by their reason, uncertain
 * appends as retryable persistence errors, core and cursor errors by their code, the rest (WAL, object store,
 * checksum, decode, timeouts) as persistence errors.
 */
export function mapStorageError(error: unknown): PulsarErrorMapping {
  if (!NereusError.is(error)) {
    return {
      serverError: ServerError.UnknownError,
      message: error instanceof Error ? error.message : String(error),
      retryable: false,
    };
  }
  const message = `${error.code}: ${error.message}`;
  const refusal = ledgerRefusalOf(error);
  if (refusal !== undefined) {
    return { serverError: BY_REFUSAL[refusal] ?? ServerError.UnknownError, message, retryable: error.retryable };
  }
  if (AppendFailedError.isAppendFailure(error) && error.outcome !== "KNOWN_NOT_COMMITTED") {
    return { serverError: ServerError.PersistenceError, message, retryable: true };
  }
  return { serverError: BY_CODE[error.code] ?? ServerError.PersistenceError, message, retryable: error.retryable };
}
