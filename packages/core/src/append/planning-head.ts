// The head a group of appends is planned against (docs/architecture.md §4.2, step 3 "group commit"): whether a
// cached head must be read again, the head a group leaves behind if it commits (what the group behind it plans
// against), and whether a committed head is exactly that projection. Pure functions; no I/O.
import type { AppendSession, StreamHead } from "../domain/stream-head.js";
import type { PendingAppend } from "../lane/pending-append.js";
import type { ProjectedHead } from "../lane/pipeline-link.js";
import type { VersionedHead } from "../records/stream-keyspace.js";
import { sameSession } from "../session/same-session.js";

/** A cached end behind some caller's expectation may be stale; a fresh read settles it (ends never decrease). */
export function needsFreshHead(members: readonly PendingAppend[], base: VersionedHead): boolean {
  let position = base.head.committedEndOffset;
  for (const member of members) {
    if (member.expectedStartOffset !== undefined && member.expectedStartOffset > position) return true;
    position += member.batch.recordCount;
  }
  return false;
}

/** The head `planning` becomes when a group of `recordCount` records and `logicalBytes` bytes commits under `session`. */
export function projectHead(
  planning: StreamHead,
  recordCount: number,
  logicalBytes: number,
  session: AppendSession,
): ProjectedHead {
  return {
    head: {
      ...planning,
      committedEndOffset: planning.committedEndOffset + recordCount,
      cumulativeSize: planning.cumulativeSize + logicalBytes,
      commitVersion: planning.commitVersion + 1,
      session,
    },
    heldSession: session,
  };
}

/** True when `committed` is exactly the projection a pipelined group was planned against. */
export function sameProjection(
  committed: StreamHead,
  planning: StreamHead,
  heldSession: AppendSession | undefined,
): boolean {
  return (
    committed.committedEndOffset === planning.committedEndOffset &&
    committed.cumulativeSize === planning.cumulativeSize &&
    committed.commitVersion === planning.commitVersion &&
    committed.session !== undefined &&
    heldSession !== undefined &&
    sameSession(committed.session, heldSession)
  );
}
