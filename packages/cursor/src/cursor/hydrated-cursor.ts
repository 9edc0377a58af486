// One version of one cursor as this process knows it: the root record, the store revision it was read or written
// at, the decoded snapshot base it references, and the effective ack view of the two. A value; never mutated.
import { type AckBase, EMPTY_ACK_BASE } from "../ack-state/ack-base.js";
import { type AckView, ackViewOf } from "../ack-state/ack-view.js";
import type { CursorStateRecord } from "../domain/cursor-records.js";

/**
 * A cursor root at `modRevision` with its hydrated state. Invariant: `base` is the decoded content of
 * `root.snapshot` (EMPTY_ACK_BASE when the root references none) and `view` is `ackViewOf(root, base)`.
 */
export interface HydratedCursor {
  readonly root: CursorStateRecord;
  readonly modRevision: number;
  readonly base: AckBase;
  readonly view: AckView;
}

/** The hydrated cursor of `root` at `modRevision` (pass the base its snapshot decoded to, if it has one). */
export function hydratedCursorOf(
  root: CursorStateRecord,
  modRevision: number,
  base: AckBase = EMPTY_ACK_BASE,
): HydratedCursor {
  return { root, modRevision, base, view: ackViewOf(root, base) };
}
