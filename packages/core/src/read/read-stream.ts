// The read path (digest §3.8): one head snapshot decides trim, end and state; each offset is resolved through the
// generation index (highest COMMITTED generation first) and the offset index, falling back to a lower generation of
// the same view on a checksum failure (a corrupt higher generation is quarantined first); a gap below the committed
// end is repaired from the commit chain, never reported as the end of the stream. Entries are returned whole (the
// entry containing the requested offset included), one ReadEntry per stored entry, within the record/byte budgets
// but always at least one entry.
import type { Deadline } from "../append/deadline.js";
import type { ReadEntry, ReadOptions, ReadResult } from "../domain/append-types.js";
import type { OffsetIndexEntry } from "../domain/commit-records.js";
import type { StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { loadHead } from "../lane/load-head.js";
import type { StoreContext } from "../stream-store/store-context.js";
import { quarantineGeneration } from "./quarantine-generation.js";
import { readIndexedEntries, type IndexedRange } from "./read-indexed-entries.js";
import { repairGenerationZeroIndex } from "./repair-generation-zero-index.js";
import { scanGenerationCandidates } from "./scan-generation-candidates.js";
import { scanIndexCandidates } from "./scan-index-candidates.js";

export const DEFAULT_READ_MAX_RECORDS = 10_000;
export const DEFAULT_READ_MAX_BYTES = 4 * 1024 * 1024;
/** Index ranges one read call may visit (bounds its I/O). */
const MAX_RANGES_PER_READ = 64;
const CHECKSUM_CODES: ReadonlySet<string> = new Set([ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH, ErrorCode.OBJECT_CHECKSUM_MISMATCH]);
/** Failures that prove a higher generation's target unusable (quarantine it, read a lower generation instead). */
const CORRUPT_GENERATION_CODES: ReadonlySet<string> = new Set([
  ...CHECKSUM_CODES,
  ErrorCode.DECODE_ERROR,
  ErrorCode.UNSUPPORTED_FORMAT,
  ErrorCode.OBJECT_NOT_FOUND,
  ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
]);

/** Reads committed entries of `streamId` from `offset`. */
export async function readStream(
  context: StoreContext,
  streamId: string,
  offset: number,
  options: ReadOptions,
  deadline: Deadline,
): Promise<ReadResult> {
  const maxRecords = positive("maxRecords", options.maxRecords ?? DEFAULT_READ_MAX_RECORDS);
  const maxBytes = positive("maxBytes", options.maxBytes ?? DEFAULT_READ_MAX_BYTES);
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `read offset must be a non-negative safe integer, got ${String(offset)}`, { retryable: false });
  }
  const { head } = await loadHead(context.metadata, context.keyspace, streamId, deadline.signal);
  if (head.state !== "ACTIVE" && head.state !== "SEALED") {
    throw new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `stream ${streamId} is ${head.state}`, { retryable: false });
  }
  if (offset < head.trimOffset) {
    throw new NereusError(ErrorCode.OFFSET_TRIMMED, `stream ${streamId}: offset ${String(offset)} is below the trim offset ${String(head.trimOffset)}`, {
      retryable: false,
      details: { trimOffset: head.trimOffset },
    });
  }
  const end = head.committedEndOffset;
  const entries: ReadEntry[] = [];
  let cursor = offset;
  let records = 0;
  let bytes = 0;
  let full = false;
  for (let ranges = 0; cursor < end && !full && ranges < MAX_RANGES_PER_READ; ranges++) {
    deadline.check(`read of ${streamId}`);
    const range = await readRange(context, head, cursor, deadline);
    for (const entry of range) {
      if (entry.offset + entry.recordCount <= cursor) continue;
      if (entries.length > 0 && (records + entry.recordCount > maxRecords || bytes + entry.payload.byteLength > maxBytes)) {
        full = true;
        break;
      }
      entries.push(entry);
      records += entry.recordCount;
      bytes += entry.payload.byteLength;
      cursor = entry.offset + entry.recordCount;
    }
  }
  return { streamId, requestedOffset: offset, entries, nextOffset: cursor, endOfStream: cursor >= end, committedEndOffset: end };
}

/** The entries of the committed range containing `offset`, from the best readable generation. */
async function readRange(context: StoreContext, head: StreamHead, offset: number, deadline: Deadline): Promise<ReadEntry[]> {
  const { metadata, keyspace } = context;
  const [firstScan, generations] = await Promise.all([
    scanIndexCandidates(metadata, keyspace, head.streamId, offset, deadline.signal),
    scanGenerationCandidates(metadata, keyspace, head.streamId, offset, deadline.signal),
  ]);
  for (const candidate of generations) {
    try {
      return await readCandidate(context, candidate.entry, deadline);
    } catch (error) {
      if (!NereusError.is(error) || !CORRUPT_GENERATION_CODES.has(error.code)) throw error;
      await quarantineGeneration(metadata, keyspace, candidate, deadline.signal);
    }
  }
  let scan = firstScan;
  if (scan.candidates.length === 0) {
    await repair(context, head, offset, scan.generationZeroAbove, deadline);
    scan = await scanIndexCandidates(metadata, keyspace, head.streamId, offset, deadline.signal);
  }
  let lastError: unknown;
  for (const candidate of scan.candidates) {
    try {
      return await readCandidate(context, candidate, deadline);
    } catch (error) {
      if (!NereusError.is(error) || !CHECKSUM_CODES.has(error.code) || candidate.generation === 0) throw error;
      lastError = error;
    }
  }
  if (lastError !== undefined) {
    // Every higher generation failed its checksum and generation 0 was not indexed here: repair it and read it.
    await repair(context, head, offset, scan.generationZeroAbove, deadline);
    const rescan = await scanIndexCandidates(metadata, keyspace, head.streamId, offset, deadline.signal);
    const zero = rescan.candidates.find((candidate) => candidate.generation === 0);
    if (zero !== undefined) return readCandidate(context, zero, deadline);
    throw lastError;
  }
  throw new NereusError(
    ErrorCode.METADATA_INVARIANT_VIOLATION,
    `stream ${head.streamId}: offset ${String(offset)} is below the committed end ${String(head.committedEndOffset)} but no index entry covers it after repair`,
    { retryable: false },
  );
}

/**
 * Repairs generation 0 down to `offset` in budget-sized steps (each step's progress is durable, and the next step
 * starts below it), until covered or the read's deadline ends.
 */
async function repair(context: StoreContext, head: StreamHead, offset: number, above: OffsetIndexEntry | undefined, deadline: Deadline): Promise<void> {
  let anchor = above;
  for (;;) {
    try {
      await repairGenerationZeroIndex({
        metadata: context.metadata,
        keyspace: context.keyspace,
        head,
        offset,
        above: anchor,
        budget: context.limits.repairBudget,
        signal: deadline.signal,
      });
      return;
    } catch (error) {
      if (!NereusError.hasCode(error, ErrorCode.READ_RESOLUTION_FAILED) || deadline.remainingMs() === 0) throw error;
    }
    anchor = (await scanIndexCandidates(context.metadata, context.keyspace, head.streamId, offset, deadline.signal)).generationZeroAbove;
  }
}

function readCandidate(context: StoreContext, candidate: IndexedRange, deadline: Deadline): Promise<ReadEntry[]> {
  const reader = context.providers.reader(candidate.readTarget.type);
  if (reader === undefined) {
    throw new NereusError(ErrorCode.UNSUPPORTED_READ_TARGET, `no WAL reader is installed for ${candidate.readTarget.type} targets`, { retryable: false });
  }
  return readIndexedEntries(reader, candidate, deadline.signal);
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `${name} must be a positive integer, got ${String(value)}`, { retryable: false });
  }
  return value;
}
