// Background generation-0 index repair (docs/architecture.md §5.2, §6; the async profile acknowledges at the stable head and leaves
// the index to the read path and to this worker step). Walks the stream's generation-0 index forward from a known
// covered offset; wherever a commit has no index entry, core's repair walks the commit chain (the authority) down
// from the nearest indexed commit above the gap — or from the head — and writes the missing entries and replay
// markers put-if-absent-or-equal. Returns how far the index is now known to be contiguous.
import { ErrorCode, NereusError, type MetadataStore, type OffsetIndexEntry, type StreamHead } from "@nereus/core";
import { repairGenerationZeroIndex, type StreamKeyspace } from "@nereus/core/internal";

const SCAN_PAGE = 256;

export interface AdvanceGenerationZeroInput {
  readonly metadata: MetadataStore;
  readonly keyspace: StreamKeyspace;
  readonly head: StreamHead;
  /** Every commit ending at or below this offset is known to be indexed. */
  readonly from: number;
  /** Commits one repair call may walk (it is called again until the gap closes). */
  readonly repairBudget: number;
  readonly signal?: AbortSignal;
}

export interface AdvanceGenerationZeroResult {
  /** The index is contiguous from `from` up to here (= the head's committed end unless the deadline ended first). */
  readonly indexedEnd: number;
  /** Commits whose index entry this call had to write (walked by repair). */
  readonly repairedGaps: number;
}

/** Closes every generation-0 index gap in [max(from, trim), head end). */
export async function advanceGenerationZeroIndex(
  input: AdvanceGenerationZeroInput,
): Promise<AdvanceGenerationZeroResult> {
  const { metadata, keyspace, head } = input;
  const streamId = head.streamId;
  const end = head.committedEndOffset;
  let cursor = Math.min(Math.max(input.from, head.trimOffset), end);
  let repairedGaps = 0;
  while (cursor < end) {
    input.signal?.throwIfAborted();
    const page = await metadata.scan(keyspace.indexPrefix(streamId), {
      startAt: keyspace.indexScanStart(streamId, cursor + 1),
      limit: SCAN_PAGE,
      signal: input.signal,
    });
    let gapAbove: OffsetIndexEntry | undefined;
    let gap = false;
    for (const item of page.items) {
      const entry = keyspace.decodeIndex(item);
      if (entry.generation !== 0 || entry.offsetEnd <= cursor) continue;
      if (entry.offsetStart > cursor) {
        gap = true;
        gapAbove = entry;
        break;
      }
      cursor = entry.offsetEnd;
    }
    if (!gap && (page.more || cursor >= end)) continue;
    // A gap at `cursor`: below `gapAbove`, or at the tail (walk from the head).
    await repairUntilCovered(input, cursor, gapAbove);
    repairedGaps += 1;
  }
  return { indexedEnd: cursor, repairedGaps };
}

async function repairUntilCovered(
  input: AdvanceGenerationZeroInput,
  offset: number,
  above: OffsetIndexEntry | undefined,
): Promise<void> {
  let anchor = above;
  for (;;) {
    try {
      await repairGenerationZeroIndex({
        metadata: input.metadata,
        keyspace: input.keyspace,
        head: input.head,
        offset,
        above: anchor,
        budget: input.repairBudget,
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      });
      return;
    } catch (error) {
      if (!NereusError.hasCode(error, ErrorCode.READ_RESOLUTION_FAILED)) throw error;
    }
    // Budget exhausted: the walked part is indexed; continue below the lowest entry written so far.
    anchor = await lowestAbove(input, offset);
  }
}

/** The first generation-0 entry starting above `offset` (what the last repair step left as its lower edge). */
async function lowestAbove(input: AdvanceGenerationZeroInput, offset: number): Promise<OffsetIndexEntry | undefined> {
  const { metadata, keyspace, head } = input;
  const page = await metadata.scan(keyspace.indexPrefix(head.streamId), {
    startAt: keyspace.indexScanStart(head.streamId, offset + 1),
    limit: SCAN_PAGE,
    signal: input.signal,
  });
  for (const item of page.items) {
    const entry = keyspace.decodeIndex(item);
    if (entry.generation === 0 && entry.offsetStart > offset) return entry;
  }
  return undefined;
}
