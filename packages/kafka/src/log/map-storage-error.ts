// The one place storage-core errors become Kafka error codes (docs/architecture.md §9), together with what the partition must
// do about them. An uncertain append (MAY_HAVE_COMMITTED, KNOWN_COMMITTED) fences the partition until
// `recoverAppend` resolves it; a lost race for the log end (OFFSET_CONFLICT) or a lost append session reloads the
// partition; corruption takes it offline until reloaded; back-pressure and timeouts that provably did not commit
// leave it writable. Anything unrecognised reloads (derived state is rebuilt from committed bytes).
import { AppendFailedError, ErrorCode, NereusError } from "@nereus/core";
import { KafkaErrorCode } from "../protocol/error-codes.js";

/**
 * What the partition does after the failure:
 * - `none`: stays writable with its cached log end (the append provably did not commit).
 * - `reload`: drops its cached state; the next request reloads head and producer state.
 * - `recover`: fenced (produce answers NOT_LEADER_OR_FOLLOWER) until `recoverAppend` resolves the attempt.
 * - `offline`: like reload, reported as a storage error (corrupt bytes or records).
 */
type PartitionAction = "none" | "reload" | "recover" | "offline";

/** A storage failure as a Kafka partition error. */
export interface KafkaErrorMapping {
  readonly errorCode: number;
  readonly action: PartitionAction;
  readonly message: string;
  /** Throttle the client (back-pressure), in ms. */
  readonly throttleTimeMs: number;
  /** The attempt to recover (action `recover` only). */
  readonly attemptId: string | undefined;
}

/** Throttle time asked of clients when the store refuses work for back-pressure. */
const BACKPRESSURE_THROTTLE_MS = 100;

const CORRUPTION: ReadonlySet<string> = new Set([
  ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
  ErrorCode.OBJECT_CHECKSUM_MISMATCH,
  ErrorCode.METADATA_INVARIANT_VIOLATION,
  ErrorCode.DECODE_ERROR,
  ErrorCode.UNSUPPORTED_FORMAT,
]);

const UNAVAILABLE: ReadonlySet<string> = new Set([
  ErrorCode.METADATA_UNAVAILABLE,
  ErrorCode.METADATA_CONDITION_FAILED,
  ErrorCode.OBJECT_UPLOAD_FAILED,
  ErrorCode.OBJECT_READ_FAILED,
  ErrorCode.OBJECT_NOT_FOUND,
  ErrorCode.PRIMARY_WAL_WRITE_FAILED,
  ErrorCode.PRIMARY_WAL_READ_FAILED,
  ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
  ErrorCode.READ_RESOLUTION_FAILED,
  ErrorCode.METADATA_LIMIT_EXCEEDED,
]);

function mapping(
  errorCode: number,
  action: PartitionAction,
  message: string,
  extra: Partial<KafkaErrorMapping> = {},
): KafkaErrorMapping {
  return { errorCode, action, message, throttleTimeMs: 0, attemptId: undefined, ...extra };
}

/** Maps any error thrown by the stream store (append, read, head, recovery) onto a Kafka error and an action. */
export function mapStorageError(error: unknown): KafkaErrorMapping {
  if (!NereusError.is(error)) {
    return mapping(
      KafkaErrorCode.UNKNOWN_SERVER_ERROR,
      "reload",
      error instanceof Error ? error.message : String(error),
    );
  }
  const message = `${error.code}: ${error.message}`;
  if (AppendFailedError.isAppendFailure(error) && error.outcome !== "KNOWN_NOT_COMMITTED") {
    return mapping(KafkaErrorCode.NOT_LEADER_OR_FOLLOWER, "recover", message, { attemptId: error.attemptId });
  }
  switch (error.code) {
    case ErrorCode.OFFSET_CONFLICT:
    case ErrorCode.FENCED_APPEND:
    case ErrorCode.APPEND_SESSION_EXPIRED:
      return mapping(KafkaErrorCode.NOT_LEADER_OR_FOLLOWER, "reload", message);
    case ErrorCode.BACKPRESSURE_REJECTED:
      return mapping(KafkaErrorCode.REQUEST_TIMED_OUT, "none", message, { throttleTimeMs: BACKPRESSURE_THROTTLE_MS });
    case ErrorCode.TIMEOUT:
    case ErrorCode.CANCELLED:
      return mapping(KafkaErrorCode.REQUEST_TIMED_OUT, "none", message);
    case ErrorCode.STORAGE_CLOSED:
      return mapping(KafkaErrorCode.NOT_LEADER_OR_FOLLOWER, "none", message);
    case ErrorCode.STREAM_NOT_FOUND:
    case ErrorCode.STREAM_NOT_ACTIVE:
      return mapping(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "reload", message);
    case ErrorCode.OFFSET_TRIMMED:
      return mapping(KafkaErrorCode.OFFSET_OUT_OF_RANGE, "reload", message);
    case ErrorCode.OFFSET_NOT_AVAILABLE:
      return mapping(KafkaErrorCode.OFFSET_NOT_AVAILABLE, "none", message);
    case ErrorCode.INVALID_ARGUMENT:
    case ErrorCode.READ_LIMIT_TOO_SMALL:
      return mapping(KafkaErrorCode.INVALID_REQUEST, "none", message);
    default:
      if (CORRUPTION.has(error.code)) return mapping(KafkaErrorCode.KAFKA_STORAGE_ERROR, "offline", message);
      if (UNAVAILABLE.has(error.code)) return mapping(KafkaErrorCode.KAFKA_STORAGE_ERROR, "none", message);
      return mapping(KafkaErrorCode.UNKNOWN_SERVER_ERROR, "reload", message);
  }
}
