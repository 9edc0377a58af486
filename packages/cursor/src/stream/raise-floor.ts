// The floor raise: the protected floor moves up to the lowest markDelete of the stream's ACTIVE cursors (to the
// committed end when there is none), in one CAS on the retention version the scan started from. Cursor positions
// only move down through a protection, which needs that same record, so a scan that is not one snapshot is still
// a safe lower bound.
import { ErrorCode, NereusError } from "@nereus/core";
import type { CursorRetentionRecord } from "../domain/cursor-records.js";
import { cursorStateCodec } from "../records/cursor-state-codec.js";
import type { RetentionRoot } from "./retention-root.js";
import { raisedFloorRetention, retentionBusyError } from "./retention-transitions.js";
import { scanCursorRootValues } from "./scan-cursor-roots.js";

/**
 * Raises the floor of `root` (ACTIVE, else CURSOR_BUSY) and returns the record; unchanged when no cursor moved
 * past it. An ACTIVE cursor found below the floor fails with METADATA_INVARIANT_VIOLATION.
 */
export async function raiseProtectedFloor(
  root: RetentionRoot,
  signal: AbortSignal | undefined,
): Promise<CursorRetentionRecord> {
  const current = root.current;
  if (current.lifecycle !== "ACTIVE") throw retentionBusyError(current, "raise the protected floor");
  const candidate = await lowestActivePosition(root, signal);
  if (candidate < current.protectedFloorOffset) {
    throw new NereusError(
      ErrorCode.METADATA_INVARIANT_VIOLATION,
      `stream ${current.streamId}: an ACTIVE cursor is at ${String(candidate)}, below the protected floor ` +
        `${String(current.protectedFloorOffset)}`,
      { retryable: false },
    );
  }
  if (candidate === current.protectedFloorOffset) return current;
  return root.write(raisedFloorRetention(current, candidate, root.owner.env.now()), signal);
}

async function lowestActivePosition(root: RetentionRoot, signal: AbortSignal | undefined): Promise<number> {
  const { env, streamId } = root.owner;
  let lowest = Number.POSITIVE_INFINITY;
  for (const value of await scanCursorRootValues(env, streamId, signal)) {
    const record = cursorStateCodec.decode(value.value, value.key);
    if (record.lifecycle === "ACTIVE") lowest = Math.min(lowest, record.markDeleteOffset);
  }
  if (lowest !== Number.POSITIVE_INFINITY) return lowest;
  return (await env.streams.getHead(streamId, { signal })).committedEndOffset;
}
