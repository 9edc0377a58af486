// What a mutation of an open cursor wants written, and the next root record it becomes. A draft names the new ack
// view and the few other root fields a mutation may change; everything else (identity, generation, lifecycle,
// creation time) is carried over. Pure; the snapshot spill and the CAS happen elsewhere.
import { type AckBase, EMPTY_ACK_BASE } from "../ack-state/ack-base.js";
import type { AckView } from "../ack-state/ack-view.js";
import type { CursorStateRecord, SnapshotReference } from "../domain/cursor-records.js";
import type { HydratedCursor } from "./hydrated-cursor.js";

/** The root fields besides the ack state that a mutation of an open cursor may set. */
type RootFieldEdits = Partial<
  Pick<CursorStateRecord, "ackStateEpoch" | "positionProperties" | "cursorProperties" | "lastProtectionAttemptId">
>;

/**
 * A mutation's intended next state. Invariant: `view.base` is the current state's base or EMPTY_ACK_BASE (a reset
 * drops the snapshot); a draft never introduces a base of its own (only the spill does).
 */
export interface RootDraft {
  readonly view: AckView;
  readonly edits?: RootFieldEdits;
}

/** A next version ready to be written: the record and the base its snapshot reference decodes to. */
export interface NextRoot {
  readonly root: CursorStateRecord;
  readonly base: AckBase;
}

/**
 * The record `draft` makes of `current`: owner session of the writer, sequence + 1, updatedAt = max(previous, now).
 * The snapshot reference stays while the draft keeps the current base and some of it is still above markDelete;
 * it is dropped when the draft drops the base or markDelete passed everything in it.
 */
export function nextRootOf(current: HydratedCursor, draft: RootDraft, ownerSessionId: string, now: number): NextRoot {
  const { view } = draft;
  if (view.base !== current.base && view.base !== EMPTY_ACK_BASE) {
    throw new TypeError("a root draft may keep its base or drop it, never bring another one");
  }
  const keepsBase = view.base !== EMPTY_ACK_BASE && !isBaseBelow(view.base, view.markDeleteOffset);
  const snapshot: SnapshotReference | undefined = keepsBase ? current.root.snapshot : undefined;
  const root: CursorStateRecord = {
    ...current.root,
    ...draft.edits,
    ownerSessionId,
    mutationSequence: current.root.mutationSequence + 1,
    markDeleteOffset: view.markDeleteOffset,
    snapshot,
    inlineRanges: view.inlineRanges,
    inlinePartials: view.inlinePartials,
    updatedAtMillis: Math.max(current.root.updatedAtMillis, now),
  };
  return { root, base: keepsBase ? view.base : EMPTY_ACK_BASE };
}

/** True when nothing of `base` lies at or above `markDelete` (its snapshot no longer matters). */
function isBaseBelow(base: AckBase, markDelete: number): boolean {
  if (base.partials.size > 0) return false;
  const ranges = base.ranges;
  return ranges.size === 0 || ranges.endAt(ranges.size - 1) <= markDelete;
}
