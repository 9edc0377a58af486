// The errors every MetadataStore implementation raises for the same situations, built in one place so the etcd and
// SQLite stores and the in-memory reference store (@nereus/core/testing) agree on codes and details.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** Errors shared by the metadata stores. */
export const MetadataStoreErrors = {
  /** The store was closed; nothing was sent. */
  closed(): NereusError {
    return new NereusError(ErrorCode.STORAGE_CLOSED, "metadata store is closed", { retryable: false });
  },

  /** The caller's signal was aborted before the operation was sent; nothing applied. */
  cancelled(signal: AbortSignal): NereusError {
    return new NereusError(ErrorCode.CANCELLED, "metadata operation cancelled before it was sent", {
      cause: signal.reason,
    });
  },

  /** The caller's signal aborted a read in flight (reads change nothing, so this is never ambiguous). */
  cancelledInFlight(operation: string, signal: AbortSignal): NereusError {
    return new NereusError(ErrorCode.CANCELLED, `metadata ${operation} cancelled while in flight`, {
      cause: signal.reason,
    });
  },

  invalid(message: string, cause?: unknown): NereusError {
    return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false, cause });
  },

  /** The request exceeds a store limit (etcd's operations per txn or request size). */
  limitExceeded(message: string, cause?: unknown): NereusError {
    return new NereusError(ErrorCode.METADATA_LIMIT_EXCEEDED, message, { retryable: false, cause });
  },

  /** A put named a lease that does not exist (never granted, expired or revoked); the txn applied nothing. */
  leaseNotFound(leaseId: string, cause?: unknown): NereusError {
    return new NereusError(ErrorCode.METADATA_CONDITION_FAILED, `lease ${leaseId} not found (expired or revoked)`, {
      retryable: false,
      cause,
      details: { reason: "lease-not-found", leaseId },
    });
  },

  /** The operation provably did not apply (connection refused, rejected before apply, read failed). */
  unavailable(message: string, cause?: unknown, retryable = true): NereusError {
    return new NereusError(ErrorCode.METADATA_UNAVAILABLE, message, {
      retryable,
      cause,
      details: { ambiguous: false },
    });
  },

  /** Stored data that cannot be what the store wrote (e.g. a revision beyond 2^53); fail closed. */
  invariant(message: string): NereusError {
    return new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, message, { retryable: false });
  },
} as const;
