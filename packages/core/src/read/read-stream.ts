// The read path (docs/architecture.md §5): one head snapshot decides trim, end and state; each offset is resolved through the
// generation index (highest COMMITTED generation first) and the offset index, falling back to a lower generation of
// the same view on a checksum failure (a corrupt higher generation is quarantined first); a gap below the committed
// end is repaired from the commit chain, never reported as the end of the stream. Entries are returned whole (the
// entry containing the requested offset included), one ReadEntry per stored entry, within the record/byte budgets
// but always at least one entry.
// Fast path: resolutions come from a per-store positive cache (read-resolution-cache.ts) filled by every resolve
// scan; the consecutive ranges a read will need are planned from it and fetched at once (readers that offer
// `accelerations.readEntriesMany` coalesce them into fewer GETs). A failure of any kind on a cached resolution drops the stream's
// cache and resolves that range again from metadata, where quarantine, fallback and repair happen as before.
// Reclamation: every fetch pins its targets (reclamation/read-pins.ts) so a collector of this process never deletes
// what it reads; a target that is gone anyway (reclaimed by another process after its grace period, or condemned
// here) sends the read back to metadata under a fresh head: a trim that passed the read's position meanwhile ends
// it cleanly (OFFSET_TRIMMED, or the entries read so far), otherwise the range is resolved once more (a higher
// generation replaced the released target).
import type { Deadline } from "../timing/deadline.js";
import type { ReadEntry, ReadOptions, ReadResult } from "../domain/append-types.js";
import type { OffsetIndexEntry } from "../domain/commit-records.js";
import type { ReadTarget } from "../domain/read-target.js";
import type { StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { loadHead } from "../records/load-head.js";
import type { StoredEntry, WalReader } from "../spi/wal.js";
import type { ReadContext } from "./read-context.js";
import { physicalTargetId } from "../reclamation/read-pins.js";
import { quarantineGeneration } from "./quarantine-generation.js";
import { indexedEntries, readIndexedEntries, type IndexedRange } from "./read-indexed-entries.js";
import type { CachedResolution, ReadResolutionCache } from "./read-resolution-cache.js";
import { repairGenerationZeroIndex } from "./repair-generation-zero-index.js";
import { scanGenerationCandidates, type GenerationScan } from "./scan-generation-candidates.js";
import { scanIndexCandidates } from "./scan-index-candidates.js";

const DEFAULT_READ_MAX_RECORDS = 10_000;
const DEFAULT_READ_MAX_BYTES = 4 * 1024 * 1024;
/** Index ranges one read call may visit (bounds its I/O). */
const MAX_RANGES_PER_READ = 64;
/** Cached ranges fetched at once by one step of a read. */
const MAX_PLANNED_RANGES = 16;
const CHECKSUM_CODES: ReadonlySet<string> = new Set([
  ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
  ErrorCode.OBJECT_CHECKSUM_MISMATCH,
]);
/** Failures that say a target's bytes are gone (reclaimed, or never there). */
const GONE_CODES: ReadonlySet<string> = new Set([ErrorCode.OBJECT_NOT_FOUND, ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND]);
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
  context: ReadContext,
  streamId: string,
  offset: number,
  options: ReadOptions,
  deadline: Deadline,
): Promise<ReadResult> {
  const maxRecords = positive("maxRecords", options.maxRecords ?? DEFAULT_READ_MAX_RECORDS);
  const maxBytes = positive("maxBytes", options.maxBytes ?? DEFAULT_READ_MAX_BYTES);
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `read offset must be a non-negative safe integer, got ${String(offset)}`,
      { retryable: false },
    );
  }
  const cache = context.readCache;
  let head: StreamHead;
  try {
    ({ head } = await loadHead(context.metadata, context.keyspace, streamId, deadline.signal));
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.STREAM_NOT_FOUND)) cache.dropStream(streamId);
    throw error;
  }
  cache.observeHead(head);
  if (head.state !== "ACTIVE" && head.state !== "SEALED") {
    throw new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `stream ${streamId} is ${head.state}`, { retryable: false });
  }
  if (offset < head.trimOffset) throw trimmed(streamId, offset, head.trimOffset);
  const end = head.committedEndOffset;
  const entries: ReadEntry[] = [];
  let cursor = offset;
  let records = 0;
  let bytes = 0;
  let full = false;
  // Generations are looked up fresh by every read (each read scans the generation index anew, docs/architecture.md
  // §5), so a generation published or quarantined before this read is seen by it.
  let generationScan: GenerationScan | undefined;
  if (offset < end) {
    generationScan = await scanGenerationCandidates(
      context.metadata,
      context.keyspace,
      streamId,
      offset,
      deadline.signal,
    );
    cache.addScan(head, [], generationScan.committed, offset);
  }
  let ranges = 0;
  while (cursor < end && !full && ranges < MAX_RANGES_PER_READ) {
    deadline.check(`read of ${streamId}`);
    const plan = cache.plan(
      streamId,
      cursor,
      end,
      maxBytes - bytes,
      Math.min(MAX_PLANNED_RANGES, MAX_RANGES_PER_READ - ranges),
    );
    const fresh = cursor === offset ? generationScan : undefined;
    let fetched: ReadEntry[][];
    try {
      fetched =
        plan.length === 0
          ? [await readRange(context, cache, head, cursor, deadline, fresh)]
          : await readPlanned(context, cache, head, cursor, plan, deadline);
    } catch (error) {
      const again = await recoverRange(context, cache, streamId, cursor, error, deadline);
      if (typeof again === "number") {
        if (entries.length > 0) break;
        throw trimmed(streamId, cursor, again);
      }
      fetched = [again];
    }
    ranges += fetched.length;
    for (const range of fetched) {
      for (const entry of range) {
        if (entry.offset + entry.recordCount <= cursor) continue;
        if (
          entries.length > 0 &&
          (records + entry.recordCount > maxRecords || bytes + entry.payload.byteLength > maxBytes)
        ) {
          full = true;
          break;
        }
        entries.push(entry);
        records += entry.recordCount;
        bytes += entry.payload.byteLength;
        cursor = entry.offset + entry.recordCount;
      }
      if (full) break;
    }
  }
  return {
    streamId,
    requestedOffset: offset,
    entries,
    nextOffset: cursor,
    endOfStream: cursor >= end,
    committedEndOffset: end,
  };
}

/**
 * After the range at `cursor` failed with `error`: reloads the head. A trim past `cursor` ⇒ the new trim offset (the
 * read ends cleanly); a target that is gone ⇒ the range resolved once more from metadata under the fresh head;
 * anything else is rethrown.
 */
async function recoverRange(
  context: ReadContext,
  cache: ReadResolutionCache,
  streamId: string,
  cursor: number,
  error: unknown,
  deadline: Deadline,
): Promise<ReadEntry[] | number> {
  if (deadline.aborted || !NereusError.is(error)) throw error;
  const { head } = await loadHead(context.metadata, context.keyspace, streamId, deadline.signal);
  cache.observeHead(head);
  if (head.state !== "ACTIVE" && head.state !== "SEALED") {
    throw new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `stream ${streamId} is ${head.state}`, { retryable: false });
  }
  if (cursor < head.trimOffset) return head.trimOffset;
  if (!GONE_CODES.has(error.code)) throw error;
  cache.dropStream(streamId);
  return readRange(context, cache, head, cursor, deadline);
}

/**
 * Fetches the planned (cached) ranges together and returns their entries in order. When one of them fails, the
 * stream's cache is dropped and that range is resolved again from metadata (`readRange`, with its quarantine and
 * fallback); the ranges after it are left for the next step. Errors that say nothing about the target (deadline,
 * closing store) are rethrown as they are.
 */
async function readPlanned(
  context: ReadContext,
  cache: ReadResolutionCache,
  head: StreamHead,
  cursor: number,
  plan: readonly CachedResolution[],
  deadline: Deadline,
): Promise<ReadEntry[][]> {
  const pending = fetchAll(context, plan, deadline);
  // Every promise gets a handler now: a step that stops early must not leave a rejection unobserved.
  for (const promise of pending) promise.catch(() => undefined);
  const results: ReadEntry[][] = [];
  for (const [index, resolution] of plan.entries()) {
    const promise = pending[index];
    if (promise === undefined) break;
    try {
      results.push(indexedEntries(resolution.range, await promise));
    } catch (error) {
      if (deadline.aborted) throw error;
      cache.dropStream(head.streamId);
      results.push(
        await readRange(context, cache, head, index === 0 ? cursor : resolution.range.offsetStart, deadline),
      );
      break;
    }
  }
  return results;
}

/**
 * One promise of stored entries per planned range, in order; same-reader targets go to the reader's
 * `accelerations.readEntriesMany` at once when it offers one.
 */
function fetchAll(
  context: ReadContext,
  plan: readonly CachedResolution[],
  deadline: Deadline,
): Array<Promise<readonly StoredEntry[]>> {
  const results = new Array<Promise<readonly StoredEntry[]>>(plan.length);
  const byReader = new Map<WalReader, number[]>();
  for (const [index, resolution] of plan.entries()) {
    const reader = context.providers.reader(resolution.range.readTarget.type);
    if (reader === undefined) {
      results[index] = Promise.reject(unsupportedTarget(resolution.range.readTarget.type));
      continue;
    }
    const list = byReader.get(reader);
    if (list === undefined) byReader.set(reader, [index]);
    else list.push(index);
  }
  for (const [reader, all] of byReader) {
    const indexes: number[] = [];
    const releases: Array<() => void> = [];
    for (const index of all) {
      const target = (plan[index] as CachedResolution).range.readTarget;
      const release = context.readPins.pin([physicalTargetId(target)]);
      if (release === undefined) results[index] = Promise.reject(reclaimed(target));
      else {
        indexes.push(index);
        releases.push(release);
      }
    }
    if (indexes.length === 0) continue;
    const targets = indexes.map((index) => (plan[index] as CachedResolution).range.readTarget);
    const accelerations = reader.accelerations;
    const fetched =
      accelerations?.readEntriesMany !== undefined
        ? accelerations.readEntriesMany(targets, { signal: deadline.signal })
        : targets.map((target) => reader.readEntries(target, { signal: deadline.signal }));
    indexes.forEach((planIndex, position) => {
      const release = releases[position] as () => void;
      const promise =
        fetched[position] ?? Promise.reject(new TypeError("WAL reader returned fewer results than targets"));
      results[planIndex] = promise.finally(release);
    });
  }
  return results;
}

/** The entries of the committed range containing `offset`, from the best readable generation (fresh from metadata). */
async function readRange(
  context: ReadContext,
  cache: ReadResolutionCache,
  head: StreamHead,
  offset: number,
  deadline: Deadline,
  scannedGenerations?: GenerationScan,
): Promise<ReadEntry[]> {
  const { metadata, keyspace } = context;
  const [firstScan, generationScan] = await Promise.all([
    scanIndexCandidates(metadata, keyspace, head.streamId, offset, deadline.signal),
    scannedGenerations ?? scanGenerationCandidates(metadata, keyspace, head.streamId, offset, deadline.signal),
  ]);
  cache.addScan(head, firstScan.page, generationScan.committed, offset);
  for (const candidate of generationScan.candidates) {
    try {
      return await readCandidate(context, candidate.entry, deadline);
    } catch (error) {
      if (!NereusError.is(error) || !CORRUPT_GENERATION_CODES.has(error.code)) throw error;
      cache.dropGeneration(head.streamId, candidate.key);
      // A reclaimed generation is not corrupt: its entry was deleted before its object (nothing to quarantine).
      if (error.details["reclaimed"] !== true)
        await quarantineGeneration(metadata, keyspace, candidate, deadline.signal);
    }
  }
  let scan = firstScan;
  if (scan.candidates.length === 0) {
    await repair(context, head, offset, scan.generationZeroAbove, deadline);
    scan = await scanIndexCandidates(metadata, keyspace, head.streamId, offset, deadline.signal);
    cache.addScan(head, scan.page, []);
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
async function repair(
  context: ReadContext,
  head: StreamHead,
  offset: number,
  above: OffsetIndexEntry | undefined,
  deadline: Deadline,
): Promise<void> {
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
    anchor = (await scanIndexCandidates(context.metadata, context.keyspace, head.streamId, offset, deadline.signal))
      .generationZeroAbove;
  }
}

/** Reads `candidate`'s target with it pinned (a target a collector of this process condemned is not read). */
async function readCandidate(context: ReadContext, candidate: IndexedRange, deadline: Deadline): Promise<ReadEntry[]> {
  const reader = context.providers.reader(candidate.readTarget.type);
  if (reader === undefined) throw unsupportedTarget(candidate.readTarget.type);
  const release = context.readPins.pin([physicalTargetId(candidate.readTarget)]);
  if (release === undefined) throw reclaimed(candidate.readTarget);
  try {
    return await readIndexedEntries(reader, candidate, deadline.signal);
  } finally {
    release();
  }
}

/** The failure of a fetch whose target a collector of this process is deleting (it is treated as gone). */
function reclaimed(target: ReadTarget): NereusError {
  const object = target.type === "OBJECT_SLICE";
  return new NereusError(
    object ? ErrorCode.OBJECT_NOT_FOUND : ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
    `${physicalTargetId(target)} is being reclaimed`,
    { retryable: false, details: { reclaimed: true } },
  );
}

function trimmed(streamId: string, offset: number, trimOffset: number): NereusError {
  return new NereusError(
    ErrorCode.OFFSET_TRIMMED,
    `stream ${streamId}: offset ${String(offset)} is below the trim offset ${String(trimOffset)}`,
    { retryable: false, details: { trimOffset } },
  );
}

function unsupportedTarget(type: ReadTarget["type"]): NereusError {
  return new NereusError(ErrorCode.UNSUPPORTED_READ_TARGET, `no WAL reader is installed for ${type} targets`, {
    retryable: false,
  });
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `${name} must be a positive integer, got ${String(value)}`, {
      retryable: false,
    });
  }
  return value;
}
