// The cursor step of a writable open: scan every root of the stream, hydrate the ACTIVE ones (root → snapshot →
// root), keep the tombstones, and repeat until a scan after hydration sees exactly the keys and revisions the
// hydration started from. Every ACTIVE cursor is checked against the retention invariant on the way.
import { ErrorCode, NereusError, type StreamHead } from "@nereus/core";
import { hydrateCursor, hydrateCursorVersion } from "../cursor/hydrate-cursor.js";
import { type HydratedCursor, hydratedCursorOf } from "../cursor/hydrated-cursor.js";
import type { CursorRetentionRecord } from "../domain/cursor-records.js";
import { cursorStateCodec } from "../records/cursor-state-codec.js";
import type { OwnerContext } from "../store/owner-context.js";
import { rootsFingerprint, scanCursorRootValues } from "./scan-cursor-roots.js";

/**
 * Every cursor of `owner`'s stream, hydrated, from a stable scan. Fails with METADATA_INVARIANT_VIOLATION for an
 * ACTIVE cursor below the protected floor of `retention` or beyond the committed end of `head`, and with a
 * retriable METADATA_CONDITION_FAILED when the roots kept changing for `limits.maxCasAttempts` scans.
 */
export async function loadStreamCursors(
  owner: OwnerContext,
  retention: CursorRetentionRecord,
  head: StreamHead,
  signal: AbortSignal | undefined,
): Promise<HydratedCursor[]> {
  const { env, streamId } = owner;
  let values = await scanCursorRootValues(env, streamId, signal);
  for (let scan = 1; scan <= env.limits.maxCasAttempts; scan++) {
    const cursors: HydratedCursor[] = [];
    for (const value of values) {
      const record = cursorStateCodec.decode(value.value, value.key);
      const cursor =
        record.lifecycle === "DELETED"
          ? hydratedCursorOf(record, value.modRevision)
          : (await hydrateCursorVersion(owner, record.cursorNameHash, value, { signal })).cursor;
      checkAgainstRetention(cursor, retention, head);
      cursors.push(cursor);
    }
    const after = await scanCursorRootValues(env, streamId, signal);
    if (rootsFingerprint(after) === rootsFingerprint(values)) return cursors;
    values = after;
  }
  throw new NereusError(
    ErrorCode.METADATA_CONDITION_FAILED,
    `cursor roots of stream ${streamId} kept changing while they were loaded`,
    { retryable: true },
  );
}

/** The current version of cursor `cursorNameHash` (tombstones included), or undefined when it has no root. */
export async function loadCursorIfPresent(
  owner: OwnerContext,
  cursorNameHash: string,
  signal: AbortSignal | undefined,
): Promise<HydratedCursor | undefined> {
  try {
    return await hydrateCursor(owner, cursorNameHash, { signal });
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.CURSOR_NOT_FOUND)) return undefined;
    throw error;
  }
}

function checkAgainstRetention(cursor: HydratedCursor, retention: CursorRetentionRecord, head: StreamHead): void {
  const { root } = cursor;
  if (root.lifecycle !== "ACTIVE") return;
  const markDelete = root.markDeleteOffset;
  if (markDelete >= retention.protectedFloorOffset && markDelete <= head.committedEndOffset) return;
  throw new NereusError(
    ErrorCode.METADATA_INVARIANT_VIOLATION,
    `cursor ${JSON.stringify(root.cursorName)} of stream ${root.streamId} is at ${String(markDelete)}, outside ` +
      `[protected floor ${String(retention.protectedFloorOffset)}, committed end ${String(head.committedEndOffset)}]`,
    { retryable: false },
  );
}
