// Reads what the deletion proof of one stream needs (plan-release.ts): the head, then every stored commit intent
// and replay marker, the generation-0 index entries up to the release floor and every generation index entry —
// paged scans, each page bounded. The head is read first: commits added during the scans start at or above its
// committed end, so they are above the floor the proof uses and never look like leftovers.
import type { CommitIntent, OffsetIndexEntry, ReplayMarker } from "../domain/commit-records.js";
import type { GenerationIndexEntry } from "../domain/generation-records.js";
import { parsePad19 } from "../identity/pad19.js";
import { loadHead } from "../records/load-head.js";
import type { StreamKeyspace, VersionedHead } from "../records/stream-keyspace.js";
import type { KeyValue, MetadataStore } from "../spi/metadata-store.js";
import { releaseFloor, type ReleaseInput, type StoredRecord } from "./plan-release.js";

const SCAN_PAGE = 512;

/** The stored records of one stream, with the head they were read under. */
export type StreamRecords = Omit<ReleaseInput, "busy" | "handles"> & { readonly headRevision: number };

/** Loads `streamId`'s records for the proof. Throws STREAM_NOT_FOUND when the stream has no head. */
export async function loadStreamRecords(
  metadata: MetadataStore,
  keyspace: StreamKeyspace,
  streamId: string,
  signal?: AbortSignal,
): Promise<StreamRecords> {
  const versioned: VersionedHead = await loadHead(metadata, keyspace, streamId, signal);
  const floor = releaseFloor(versioned.head);
  const [commits, markers, indexEntries, generations] = await Promise.all([
    scanAll(metadata, keyspace.intentPrefix(streamId), signal, (kv) => stored(kv, keyspace.decodeIntent(kv))),
    scanAll(metadata, keyspace.markerPrefix(streamId), signal, (kv) => stored(kv, keyspace.decodeMarker(kv))),
    scanIndexUpTo(metadata, keyspace, streamId, floor, signal),
    scanAll(metadata, keyspace.generationIndexPrefix(streamId), signal, (kv) =>
      stored(kv, keyspace.decodeGenerationIndex(kv)),
    ),
  ]);
  return {
    head: versioned.head,
    headRevision: versioned.revision,
    commits: commits satisfies StoredRecord<CommitIntent>[],
    markers: markers satisfies StoredRecord<ReplayMarker>[],
    indexEntries,
    generations: generations satisfies StoredRecord<GenerationIndexEntry>[],
  };
}

function stored<T>(kv: KeyValue, record: T): StoredRecord<T> {
  return { key: kv.key, revision: kv.modRevision, record };
}

async function scanAll<T>(
  metadata: MetadataStore,
  prefix: string,
  signal: AbortSignal | undefined,
  decode: (kv: KeyValue) => T,
): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await metadata.scan(prefix, {
      limit: SCAN_PAGE,
      ...(after === undefined ? {} : { startAfter: after }),
      signal,
    });
    for (const kv of page.items) items.push(decode(kv));
    const last = page.items.at(-1);
    if (!page.more || last === undefined) return items;
    after = last.key;
  }
}

/** Generation-0 index entries (keys sort by offsetEnd) ending at or below `floor`. */
async function scanIndexUpTo(
  metadata: MetadataStore,
  keyspace: StreamKeyspace,
  streamId: string,
  floor: number,
  signal: AbortSignal | undefined,
): Promise<StoredRecord<OffsetIndexEntry>[]> {
  const prefix = keyspace.indexPrefix(streamId);
  const entries: StoredRecord<OffsetIndexEntry>[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await metadata.scan(prefix, {
      limit: SCAN_PAGE,
      ...(after === undefined ? {} : { startAfter: after }),
      signal,
    });
    for (const kv of page.items) {
      if (parsePad19(kv.key.slice(prefix.length, prefix.length + 19)) > floor) return entries;
      entries.push(stored(kv, keyspace.decodeIndex(kv)));
    }
    const last = page.items.at(-1);
    if (!page.more || last === undefined) return entries;
    after = last.key;
  }
}
