// Read path, fetch step: read one index entry's target through the WAL reader for its type and map the stored
// entries onto offsets (first offset of each entry), verifying they match the index exactly — same number of
// entries, same record counts, same total range. Returned payloads are the reader's buffers (possibly shared with
// its cache: read-only).
import type { ReadEntry } from "../domain/append-types.js";
import type { OffsetIndexEntry } from "../domain/commit-records.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { StoredEntry, WalReader } from "../spi/wal.js";

/** What the fetch step needs of an index entry (generation 0 or a higher generation). */
export type IndexedRange = Pick<
  OffsetIndexEntry,
  "streamId" | "offsetStart" | "offsetEnd" | "generation" | "readTarget" | "entryRecordCounts"
>;

/** The entries of `entry`'s target with their offsets. */
export async function readIndexedEntries(
  reader: WalReader,
  entry: IndexedRange,
  signal?: AbortSignal,
): Promise<ReadEntry[]> {
  return indexedEntries(entry, await reader.readEntries(entry.readTarget, { signal }));
}

/** `stored` (what the reader returned for `entry`'s target) with offsets, checked against the index entry. */
export function indexedEntries(entry: IndexedRange, stored: readonly StoredEntry[]): ReadEntry[] {
  if (stored.length !== entry.entryRecordCounts.length)
    throw mismatch(entry, `${String(stored.length)} entries instead of ${String(entry.entryRecordCounts.length)}`);
  const result: ReadEntry[] = [];
  let offset = entry.offsetStart;
  stored.forEach((item, index) => {
    if (item.recordCount !== entry.entryRecordCounts[index])
      throw mismatch(entry, `entry ${String(index)} has ${String(item.recordCount)} records`);
    result.push({ offset, recordCount: item.recordCount, payload: item.payload });
    offset += item.recordCount;
  });
  if (offset !== entry.offsetEnd) throw mismatch(entry, `entries end at ${String(offset)}`);
  return result;
}

function mismatch(entry: IndexedRange, detail: string): NereusError {
  return new NereusError(
    ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
    `stream ${entry.streamId}: target of [${String(entry.offsetStart)}, ${String(entry.offsetEnd)}) generation ${String(entry.generation)} does not match its index: ${detail}`,
    { retryable: false },
  );
}
