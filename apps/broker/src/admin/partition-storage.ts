// A partition's storage as GET /admin/v1/topics/{name} describes it: its generation-0 ranges in Object WAL objects
// (the offset index from the trim offset on), its read-optimized generations (the generation index) and its
// background materialization (the stream's materialization record: materialized end, task in progress). Both index
// scans are bounded (MAX_INDEX_ENTRIES each): a stream with more entries is reported `truncated` with the counts of
// the first ones. Read-only: metadata scans and gets, no object reads.
import type { KeyValue, MetadataStore, StorageProfile, StreamHead } from "@nereus/core";
import { StreamKeyspace } from "@nereus/core/internal";
import { streamMaterializationCodec, streamMaterializationKey } from "@nereus/object-wal/internal";
import type { PartitionStorageView } from "./admin-views.js";

/** Index entries one describe reads per index of a partition. */
const MAX_INDEX_ENTRIES = 10_000;
const SCAN_PAGE = 500;

/** Which profiles this broker's background materialization builds generations for (see materializationMode). */
export function materializes(mode: "all" | "async" | "off", profile: StorageProfile): boolean {
  if (mode === "off") return false;
  if (mode === "async") return profile === "OBJECT_WAL_ASYNC_OBJECT";
  return profile === "OBJECT_WAL_SYNC_OBJECT" || profile === "OBJECT_WAL_ASYNC_OBJECT";
}

/** The key-values under `prefix` from `startAt`, at most `limit`; `more` when the scan stopped at the limit. */
async function scanBounded(
  metadata: MetadataStore,
  prefix: string,
  startAt: string,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<{ items: KeyValue[]; more: boolean }> {
  const items: KeyValue[] = [];
  let startAfter: string | undefined;
  for (;;) {
    const page = await metadata.scan(prefix, {
      limit: Math.min(SCAN_PAGE, limit - items.length),
      ...(startAfter === undefined ? { startAt } : { startAfter }),
      ...(signal === undefined ? {} : { signal }),
    });
    items.push(...page.items);
    const last = page.items.at(-1);
    if (!page.more || last === undefined) return { items, more: false };
    if (items.length >= limit) return { items, more: true };
    startAfter = last.key;
  }
}

async function walRanges(
  metadata: MetadataStore,
  keyspace: StreamKeyspace,
  head: StreamHead,
  signal: AbortSignal | undefined,
): Promise<{ view: PartitionStorageView["wal"]; truncated: boolean }> {
  const { streamId } = head;
  const start = keyspace.indexScanStart(streamId, head.trimOffset + 1);
  const scanned = await scanBounded(metadata, keyspace.indexPrefix(streamId), start, MAX_INDEX_ENTRIES, signal);
  const objects = new Set<string>();
  let ranges = 0;
  let bytes = 0;
  for (const item of scanned.items) {
    const entry = keyspace.decodeIndex(item);
    const target = entry.readTarget;
    if (target.type !== "OBJECT_SLICE" || target.objectType !== "MULTI_STREAM_WAL_OBJECT") continue;
    ranges += 1;
    bytes += target.sliceLength;
    objects.add(target.objectKey);
  }
  return { view: { ranges, objects: objects.size, bytes }, truncated: scanned.more };
}

async function generations(
  metadata: MetadataStore,
  keyspace: StreamKeyspace,
  head: StreamHead,
  signal: AbortSignal | undefined,
): Promise<{ view: PartitionStorageView["generations"]; truncated: boolean }> {
  const { streamId } = head;
  const start = keyspace.generationIndexScanStart(streamId, head.trimOffset + 1);
  const prefix = keyspace.generationIndexPrefix(streamId);
  const scanned = await scanBounded(metadata, prefix, start, MAX_INDEX_ENTRIES, signal);
  const objects = new Set<string>();
  const other: Record<string, number> = {};
  let committed = 0;
  let highestLevel = 0;
  let bytes = 0;
  for (const item of scanned.items) {
    const entry = keyspace.decodeGenerationIndex(item);
    if (entry.state !== "COMMITTED") {
      other[entry.state] = (other[entry.state] ?? 0) + 1;
      continue;
    }
    committed += 1;
    highestLevel = Math.max(highestLevel, entry.level);
    bytes += entry.logicalBytes;
    if (entry.readTarget.type === "OBJECT_SLICE") objects.add(entry.readTarget.objectKey);
  }
  return { view: { committed, highestLevel, objects: objects.size, bytes, other }, truncated: scanned.more };
}

async function materialization(
  metadata: MetadataStore,
  cluster: string,
  head: StreamHead,
  applies: boolean,
  signal: AbortSignal | undefined,
): Promise<PartitionStorageView["materialization"]> {
  const key = streamMaterializationKey(cluster, head.streamId);
  const stored = await metadata.get(key, signal === undefined ? {} : { signal });
  if (stored === undefined && !applies) return null;
  const record = stored === undefined ? undefined : streamMaterializationCodec.decode(stored.value, key);
  const materializedEnd = Math.max(record?.materializedEnd ?? 0, head.trimOffset);
  // The cumulative size at the materialized end is known from the record, or is 0 for an untrimmed stream.
  const materializedBytes =
    record !== undefined && record.materializedEnd === materializedEnd
      ? record.materializedCumulativeSize
      : materializedEnd === 0
        ? 0
        : undefined;
  const task = record?.task;
  return {
    materializedEnd,
    backlogBytes:
      materializedEnd >= head.committedEndOffset
        ? 0
        : materializedBytes === undefined
          ? null
          : head.cumulativeSize - materializedBytes,
    backlogRecords: Math.max(0, head.committedEndOffset - materializedEnd),
    task:
      task === undefined || task.state === "PUBLISHED" || task.state === "ABANDONED"
        ? null
        : { state: task.state, level: task.level, from: task.offsetStart, to: task.offsetEnd },
  };
}

/**
 * The storage details of the stream whose head is `head`. `materializationApplies` says whether this broker's
 * background materialization covers the stream's profile (the record is reported anyway when one exists).
 */
export async function describePartitionStorage(
  metadata: MetadataStore,
  cluster: string,
  head: StreamHead,
  materializationApplies: boolean,
  signal?: AbortSignal,
): Promise<PartitionStorageView> {
  const keyspace = new StreamKeyspace(cluster);
  const [wal, generationView, materialized] = await Promise.all([
    walRanges(metadata, keyspace, head, signal),
    generations(metadata, keyspace, head, signal),
    materialization(metadata, cluster, head, materializationApplies, signal),
  ]);
  return {
    commits: head.commitVersion,
    writer: head.session === undefined ? null : { writerId: head.session.writerId, epoch: head.session.epoch },
    wal: wal.view,
    generations: generationView.view,
    materialization: materialized,
    truncated: wal.truncated || generationView.truncated,
  };
}
