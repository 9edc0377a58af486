// Opening the segment layout: lists the segment files, replays every record into a SegmentIndex, and cuts a torn
// tail off the last segment. Only the last segment can end in a torn record: a segment is fdatasynced before the
// next one is created, and a put or delete is acknowledged only by an fdatasync that began after it was written, so
// every acknowledged record lies before the first record that does not decode. Anything wrong in an earlier
// segment is corruption and fails the open with the file and offset. Bodies are verified (CRC32C) only in the last
// segment, where a head can be whole while its body is not; earlier segments are read head by head.
import { type FileHandle, open, readdir } from "node:fs/promises";
import path from "node:path";
import { ErrorCode, NereusError, crc32c } from "@nereus/core";
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

/** File name of segment `seq` (1..2^32-1). */
export function segmentFileName(seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 1 || seq > MAX_SEGMENT_SEQ) throw new RangeError(`segment number must be in 1..${String(MAX_SEGMENT_SEQ)}, got ${String(seq)}`);
  return `segment-${String(seq).padStart(10, "0")}.nsr`;
}

/** What opening found. */
export interface RecoveredSegments {
  readonly index: SegmentIndex;
  /** The last segment (0 when there is none) and its valid length. */
  readonly last: number;
  readonly lastBytes: number;
  /** Bytes cut off the last segment's torn tail, and why (undefined when none). */
  readonly truncated?: { readonly bytes: number; readonly reason: string };
}

/**
 * Replays the segments in `directory` (which must exist). `truncate` false reports a torn tail without cutting it
 * (read-only inspection). Throws `OBJECT_CHECKSUM_MISMATCH` for a bad record before the last segment's tail.
 */
export async function recoverSegments(directory: string, options: { readonly truncate: boolean }): Promise<RecoveredSegments> {
  const names = await readdir(directory);
  const seqs: number[] = [];
  for (const name of names) {
    const match = SEGMENT_NAME.exec(name);
    if (match?.[1] !== undefined) seqs.push(Number(match[1]));
  }
  seqs.sort((a, b) => a - b);
  const index = new SegmentIndex();
  for (const seq of seqs) index.addSegment(seq);
  let lastBytes = 0;
  let truncated: RecoveredSegments["truncated"];
  for (const seq of seqs) {
    const isLast = seq === seqs.at(-1);
    const file = path.join(directory, segmentFileName(seq));
    const handle = await open(file, isLast && options.truncate ? "r+" : "r");
    try {
      const size = (await handle.stat()).size;
      const { valid, failure } = await replaySegment(handle, seq, size, index, isLast);
      if (failure !== undefined) {
        if (!isLast) throw corruptSegment(file, valid, failure);
        truncated = { bytes: size - valid, reason: failure };
        if (options.truncate) {
          await handle.truncate(valid);
          await handle.datasync();
        }
      }
      if (isLast) lastBytes = valid;
    } finally {
      await handle.close();
    }
  }
  return { index, last: seqs.at(-1) ?? 0, lastBytes, ...(truncated === undefined ? {} : { truncated }) };
}

/** Applies the records of one segment; stops at the first that does not decode (returned as `failure`). */
async function replaySegment(
  handle: FileHandle,
  seq: number,
  size: number,
  index: SegmentIndex,
  verifyBodies: boolean,
): Promise<{ readonly valid: number; readonly failure?: string }> {
  const headBuffer = new Uint8Array(SEGMENT_RECORD_HEAD_BYTES + MAX_SEGMENT_KEY_BYTES);
  let offset = 0;
  while (offset < size) {
    const available = Math.min(headBuffer.length, size - offset);
    const { bytesRead } = await handle.read(headBuffer, 0, available, offset);
    let decoded;
    try {
      if (bytesRead < SEGMENT_RECORD_HEAD_BYTES) throw new SegmentRecordError(`file ends ${String(bytesRead)} byte(s) into a record head`);
      const keyLength = segmentRecordKeyLength(headBuffer.subarray(0, bytesRead));
      if (bytesRead < SEGMENT_RECORD_HEAD_BYTES + keyLength) throw new SegmentRecordError("file ends inside a record key");
      decoded = decodeSegmentRecordHead(headBuffer.subarray(0, bytesRead));
      if (offset + decoded.recordBytes > size) throw new SegmentRecordError(`record of ${String(decoded.recordBytes)} bytes runs past the end of the file`);
    } catch (error) {
      if (error instanceof SegmentRecordError) return { valid: offset, failure: `${error.reason} (record at offset ${String(offset)})` };
      throw error;
    }
    const { head, recordBytes } = decoded;
    if (head.kind === "put") {
      const bodyOffset = offset + recordBytes - head.bodyLength;
      if (verifyBodies) {
        const body = new Uint8Array(head.bodyLength);
        const read = await readFully(handle, body, bodyOffset);
        if (read !== body.length || crc32c(body) !== head.bodyCrc32c) {
          return { valid: offset, failure: `body of ${head.key} does not match its CRC32C (record at offset ${String(offset)})` };
        }
      }
      index.applyPut(head.key, { segment: seq, recordOffset: offset, bodyOffset, size: head.bodyLength, crc32c: head.bodyCrc32c }, recordBytes);
    } else {
      index.applyDelete(head.key, seq, offset, recordBytes, head.targetSegment, head.targetOffset);
    }
    offset += recordBytes;
  }
  return { valid: offset };
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
  return new NereusError(ErrorCode.OBJECT_CHECKSUM_MISMATCH, `segment file ${file} is corrupt at byte offset ${String(offset)}: ${reason}`, {
    retryable: false,
    details: { file, offset },
  });
}
