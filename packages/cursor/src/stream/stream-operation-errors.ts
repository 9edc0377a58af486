// The errors stream-level cursor operations fail with: a protection that lost to a trim or a concurrent change, a
// target below the trim offset, and which store errors an expired deadline explains.
import { ErrorCode, NereusError } from "@nereus/core";
import type { ProtectionIntent } from "../domain/cursor-records.js";
import type { ProtectionOutcome } from "./protection-protocol.js";

/** The error of a protection that did not apply: trimmed past its target, or its cursor changed meanwhile. */
export function outcomeError(streamId: string, outcome: ProtectionOutcome, intent: ProtectionIntent): NereusError {
  if (outcome.kind === "trimmed") return trimmedError(streamId, intent.targetMarkDeleteOffset, outcome.trimOffset);
  return stateConflictOf(intent);
}

/** The cursor changed while `intent` was being protected. */
export function stateConflictOf(intent: ProtectionIntent): NereusError {
  return new NereusError(
    ErrorCode.CURSOR_STATE_CONFLICT,
    `cursor ${JSON.stringify(intent.cursorName)} changed while its ${intent.kind} was being protected`,
    { retryable: false },
  );
}

/** `target` is below the stream's trim offset. */
export function trimmedError(streamId: string, target: number, trimOffset: number): NereusError {
  return new NereusError(
    ErrorCode.OFFSET_TRIMMED,
    `stream ${streamId}: offset ${String(target)} is below the trim offset ${String(trimOffset)}`,
    { retryable: false, details: { trimOffset } },
  );
}

/** Errors an expired deadline explains (an aborted or unanswered store call). */
export function isInterruption(error: unknown): boolean {
  if (!NereusError.is(error)) return true;
  return (
    error.code === ErrorCode.CANCELLED ||
    error.code === ErrorCode.TIMEOUT ||
    error.code === ErrorCode.METADATA_UNAVAILABLE
  );
}
