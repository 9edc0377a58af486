// The retention invariant of one stream, checked on the stored records (not on any process's copy): stream trim
// <= lastCompletedTrimOffset <= protectedFloorOffset <= markDelete of every ACTIVE cursor, and no ACTIVE cursor
// beyond the committed end. A TRIM_PENDING record may have the stream trimmed up to its pending offset.
import type { MetadataStore } from "@nereus/core";
import type { CursorRetentionRecord, CursorStateRecord } from "../domain/cursor-records.js";
import { cursorRetentionKey, cursorRootsPrefix } from "../keys/cursor-keys.js";
import { cursorRetentionCodec } from "../records/cursor-retention-codec.js";
import { cursorStateCodec } from "../records/cursor-state-codec.js";
import type { CursorStreamAccess } from "../store/cursor-store-options.js";

/** The stored cursor records of one stream. */
interface StoredCursorRecords {
  readonly retention: CursorRetentionRecord | undefined;
  readonly roots: readonly CursorStateRecord[];
}

/** Reads (and strictly decodes) the retention record and every cursor root of `streamId`. */
async function readStoredCursorRecords(
  metadata: MetadataStore,
  cluster: string,
  streamId: string,
): Promise<StoredCursorRecords> {
  const retentionKey = cursorRetentionKey(cluster, streamId);
  const stored = await metadata.get(retentionKey);
  const retention = stored === undefined ? undefined : cursorRetentionCodec.decode(stored.value, retentionKey);
  const roots: CursorStateRecord[] = [];
  let startAfter: string | undefined;
  for (;;) {
    const page = await metadata.scan(cursorRootsPrefix(cluster, streamId), { limit: 256, startAfter });
    for (const item of page.items) roots.push(cursorStateCodec.decode(item.value, item.key));
    const last = page.items.at(-1);
    if (!page.more || last === undefined) return { retention, roots };
    startAfter = last.key;
  }
}

/** What breaks the retention invariant of `streamId` as stored, or undefined when it holds. */
export async function retentionInvariantProblem(
  stores: { readonly metadata: MetadataStore; readonly streams: CursorStreamAccess },
  cluster: string,
  streamId: string,
): Promise<string | undefined> {
  const { retention, roots } = await readStoredCursorRecords(stores.metadata, cluster, streamId);
  const head = await stores.streams.getHead(streamId);
  if (retention === undefined) return roots.length === 0 ? undefined : "cursor roots without a retention record";
  const trimBound =
    retention.lifecycle === "TRIM_PENDING" ? (retention.pendingTrim?.offset ?? 0) : retention.lastCompletedTrimOffset;
  if (head.trimOffset > trimBound) {
    return `stream trim ${String(head.trimOffset)} above the last completed trim ${String(trimBound)}`;
  }
  if (retention.lastCompletedTrimOffset > retention.protectedFloorOffset) {
    return `last completed trim ${String(retention.lastCompletedTrimOffset)} above the floor ${String(retention.protectedFloorOffset)}`;
  }
  for (const root of roots) {
    if (root.lifecycle !== "ACTIVE") continue;
    if (root.markDeleteOffset < retention.protectedFloorOffset) {
      return `cursor ${root.cursorName} at ${String(root.markDeleteOffset)} below the floor ${String(retention.protectedFloorOffset)}`;
    }
    if (root.markDeleteOffset > head.committedEndOffset) {
      return `cursor ${root.cursorName} at ${String(root.markDeleteOffset)} beyond the committed end ${String(head.committedEndOffset)}`;
    }
  }
  return undefined;
}
