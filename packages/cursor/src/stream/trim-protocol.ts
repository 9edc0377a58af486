// The trim protocol of a stream with cursors: ACTIVE → TRIM_PENDING(T) on the retention record, then the stream's
// own trim to T, then → ACTIVE with lastCompletedTrimOffset = T. A pending trim is replayed with exactly its
// offset (after a failure of this session, or by the next owner at open); it is never dropped.
import { ErrorCode, NereusError } from "@nereus/core";
import type { CursorRetentionRecord, TrimIntent } from "../domain/cursor-records.js";
import { newRandomId128 } from "./random-id.js";
import type { RetentionRoot } from "./retention-root.js";
import { trimFinishedRetention, trimPendingRetention } from "./retention-transitions.js";

/** Longest trim reason, in UTF-16 code units. */
const MAX_TRIM_REASON_LENGTH = 1024;

/**
 * Trims the stream to `offset` through TRIM_PENDING. Requires the record ACTIVE (CURSOR_BUSY otherwise) and
 * `lastCompleted < offset <= floor`, `offset <= committed end` (INVALID_ARGUMENT otherwise); an offset at or below
 * the last completed trim changes nothing and returns the current record.
 */
export async function runTrim(
  root: RetentionRoot,
  offset: number,
  reason: string,
  signal: AbortSignal | undefined,
): Promise<CursorRetentionRecord> {
  const current = root.current;
  if (offset <= current.lastCompletedTrimOffset) return current;
  const { env, streamId } = root.owner;
  const intent: TrimIntent = { attemptId: newRandomId128(), offset, reason };
  const pending = trimPendingRetention(current, intent, env.now());
  const head = await env.streams.getHead(streamId, { signal });
  if (offset > head.committedEndOffset) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `stream ${streamId}: cannot trim to ${String(offset)} beyond the committed end ${String(head.committedEndOffset)}`,
      { retryable: false },
    );
  }
  await root.write(pending, signal);
  return finishPendingTrim(root, signal);
}

/**
 * Completes the TRIM_PENDING(T) record of `root`: trims the stream to exactly T (a no-op when it is there
 * already), checks the stream's trim reached T, then writes ACTIVE with lastCompletedTrimOffset = T.
 */
export async function finishPendingTrim(
  root: RetentionRoot,
  signal: AbortSignal | undefined,
): Promise<CursorRetentionRecord> {
  const intent = root.current.pendingTrim;
  if (intent === undefined) throw new TypeError("finishPendingTrim without a pending trim");
  const { env, streamId } = root.owner;
  const head = await env.streams.trim(streamId, intent.offset, { signal });
  if (head.trimOffset < intent.offset) {
    throw new NereusError(
      ErrorCode.METADATA_INVARIANT_VIOLATION,
      `stream ${streamId}: trim to ${String(intent.offset)} returned trim offset ${String(head.trimOffset)}`,
      { retryable: false },
    );
  }
  return root.write(trimFinishedRetention(root.current, env.now()), signal);
}

/** Throws INVALID_ARGUMENT unless `offset` is a non-negative safe integer and `reason` a string of sane length. */
export function checkTrimRequest(offset: unknown, reason: unknown): void {
  if (!Number.isSafeInteger(offset) || (offset as number) < 0) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `trim offset must be a non-negative safe integer, got ${String(offset)}`,
    );
  }
  if (typeof reason !== "string" || reason.length > MAX_TRIM_REASON_LENGTH) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `trim reason must be a string of at most ${String(MAX_TRIM_REASON_LENGTH)} characters`,
    );
  }
}
