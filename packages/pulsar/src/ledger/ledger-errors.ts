// The failures the managed-ledger facade raises itself, as NereusErrors whose `details.reason` says which facade
// rule refused the call (the command handlers translate them, with the storage errors, into Pulsar errors).
// Storage errors from the core pass through unchanged.
import { ErrorCode, NereusError } from "@nereus/core";
import { type Position, formatPosition } from "./position.js";

/** Why the facade refused a call. */
export type LedgerRefusal =
  /** A position of another ledger id (another topic, or an older incarnation of this one). */
  | "LEDGER_MISMATCH"
  /** A position outside what its role allows (before the first entry, after the last, beyond the int64 range). */
  | "POSITION_OUT_OF_RANGE"
  /** Writes are fenced until an uncertain append is resolved and the ledger end is known again. */
  | "WRITE_FENCED"
  /** The ledger is terminated (sealed): no entry will ever be added. */
  | "TERMINATED"
  /** The ledger hit a failure it cannot recover from in place (corruption, another writer): reopen it. */
  | "LEDGER_FAILED"
  /** The ledger was closed. */
  | "CLOSED"
  /** The topic does not exist (and the caller did not ask to create it). */
  | "TOPIC_NOT_FOUND";

const REFUSALS: ReadonlySet<string> = new Set<LedgerRefusal>([
  "LEDGER_MISMATCH",
  "POSITION_OUT_OF_RANGE",
  "WRITE_FENCED",
  "TERMINATED",
  "LEDGER_FAILED",
  "CLOSED",
  "TOPIC_NOT_FOUND",
]);

function refusal(
  code: ErrorCode,
  reason: LedgerRefusal,
  message: string,
  retryable: boolean,
  cause?: unknown,
): NereusError {
  return new NereusError(code, message, { retryable, cause, details: { reason } });
}

/** The refusal a facade error carries, or undefined for any other value. */
export function ledgerRefusalOf(error: unknown): LedgerRefusal | undefined {
  if (!NereusError.is(error)) return undefined;
  const reason = error.details["reason"];
  return typeof reason === "string" && REFUSALS.has(reason) ? (reason as LedgerRefusal) : undefined;
}

export function ledgerMismatch(topic: string, position: Position, ledgerId: bigint): NereusError {
  return refusal(
    ErrorCode.INVALID_ARGUMENT,
    "LEDGER_MISMATCH",
    `topic ${topic}: position ${formatPosition(position)} is not in ledger ${ledgerId.toString()} (another topic or an earlier incarnation)`,
    false,
  );
}

export function positionOutOfRange(code: ErrorCode, topic: string, position: Position, rule: string): NereusError {
  return refusal(code, "POSITION_OUT_OF_RANGE", `topic ${topic}: position ${formatPosition(position)} ${rule}`, false);
}

export function writeFenced(topic: string, why: string): NereusError {
  return refusal(ErrorCode.FENCED_APPEND, "WRITE_FENCED", `topic ${topic}: writes are fenced (${why})`, true);
}

export function ledgerTerminated(topic: string): NereusError {
  return refusal(ErrorCode.STREAM_NOT_ACTIVE, "TERMINATED", `topic ${topic} is terminated`, false);
}

export function ledgerFailed(topic: string, cause: unknown): NereusError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return refusal(ErrorCode.FENCED_APPEND, "LEDGER_FAILED", `topic ${topic} must be reopened: ${why}`, false, cause);
}

export function ledgerClosed(topic: string): NereusError {
  return refusal(ErrorCode.STORAGE_CLOSED, "CLOSED", `topic ${topic} is closed`, false);
}

export function topicNotFound(topic: string): NereusError {
  return refusal(ErrorCode.STREAM_NOT_FOUND, "TOPIC_NOT_FOUND", `topic ${topic} does not exist`, false);
}
