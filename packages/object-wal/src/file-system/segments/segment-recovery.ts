// Opening the segment layout: opens the index (segment-index.ts; rebuilt from the segments when it cannot be used),
// reconciles it with the segment files, replays the records written after its `applied` position, and cuts a torn
// tail off the last segment. Only the last segment can end in a torn record: a segment is fdatasynced before the
// next one is created, and a put or delete is acknowledged only by an fdatasync that began after it was written, so
// every acknowledged record lies before the first record that does not decode. Anything wrong in an earlier
// segment is corruption and fails the open with the file and offset. Bodies are verified (CRC32C) only in the last
// segment, where a head can be whole while its body is not; earlier ones are read head by head.
import { type FileHandle, open, readdir, rename, rm, unlink } from "node:fs/promises";
import path from "node:path";
import { ErrorCode, NereusError, crc32c } from "@nereus/core";
import type Database from "better-sqlite3";
import { SegmentIndex } from "./segment-index.js";
import {
  MAX_SEGMENT_KEY_BYTES,
  SEGMENT_RECORD_HEAD_BYTES,
  SegmentRecordError,
  decodeSegmentRecordHead,
  segmentRecordKeyLength,
} from "./segment-record.js";

const SEGMENT_NAME = /^segment-(\d{10})\.nsr$/;
const MAX_SEGMENT_SEQ = 0xffff_ffff;
const INDEX_FILE = "index.sqlite";

/** File name of segment `seq` (1..2^32-1). */
export function segmentFileName(seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 1 || seq > MAX_SEGMENT_SEQ)
    throw new RangeError(`segment number must be in 1..${String(MAX_SEGMENT_SEQ)}, got ${String(seq)}`);
  return `segment-${String(seq).padStart(10, "0")}.nsr`;
}

/** What opening found. */
export interface RecoveredSegments {
  readonly index: SegmentIndex;
  /** The segment to go on appending to (0: start segment `next`) and its valid length. */
  readonly last: number;
  readonly lastBytes: number;
  /** The number of a new segment: above every segment there is or was. */
  readonly next: number;
  /** Bytes cut off the last segment's torn tail, and why (undefined when none). */
  readonly truncated?: { readonly bytes: number; readonly reason: string };
  /** Why the index was rebuilt from the segments (undefined when it was used as found). */
  readonly rebuiltIndex?: string;
  /** Records replayed into the index at open. */
  readonly replayed: number;
}

/**
 * Opens the segments in `directory` (which must exist). Throws `OBJECT_CHECKSUM_MISMATCH` for a bad record before the
 * last segment's tail, or for a segment file that is gone while the index still has live objects in it. `Sqlite` is
 * better-sqlite3's `Database` class, for the index (load-better-sqlite3.ts).
 */
export async function recoverSegments(directory: string, Sqlite: typeof Database): Promise<RecoveredSegments> {
  const seqs: number[] = [];
  for (const name of await readdir(directory)) {
    const match = SEGMENT_NAME.exec(name);
    if (match?.[1] !== undefined) seqs.push(Number(match[1]));
  }
  seqs.sort((a, b) => a - b);
  const { index, rebuiltIndex } = await openIndex(directory, Sqlite);
  try {
    const present = new Set(seqs);
    const applied = index.applied;
    // Removed for good while the index was not told (a crash between the unlink and the index update).
    for (const seq of index.segments()) {
      if (present.has(seq)) continue;
      if (index.livePuts(seq) > 0) {
        throw new NereusError(
          ErrorCode.OBJECT_CHECKSUM_MISMATCH,
          `segment file ${path.join(directory, segmentFileName(seq))} is missing but holds ${String(index.livePuts(seq))} live object(s)`,
          {
            retryable: false,
            details: { segment: seq },
          },
        );
      }
      index.removeSegment(seq);
    }
    // The index dropped them before the crash, the unlink did not happen: nothing in them is needed.
    const known = new Set(index.segments());
    for (const seq of seqs.filter((candidate) => candidate < applied.segment && !known.has(candidate))) {
      await unlink(path.join(directory, segmentFileName(seq)));
      present.delete(seq);
    }
    const remaining = seqs.filter((seq) => present.has(seq));
    let lastBytes = 0;
    let truncated: RecoveredSegments["truncated"];
    let replayed = 0;
    for (const seq of remaining.filter((candidate) => candidate >= applied.segment)) {
      const isLast = seq === remaining.at(-1);
      const from = seq === applied.segment ? applied.offset : 0;
      const file = path.join(directory, segmentFileName(seq));
      const handle = await open(file, isLast ? "r+" : "r");
      try {
        const size = (await handle.stat()).size;
        if (from > size) {
          // The index is ahead of the file (a crash without fsync lost records it had applied).
          if (!isLast) throw corruptSegment(file, size, `the index has records up to byte offset ${String(from)}`);
          index.transaction(() => {
            index.truncateSegment(seq, size);
            index.setApplied({ segment: seq, offset: size });
          });
          truncated = { bytes: from - size, reason: `the file ends at ${String(size)}, before records the index had` };
          lastBytes = size;
          continue;
        }
        const outcome = await replaySegment(handle, seq, from, size, index, isLast);
        replayed += outcome.records;
        if (outcome.failure !== undefined) {
          if (!isLast) throw corruptSegment(file, outcome.valid, outcome.failure);
          truncated = { bytes: size - outcome.valid, reason: outcome.failure };
          await handle.truncate(outcome.valid);
          await handle.datasync();
        }
        if (isLast) lastBytes = outcome.valid;
      } finally {
        await handle.close();
      }
    }
    const highest = Math.max(remaining.at(-1) ?? 0, applied.segment, ...index.segments());
    // Append to the newest file only if no segment after it ever existed (else its records would replay too early).
    const last = remaining.at(-1) === highest && highest >= applied.segment ? highest : 0;
    return {
      index,
      last,
      lastBytes: last === 0 ? 0 : lastBytes,
      next: highest + 1,
      replayed,
      ...(truncated === undefined ? {} : { truncated }),
      ...(rebuiltIndex === undefined ? {} : { rebuiltIndex }),
    };
  } catch (error) {
    index.close();
    throw error;
  }
}

/** Opens the index; one that cannot be used is moved aside (`index.sqlite.broken`) and rebuilt from the segments. */
async function openIndex(
  directory: string,
  Sqlite: typeof Database,
): Promise<{ index: SegmentIndex; rebuiltIndex?: string }> {
  const file = path.join(directory, INDEX_FILE);
  try {
    return { index: SegmentIndex.open(file, Sqlite) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    for (const suffix of ["", "-wal", "-shm"]) {
      await rename(`${file}${suffix}`, `${file}.broken${suffix}`).catch(() => rm(`${file}${suffix}`, { force: true }));
    }
    return { index: SegmentIndex.open(file, Sqlite), rebuiltIndex: reason };
  }
}

/**
 * Applies the records of one segment from byte `from` (one transaction per segment, with the new applied
 * position); stops at the first record that does not decode (returned as `failure`).
 */
async function replaySegment(
  handle: FileHandle,
  seq: number,
  from: number,
  size: number,
  index: SegmentIndex,
  verifyBodies: boolean,
): Promise<{ readonly valid: number; readonly records: number; readonly failure?: string }> {
  const headBuffer = new Uint8Array(SEGMENT_RECORD_HEAD_BYTES + MAX_SEGMENT_KEY_BYTES);
  const apply: Array<() => void> = [];
  let offset = from;
  let failure: string | undefined;
  while (offset < size) {
    const available = Math.min(headBuffer.length, size - offset);
    const { bytesRead } = await handle.read(headBuffer, 0, available, offset);
    let decoded;
    try {
      if (bytesRead < SEGMENT_RECORD_HEAD_BYTES)
        throw new SegmentRecordError(`file ends ${String(bytesRead)} byte(s) into a record head`);
      const keyLength = segmentRecordKeyLength(headBuffer.subarray(0, bytesRead));
      if (bytesRead < SEGMENT_RECORD_HEAD_BYTES + keyLength)
        throw new SegmentRecordError("file ends inside a record key");
      decoded = decodeSegmentRecordHead(headBuffer.subarray(0, bytesRead));
      if (offset + decoded.recordBytes > size)
        throw new SegmentRecordError(`record of ${String(decoded.recordBytes)} bytes runs past the end of the file`);
    } catch (error) {
      if (!(error instanceof SegmentRecordError)) throw error;
      failure = `${error.reason} (record at offset ${String(offset)})`;
      break;
    }
    const { head, recordBytes } = decoded;
    const at = offset;
    if (head.kind === "put") {
      const bodyOffset = at + recordBytes - head.bodyLength;
      if (verifyBodies) {
        const body = new Uint8Array(head.bodyLength);
        const read = await readFully(handle, body, bodyOffset);
        if (read !== body.length || crc32c(body) !== head.bodyCrc32c) {
          failure = `body of ${head.key} does not match its CRC32C (record at offset ${String(at)})`;
          break;
        }
      }
      apply.push(() =>
        index.applyPut(
          head.key,
          { segment: seq, recordOffset: at, bodyOffset, size: head.bodyLength, crc32c: head.bodyCrc32c },
          recordBytes,
        ),
      );
    } else {
      apply.push(() => index.applyDelete(head.key, seq, at, recordBytes, head.targetSegment, head.targetOffset));
    }
    offset += recordBytes;
  }
  const valid = offset;
  const applied = index.applied;
  // Nothing to replay (a store closed cleanly): no index write, so the store opens on a full disk too.
  if (apply.length === 0 && applied.segment === seq && applied.offset === valid && index.hasSegment(seq)) {
    return { valid, records: 0, ...(failure === undefined ? {} : { failure }) };
  }
  index.transaction(() => {
    index.addSegment(seq);
    for (const step of apply) step();
    index.setApplied({ segment: seq, offset: valid });
  });
  return { valid, records: apply.length, ...(failure === undefined ? {} : { failure }) };
}

async function readFully(handle: FileHandle, into: Uint8Array, position: number): Promise<number> {
  let filled = 0;
  while (filled < into.length) {
    const { bytesRead } = await handle.read(into, filled, into.length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

function corruptSegment(file: string, offset: number, reason: string): NereusError {
  return new NereusError(
    ErrorCode.OBJECT_CHECKSUM_MISMATCH,
    `segment file ${file} is corrupt at byte offset ${String(offset)}: ${reason}`,
    {
      retryable: false,
      details: { file, offset },
    },
  );
}
