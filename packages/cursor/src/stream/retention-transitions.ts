// The transitions of a stream's retention record as pure functions: bootstrap, owner claim, entering and leaving
// PROTECTION_PENDING and TRIM_PENDING, and a floor raise. Each returns the next record (mutationSequence + 1, the
// writing session, updatedAtMillis never decreasing) or throws when the transition is not allowed from the given
// state. No I/O: callers write the result with a CAS on the record's revision.
import { ErrorCode, NereusError } from "@nereus/core";
import type {
  CursorRetentionRecord,
  ProtectionIntent,
  RetentionLifecycle,
  TrimIntent,
} from "../domain/cursor-records.js";

/** The first retention record of a stream without cursors: ACTIVE, floor = last completed trim = the stream trim. */
export function bootstrapRetention(
  streamId: string,
  ownerSessionId: string,
  streamTrimOffset: number,
  nowMillis: number,
): CursorRetentionRecord {
  return {
    streamId,
    ownerSessionId,
    lifecycle: "ACTIVE",
    mutationSequence: 1,
    protectedFloorOffset: streamTrimOffset,
    lastCompletedTrimOffset: streamTrimOffset,
    pendingProtection: undefined,
    pendingTrim: undefined,
    updatedAtMillis: nowMillis,
  };
}

/** The same state written by a new owner session (a claim at writable open). */
export function claimedRetention(
  current: CursorRetentionRecord,
  ownerSessionId: string,
  nowMillis: number,
): CursorRetentionRecord {
  return next(current, ownerSessionId, nowMillis, {});
}

/**
 * ACTIVE → PROTECTION_PENDING(intent); the floor drops to the intent's target when that is lower (it never rises
 * here). Throws CURSOR_BUSY when another transition is pending.
 */
export function protectionPendingRetention(
  current: CursorRetentionRecord,
  intent: ProtectionIntent,
  nowMillis: number,
): CursorRetentionRecord {
  requireActive(current, `protect cursor ${JSON.stringify(intent.cursorName)}`);
  return next(current, current.ownerSessionId, nowMillis, {
    lifecycle: "PROTECTION_PENDING",
    pendingProtection: intent,
    protectedFloorOffset: Math.min(current.protectedFloorOffset, intent.targetMarkDeleteOffset),
  });
}

/**
 * PROTECTION_PENDING → ACTIVE, keeping the (possibly lowered) floor — used both when the intent applied and when it
 * was given up, since a floor may always be conservatively low — but never below the last completed trim.
 */
export function protectionFinishedRetention(current: CursorRetentionRecord, nowMillis: number): CursorRetentionRecord {
  requireLifecycle(current, "PROTECTION_PENDING");
  return next(current, current.ownerSessionId, nowMillis, {
    lifecycle: "ACTIVE",
    pendingProtection: undefined,
    protectedFloorOffset: Math.max(current.protectedFloorOffset, current.lastCompletedTrimOffset),
  });
}

/**
 * ACTIVE → TRIM_PENDING(intent). Requires `lastCompletedTrimOffset < intent.offset <= protectedFloorOffset`
 * (INVALID_ARGUMENT otherwise); throws CURSOR_BUSY when another transition is pending.
 */
export function trimPendingRetention(
  current: CursorRetentionRecord,
  intent: TrimIntent,
  nowMillis: number,
): CursorRetentionRecord {
  requireActive(current, `trim to ${String(intent.offset)}`);
  if (intent.offset <= current.lastCompletedTrimOffset || intent.offset > current.protectedFloorOffset) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `stream ${current.streamId}: trim offset ${String(intent.offset)} must be above the last completed trim ` +
        `${String(current.lastCompletedTrimOffset)} and at most the protected floor ${String(current.protectedFloorOffset)}`,
      { retryable: false },
    );
  }
  return next(current, current.ownerSessionId, nowMillis, { lifecycle: "TRIM_PENDING", pendingTrim: intent });
}

/** TRIM_PENDING(T) → ACTIVE with `lastCompletedTrimOffset = T` (call only once the stream's trim reached T). */
export function trimFinishedRetention(current: CursorRetentionRecord, nowMillis: number): CursorRetentionRecord {
  requireLifecycle(current, "TRIM_PENDING");
  const trim = current.pendingTrim;
  if (trim === undefined) throw invariant(current, "is TRIM_PENDING without a pending trim");
  return next(current, current.ownerSessionId, nowMillis, {
    lifecycle: "ACTIVE",
    pendingTrim: undefined,
    lastCompletedTrimOffset: trim.offset,
  });
}

/** ACTIVE with the floor raised to `floor` (never lowered: a lower `floor` keeps the current one). */
export function raisedFloorRetention(
  current: CursorRetentionRecord,
  floor: number,
  nowMillis: number,
): CursorRetentionRecord {
  requireActive(current, "raise the protected floor");
  return next(current, current.ownerSessionId, nowMillis, {
    protectedFloorOffset: Math.max(current.protectedFloorOffset, floor),
  });
}

/** CURSOR_BUSY naming the pending transition of `current`, for an operation that needs the record ACTIVE. */
export function retentionBusyError(current: CursorRetentionRecord, operation: string): NereusError {
  const pending =
    current.pendingTrim !== undefined
      ? `a trim to ${String(current.pendingTrim.offset)}`
      : `a protection of cursor ${JSON.stringify(current.pendingProtection?.cursorName ?? "")}`;
  return new NereusError(
    ErrorCode.CURSOR_BUSY,
    `stream ${current.streamId}: cannot ${operation} while ${pending} is pending`,
    { retryable: true, details: { lifecycle: current.lifecycle } },
  );
}

function requireActive(current: CursorRetentionRecord, operation: string): void {
  if (current.lifecycle !== "ACTIVE") throw retentionBusyError(current, operation);
}

function requireLifecycle(current: CursorRetentionRecord, lifecycle: RetentionLifecycle): void {
  if (current.lifecycle !== lifecycle) throw invariant(current, `is ${current.lifecycle}, expected ${lifecycle}`);
}

function invariant(current: CursorRetentionRecord, problem: string): NereusError {
  return new NereusError(
    ErrorCode.METADATA_INVARIANT_VIOLATION,
    `retention record of stream ${current.streamId} ${problem}`,
    { retryable: false },
  );
}

function next(
  current: CursorRetentionRecord,
  ownerSessionId: string,
  nowMillis: number,
  changes: Partial<CursorRetentionRecord>,
): CursorRetentionRecord {
  return {
    ...current,
    ...changes,
    ownerSessionId,
    mutationSequence: current.mutationSequence + 1,
    updatedAtMillis: Math.max(current.updatedAtMillis, nowMillis),
  };
}
