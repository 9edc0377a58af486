// A comparable picture of one stream's cursors as a process sees them: per ACTIVE cursor its identity, positions,
// backlog and the acknowledgement of every entry and batch index below the committed end; the retention record's
// positions; the stream's trim and end. Two processes that agree on this agree on everything a consumer observes.
import type { CursorHandle } from "../cursor/cursor-handle.js";
import type { StreamCursors } from "../stream/stream-cursors.js";
import type { CursorStreamAccess } from "../store/cursor-store-options.js";

/** Batch indexes the summary looks at in every entry (the suites ack batches of this size). */
export const SUMMARY_BATCH_SIZE = 4;

interface CursorSummary {
  readonly name: string;
  readonly generation: number;
  readonly ackStateEpoch: number;
  readonly markDeleteOffset: number;
  readonly firstUnacked: number;
  readonly backlog: number;
  /** Per entry below the committed end: `W` (whole) or the acked batch indexes as 0/1 digits. */
  readonly acked: string;
  readonly cursorProperties: string;
}

export interface StreamSummary {
  readonly committedEnd: number;
  readonly trimOffset: number;
  readonly retention: {
    readonly lifecycle: string;
    readonly protectedFloorOffset: number;
    readonly lastCompletedTrimOffset: number;
  };
  readonly cursors: readonly CursorSummary[];
}

/** The summary of `cursors` (reads the stream's head once). */
export async function summarizeStream(cursors: StreamCursors, streams: CursorStreamAccess): Promise<StreamSummary> {
  const head = await streams.getHead(cursors.streamId);
  const retention = cursors.retention();
  return {
    committedEnd: head.committedEndOffset,
    trimOffset: head.trimOffset,
    retention: {
      lifecycle: retention.lifecycle,
      protectedFloorOffset: retention.protectedFloorOffset,
      lastCompletedTrimOffset: retention.lastCompletedTrimOffset,
    },
    cursors: cursors.list().map((handle) => summarizeCursor(handle, head.committedEndOffset)),
  };
}

/** The summary of one cursor over the entries below `committedEnd`. */
function summarizeCursor(handle: CursorHandle, committedEnd: number): CursorSummary {
  const acked: string[] = [];
  for (let offset = 0; offset < committedEnd; offset++) {
    if (handle.isAcked(offset)) {
      acked.push("W");
      continue;
    }
    let bits = "";
    for (let index = 0; index < SUMMARY_BATCH_SIZE; index++) bits += handle.isAcked(offset, index) ? "1" : "0";
    acked.push(bits);
  }
  return {
    name: handle.name,
    generation: handle.generation,
    ackStateEpoch: handle.ackStateEpoch,
    markDeleteOffset: handle.markDeleteOffset,
    firstUnacked: handle.firstUnacked(),
    backlog: handle.backlog(committedEnd),
    acked: acked.join(" "),
    cursorProperties: JSON.stringify([...handle.cursorProperties].sort()),
  };
}
