// Read path, resolve step for higher generations: one bounded scan of a stream's generation index from the first
// key whose offsetEnd is above `offset`. Returns the COMMITTED entries covering `offset`, highest generation first,
// each with the revision it was read at (a quarantine CAS compares it). PREPARED, QUARANTINED and ABORTED entries
// are never returned: only committed generations are readable. `committed` holds every COMMITTED entry of the page
// (the read path caches them for the offsets that follow).
import type { GenerationIndexEntry } from "../domain/generation-records.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { StreamKeyspace } from "../records/stream-keyspace.js";

/** Generation index entries one resolve scan looks at (entries ending further ahead are not considered). */
const GENERATION_SCAN_PAGE = 64;

/** A committed generation entry and the revision it was read at. */
export interface GenerationCandidate {
  readonly entry: GenerationIndexEntry;
  readonly key: string;
  readonly revision: number;
}

export interface GenerationScan {
  /** COMMITTED entries covering the offset, highest generation first. */
  readonly candidates: readonly GenerationCandidate[];
  /** Every COMMITTED entry of the scanned page, in key order. */
  readonly committed: readonly GenerationCandidate[];
}

export async function scanGenerationCandidates(
  metadata: MetadataStore,
  keyspace: StreamKeyspace,
  streamId: string,
  offset: number,
  signal?: AbortSignal,
): Promise<GenerationScan> {
  const page = await metadata.scan(keyspace.generationIndexPrefix(streamId), {
    startAt: keyspace.generationIndexScanStart(streamId, offset + 1),
    limit: GENERATION_SCAN_PAGE,
    signal,
  });
  const candidates: GenerationCandidate[] = [];
  const committed: GenerationCandidate[] = [];
  for (const item of page.items) {
    const entry = keyspace.decodeGenerationIndex(item);
    if (entry.state !== "COMMITTED") continue;
    const candidate = { entry, key: item.key, revision: item.modRevision };
    committed.push(candidate);
    if (entry.offsetStart <= offset && offset < entry.offsetEnd) candidates.push(candidate);
  }
  candidates.sort((a, b) => b.entry.generation - a.entry.generation);
  return { candidates, committed };
}
