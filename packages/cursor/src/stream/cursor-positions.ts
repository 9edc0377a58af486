// Where a created cursor starts and where a reset lands, resolved against the stream's head: never below the
// stream's trim (OFFSET_TRIMMED: that data is gone), never beyond the committed end (clamped to it: a position past
// the end would acknowledge entries that do not exist yet). Pure.
import { ErrorCode, NereusError, type StreamHead } from "@nereus/core";
import type { BatchBits } from "../ack-state/batch-bits.js";

/** Where a new cursor starts: an offset, the stream's trim (`"earliest"`) or its committed end (`"latest"`). */
export type InitialPosition = number | "earliest" | "latest";

/** Throws INVALID_ARGUMENT unless `position` is `"earliest"`, `"latest"` or a non-negative safe integer. */
export function checkInitialPosition(position: unknown): asserts position is InitialPosition {
  if (position === "earliest" || position === "latest") return;
  checkStreamOffset(position, "initial offset");
}

/** Throws INVALID_ARGUMENT unless `offset` is a non-negative safe integer. */
export function checkStreamOffset(offset: unknown, what: string): asserts offset is number {
  if (!Number.isSafeInteger(offset) || (offset as number) < 0) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `${what} must be a non-negative safe integer, got ${String(offset)}`,
      {
        retryable: false,
      },
    );
  }
}

/** The markDelete offset a cursor created at `position` starts with. */
export function resolveInitialPosition(position: InitialPosition, head: StreamHead): number {
  if (position === "earliest") return head.trimOffset;
  if (position === "latest") return head.committedEndOffset;
  return clampedOffset(position, head, "initial offset");
}

/**
 * The markDelete offset a reset to `target` lands on. A target partial needs an entry at the target: INVALID_ARGUMENT
 * when the target is at or beyond the committed end.
 */
export function resolveResetTarget(target: number, head: StreamHead, partial: BatchBits | undefined): number {
  const resolved = clampedOffset(target, head, "reset target");
  if (partial !== undefined && resolved >= head.committedEndOffset) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `stream ${head.streamId}: a reset with a partial ack needs an entry at ${String(target)}, but the committed end is ${String(head.committedEndOffset)}`,
      { retryable: false },
    );
  }
  return resolved;
}

function clampedOffset(offset: number, head: StreamHead, what: string): number {
  if (offset < head.trimOffset) {
    throw new NereusError(
      ErrorCode.OFFSET_TRIMMED,
      `stream ${head.streamId}: ${what} ${String(offset)} is below the trim offset ${String(head.trimOffset)}`,
      { retryable: false, details: { trimOffset: head.trimOffset } },
    );
  }
  return Math.min(offset, head.committedEndOffset);
}
