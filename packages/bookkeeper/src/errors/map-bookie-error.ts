// The one place where BookKeeper bookie status codes, bookie transport failures and ZooKeeper error codes become
// Nereus errors (the original stays as `cause`, the wire facts in `details`). Expected outcomes — entry not
// found, version conflict, node exists — are values in the callers and never reach this module.
import { ErrorCode, NereusError } from "@nereus/core";
import { StatusCode, statusCodeName } from "../protocol/status-code.js";

/** Which side of the WAL an operation is on: adds and LAC writes write, everything else reads. */
export type BookieOperationKind = "write" | "read";

/** Context attached to mapped errors. */
export interface BookieErrorContext {
  readonly bookieId: string;
  readonly ledgerId?: bigint;
  readonly entryId?: number;
}

function contextDetails(context: BookieErrorContext, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    bookieId: context.bookieId,
    ...(context.ledgerId === undefined ? {} : { ledgerId: String(context.ledgerId) }),
    ...(context.entryId === undefined ? {} : { entryId: context.entryId }),
    ...extra,
  };
}

/**
 * Maps a non-OK bookie status to a NereusError.
 *
 * - EFENCED → FENCED_APPEND (another client recovered the ledger; never retryable on this handle);
 * - ENOLEDGER/ENOENTRY → PRIMARY_WAL_TARGET_NOT_FOUND;
 * - EUA (wrong master key), EBADREQ, EBADVERSION → non-retryable write/read failures;
 * - EIO, EREADONLY, ETOOMANYREQUESTS, EUNKNOWNLEDGERSTATE and unknown codes → retryable write/read failures.
 */
export function mapBookieStatus(status: number, kind: BookieOperationKind, context: BookieErrorContext): NereusError {
  const name = statusCodeName(status);
  const details = contextDetails(context, { status: name });
  const where = `bookie ${context.bookieId}${context.ledgerId === undefined ? "" : ` ledger ${String(context.ledgerId)}`}${context.entryId === undefined ? "" : ` entry ${String(context.entryId)}`}`;
  const failure = kind === "write" ? ErrorCode.PRIMARY_WAL_WRITE_FAILED : ErrorCode.PRIMARY_WAL_READ_FAILED;
  switch (status) {
    case StatusCode.EFENCED:
      return new NereusError(ErrorCode.FENCED_APPEND, `${where}: ledger is fenced (recovered by another client)`, {
        retryable: false,
        details,
      });
    case StatusCode.ENOLEDGER:
    case StatusCode.ENOENTRY:
      return new NereusError(ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND, `${where}: ${name}`, {
        retryable: false,
        details,
      });
    case StatusCode.EUA:
      return new NereusError(failure, `${where}: unauthorized (master key differs from the ledger's)`, {
        retryable: false,
        details,
      });
    case StatusCode.EBADREQ:
    case StatusCode.EBADVERSION:
      return new NereusError(failure, `${where}: bookie rejected the request (${name})`, { retryable: false, details });
    default:
      return new NereusError(failure, `${where}: ${name}`, { retryable: true, details });
  }
}

/** Maps a transport failure (connect error, connection loss, response timeout) of one bookie request. */
export function mapBookieTransportError(
  cause: unknown,
  kind: BookieOperationKind,
  context: BookieErrorContext,
  what: string,
): NereusError {
  if (NereusError.is(cause)) return cause;
  const failure = kind === "write" ? ErrorCode.PRIMARY_WAL_WRITE_FAILED : ErrorCode.PRIMARY_WAL_READ_FAILED;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return new NereusError(
    failure,
    `bookie ${context.bookieId}: ${what}${typeof code === "string" ? ` (${code})` : ""}`,
    {
      retryable: true,
      cause,
      details: contextDetails(context, typeof code === "string" ? { errno: code } : {}),
    },
  );
}

/** Maps an unexpected ZooKeeper error (anything but the codes callers treat as values) to METADATA_UNAVAILABLE. */
export function mapZooKeeperError(cause: unknown, operation: string, path: string): NereusError {
  if (NereusError.is(cause)) return cause;
  const zkCode = (cause as { code?: unknown } | undefined)?.code;
  const name = (cause as { name?: unknown } | undefined)?.name;
  return new NereusError(
    ErrorCode.METADATA_UNAVAILABLE,
    `ZooKeeper ${operation} ${path} failed${typeof name === "string" ? `: ${name}` : ""}`,
    {
      retryable: true,
      cause,
      details: { operation, path, ...(typeof zkCode === "number" ? { zooKeeperCode: zkCode } : {}) },
    },
  );
}

/** The error an aborted operation rejects with: TIMEOUT for a timeout signal, CANCELLED otherwise. */
export function abortError(signal: AbortSignal, what: string): NereusError {
  const reason: unknown = signal.reason;
  if (NereusError.is(reason)) return reason;
  const isTimeout = reason instanceof Error && reason.name === "TimeoutError";
  return new NereusError(
    isTimeout ? ErrorCode.TIMEOUT : ErrorCode.CANCELLED,
    `${what} ${isTimeout ? "timed out" : "was cancelled"}`,
    {
      retryable: isTimeout,
      cause: reason,
    },
  );
}
