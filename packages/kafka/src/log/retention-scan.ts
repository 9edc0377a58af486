// The scan behind retention: walks a partition's stored batches from its log start and deletes the prefix a rule
// lets go, as Apache Kafka deletes log segments from the oldest on and stops at the first one it must keep. The
// first read asks for one batch only (most passes find the oldest batch kept and read nothing more); later reads
// take `readBytes`. Every `stepBytes` of batches let go it trims (durable progress on a long prefix), and once at the
// end. A batch that starts below the log start (the log start lies inside it after DeleteRecords) counts whole.
import type { ReadEntry } from "@nereus/core";
import { type BatchSummary, summarizeBatch } from "./stored-batch.js";

export interface RetentionScan {
  /** The partition's log start (first offset scanned). */
  readonly from: number;
  /** The high watermark seen when the pass began: nothing at or above it is considered. */
  readonly until: number;
  /** Budget of each read after the first. */
  readonly readBytes: number;
  /** Bytes of batches let go between two trims. */
  readonly stepBytes: number;
  /** Whole stored batches from `offset` (the first may start before it), at least one. */
  readonly read: (offset: number, maxBytes: number) => Promise<readonly ReadEntry[]>;
  /** Raises the log start to `offset`; `removedBytes` are the bytes of the batches let go since the last trim. */
  readonly trim: (offset: number, removedBytes: number) => Promise<void>;
  /** Called on each batch in order; false keeps it (and everything after it) and ends the scan. */
  readonly letGo: (batch: BatchSummary) => boolean;
  /** Once aborted, no further read or trim starts (the rest is left for the next pass). */
  readonly signal?: AbortSignal;
}

/** Runs the scan; answers the offset the log start was raised to (`from` when nothing was let go). */
export async function deletePrefix(scan: RetentionScan): Promise<number> {
  const stopped = (): boolean => scan.signal?.aborted === true;
  let cut = scan.from;
  let trimmed = scan.from;
  let pendingBytes = 0;
  let readBytes = 1;
  scanning: while (cut < scan.until && !stopped()) {
    const entries = await scan.read(cut, readBytes);
    if (entries.length === 0) break;
    for (const entry of entries) {
      if (entry.offset >= scan.until) break scanning;
      const batch = summarizeBatch(entry.payload, entry.offset, entry.recordCount);
      if (!scan.letGo(batch)) break scanning;
      cut = batch.baseOffset + batch.recordCount;
      pendingBytes += batch.bytes;
      if (pendingBytes >= scan.stepBytes) {
        if (stopped()) break scanning;
        await scan.trim(cut, pendingBytes);
        trimmed = cut;
        pendingBytes = 0;
      }
    }
    readBytes = scan.readBytes;
  }
  if (cut > trimmed && !stopped()) {
    await scan.trim(cut, pendingBytes);
    trimmed = cut;
  }
  return trimmed;
}

/** Bytes of the stored batches in [from, until) (a batch holding `from` counts whole). Reads them all. */
export async function sumBatchBytes(
  read: RetentionScan["read"],
  from: number,
  until: number,
  readBytes: number,
  signal?: AbortSignal,
): Promise<number | undefined> {
  let bytes = 0;
  let offset = from;
  while (offset < until) {
    if (signal?.aborted === true) return undefined;
    const entries = await read(offset, readBytes);
    if (entries.length === 0) break;
    for (const entry of entries) {
      if (entry.offset >= until) return bytes;
      bytes += entry.payload.byteLength;
      offset = entry.offset + entry.recordCount;
    }
  }
  return bytes;
}
