// Pure transforms of a cursor root for the lifecycle transitions the stream layer writes (create, recreate, delete,
// reset). They compute the next record only; the caller writes it (through ownedTxn, with its protection protocol)
// and builds the HydratedCursor of the written version with `hydratedCursorOf(record, revision)`.
import { ErrorCode, NereusError } from "@nereus/core";
import { type AckView, emptyAckView } from "../ack-state/ack-view.js";
import type { BatchBits } from "../ack-state/batch-bits.js";
import { resetTo } from "../ack-state/reset-to.js";
import type { CursorStateRecord } from "../domain/cursor-records.js";

/** What a new cursor (or a recreated one) starts from. */
export interface CursorStart {
  /** Session of the owner writing the record. */
  readonly ownerSessionId: string;
  /** First entry the cursor has not acknowledged. */
  readonly markDeleteOffset: number;
  /** Batch indexes of the entry at `markDeleteOffset` already acknowledged (optional). */
  readonly partial?: BatchBits;
  readonly cursorProperties?: ReadonlyMap<string, string>;
  /** Protection attempt that writes the record ("" when none). */
  readonly attemptId: string;
  readonly now: number;
}

const NO_POSITION_PROPERTIES: ReadonlyMap<string, bigint> = new Map();
const NO_CURSOR_PROPERTIES: ReadonlyMap<string, string> = new Map();

/** A new ACTIVE cursor: generation 1, sequence 1, epoch 1, nothing acknowledged at or above the start. */
export function newCursorRecord(
  identity: { readonly streamId: string; readonly cursorName: string; readonly cursorNameHash: string },
  start: CursorStart,
): CursorStateRecord {
  const view = startView(start);
  return {
    streamId: identity.streamId,
    cursorName: identity.cursorName,
    cursorNameHash: identity.cursorNameHash,
    ownerSessionId: start.ownerSessionId,
    cursorGeneration: 1,
    lifecycle: "ACTIVE",
    mutationSequence: 1,
    ackStateEpoch: 1,
    lastProtectionAttemptId: start.attemptId,
    markDeleteOffset: view.markDeleteOffset,
    snapshot: undefined,
    inlineRanges: view.inlineRanges,
    inlinePartials: view.inlinePartials,
    positionProperties: NO_POSITION_PROPERTIES,
    cursorProperties: start.cursorProperties ?? NO_CURSOR_PROPERTIES,
    createdAtMillis: start.now,
    updatedAtMillis: start.now,
    deletedAtMillis: undefined,
  };
}

/**
 * A DELETED cursor brought back: generation + 1, epoch 1, the sequence continues; the exact name is the one the
 * tombstone holds. Throws CURSOR_ALREADY_EXISTS when `prev` is not DELETED.
 */
export function recreatedCursorRecord(prev: CursorStateRecord, start: CursorStart): CursorStateRecord {
  if (prev.lifecycle !== "DELETED") {
    throw new NereusError(ErrorCode.CURSOR_ALREADY_EXISTS, `cursor ${prev.cursorName} exists`, { retryable: false });
  }
  const created = newCursorRecord(prev, start);
  return {
    ...created,
    cursorGeneration: prev.cursorGeneration + 1,
    mutationSequence: prev.mutationSequence + 1,
    updatedAtMillis: Math.max(prev.updatedAtMillis, start.now),
  };
}

/**
 * The DELETED tombstone of `prev`: keeps generation, epoch and the final markDelete; drops the snapshot reference,
 * the inline state and every property; sequence + 1. Throws CURSOR_NOT_FOUND when `prev` is already DELETED.
 */
export function deletedCursorRecord(prev: CursorStateRecord, now: number): CursorStateRecord {
  if (prev.lifecycle === "DELETED") {
    throw new NereusError(ErrorCode.CURSOR_NOT_FOUND, `cursor ${prev.cursorName} is deleted`, { retryable: false });
  }
  const updatedAtMillis = Math.max(prev.updatedAtMillis, now);
  return {
    ...prev,
    lifecycle: "DELETED",
    mutationSequence: prev.mutationSequence + 1,
    snapshot: undefined,
    inlineRanges: [],
    inlinePartials: [],
    positionProperties: NO_POSITION_PROPERTIES,
    cursorProperties: NO_CURSOR_PROPERTIES,
    updatedAtMillis,
    deletedAtMillis: updatedAtMillis,
  };
}

/**
 * `prev` reset to `target` (forward or backward): markDelete = target (target + 1 when `partial` acknowledges every
 * batch index), the optional target partial, no ranges, no snapshot reference, no position properties; cursor
 * properties kept; epoch + 1, sequence + 1, `lastProtectionAttemptId = attemptId`. `view` is `prev`'s view (checked
 * against it). Throws INVALID_ARGUMENT for a bad target or partial, CURSOR_NOT_FOUND for a DELETED `prev`.
 */
export function resetCursorRecord(
  prev: CursorStateRecord,
  view: AckView,
  target: number,
  partial: BatchBits | undefined,
  attemptId: string,
  now: number,
): CursorStateRecord {
  if (prev.lifecycle === "DELETED") {
    throw new NereusError(ErrorCode.CURSOR_NOT_FOUND, `cursor ${prev.cursorName} is deleted`, { retryable: false });
  }
  if (view.markDeleteOffset !== prev.markDeleteOffset) {
    throw new TypeError("resetCursorRecord: the view is not the view of the record");
  }
  const next = resetTo(view, target, partial).view;
  return {
    ...prev,
    mutationSequence: prev.mutationSequence + 1,
    ackStateEpoch: prev.ackStateEpoch + 1,
    lastProtectionAttemptId: attemptId,
    markDeleteOffset: next.markDeleteOffset,
    snapshot: undefined,
    inlineRanges: next.inlineRanges,
    inlinePartials: next.inlinePartials,
    positionProperties: NO_POSITION_PROPERTIES,
    updatedAtMillis: Math.max(prev.updatedAtMillis, now),
  };
}

function startView(start: CursorStart): AckView {
  return resetTo(emptyAckView(0), start.markDeleteOffset, start.partial).view;
}
