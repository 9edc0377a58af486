// Read path, resolve step: one bounded scan of a stream's offset index from the first key whose offsetEnd is
// above `offset` (index keys sort by offsetEnd, then generation). Returns every entry covering `offset` —
// highest generation first, so the most read-optimized committed copy wins — and the nearest generation-0 entry
// above it, which anchors a repair walk when generation 0 has a gap here. The whole decoded page is returned too
// (the read path keeps it in its resolution cache for the offsets that follow).
import type { OffsetIndexEntry } from "../domain/commit-records.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { StreamKeyspace } from "../records/stream-keyspace.js";

/** Index entries one resolve scan looks at; a higher generation further ahead than this is not considered. */
const INDEX_SCAN_PAGE = 128;

export interface IndexScan {
  /** Entries with offsetStart ≤ offset < offsetEnd, highest generation first. */
  readonly candidates: readonly OffsetIndexEntry[];
  /** The first generation-0 entry that starts above `offset`, if the page holds one. */
  readonly generationZeroAbove: OffsetIndexEntry | undefined;
  /** Every entry of the scanned page, in key order (offsetEnd, then generation). */
  readonly page: readonly OffsetIndexEntry[];
}

export async function scanIndexCandidates(
  metadata: MetadataStore,
  keyspace: StreamKeyspace,
  streamId: string,
  offset: number,
  signal?: AbortSignal,
): Promise<IndexScan> {
  const page = await metadata.scan(keyspace.indexPrefix(streamId), {
    startAt: keyspace.indexScanStart(streamId, offset + 1),
    limit: INDEX_SCAN_PAGE,
    signal,
  });
  const candidates: OffsetIndexEntry[] = [];
  let generationZeroAbove: OffsetIndexEntry | undefined;
  const entries: OffsetIndexEntry[] = [];
  for (const item of page.items) {
    const entry = keyspace.decodeIndex(item);
    entries.push(entry);
    if (entry.offsetStart <= offset && offset < entry.offsetEnd) candidates.push(entry);
    else if (entry.generation === 0 && entry.offsetStart > offset && generationZeroAbove === undefined)
      generationZeroAbove = entry;
  }
  candidates.sort((a, b) => b.generation - a.generation);
  return { candidates, generationZeroAbove, page: entries };
}
