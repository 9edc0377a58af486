// NSR1: one record of a segment file of the filesystem store's segment layout (docs/segment-layout.md). A segment
// is a sequence of records, each a fixed 28-byte head, the key, then (puts only) the body:
//
//   0  u32 magic "NSR1"        4  u8 kind (1 put, 2 delete)   5  u8 flags (0)   6  u16 key length (1..1024)
//   8  u32 body length (put; 0 for a delete)                 12  u32 body CRC32C (put; 0 for a delete)
//  16  u32 target segment (delete: the segment of the put it removes; 0 for a put)
//  20  u32 target offset  (delete: that put's record offset in its segment; 0 for a put)
//  24  u32 head CRC32C over bytes [0, 24) and the key
//  28  key (UTF-8), then `body length` body bytes
//
// All integers big-endian. A delete removes only the put it names, so a key that is deleted and put again is never
// removed by an old delete replayed after it. Decoders are strict: a wrong magic, kind, flag, length or CRC is a
// `SegmentRecordError` naming the reason (recovery turns one at the tail of the last segment into a truncation).
import { crc32c } from "@nereus/core";

const SEGMENT_RECORD_MAGIC = 0x4e535231;
export const SEGMENT_RECORD_HEAD_BYTES = 28;
export const MAX_SEGMENT_KEY_BYTES = 1024;
/** Bodies and segment offsets are u32: a segment never grows past this. */
export const MAX_SEGMENT_OFFSET = 0xffff_ffff;

const KIND_PUT = 1;
const KIND_DELETE = 2;

/** A put record's head: `key` holds `bodyLength` bytes whose CRC32C is `bodyCrc32c`. */
interface SegmentPutHead {
  readonly kind: "put";
  readonly key: string;
  readonly bodyLength: number;
  readonly bodyCrc32c: number;
}

/** A delete record's head: removes `key` if it is still the put at `targetOffset` of segment `targetSegment`. */
interface SegmentDeleteHead {
  readonly kind: "delete";
  readonly key: string;
  readonly targetSegment: number;
  readonly targetOffset: number;
}

export type SegmentRecordHead = SegmentPutHead | SegmentDeleteHead;

/** A record that does not decode; `reason` says why (the caller adds where). */
export class SegmentRecordError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`NSR1 record: ${reason}`);
    this.name = "SegmentRecordError";
    this.reason = reason;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** The head + key bytes of `head` (the body, for a put, follows them in the segment). */
export function encodeSegmentRecordHead(head: SegmentRecordHead): Uint8Array {
  const key = encoder.encode(head.key);
  if (key.length < 1 || key.length > MAX_SEGMENT_KEY_BYTES) {
    throw new SegmentRecordError(
      `key must be 1..${String(MAX_SEGMENT_KEY_BYTES)} UTF-8 bytes, got ${String(key.length)}`,
    );
  }
  const bytes = new Uint8Array(SEGMENT_RECORD_HEAD_BYTES + key.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, SEGMENT_RECORD_MAGIC);
  view.setUint8(4, head.kind === "put" ? KIND_PUT : KIND_DELETE);
  view.setUint16(6, key.length);
  if (head.kind === "put") {
    checkU32("body length", head.bodyLength);
    checkU32("body CRC32C", head.bodyCrc32c);
    view.setUint32(8, head.bodyLength);
    view.setUint32(12, head.bodyCrc32c);
  } else {
    checkU32("target segment", head.targetSegment);
    checkU32("target offset", head.targetOffset);
    if (head.targetSegment === 0) throw new SegmentRecordError("target segment must be at least 1");
    view.setUint32(16, head.targetSegment);
    view.setUint32(20, head.targetOffset);
  }
  bytes.set(key, SEGMENT_RECORD_HEAD_BYTES);
  view.setUint32(24, headCrc(bytes, key.length));
  return bytes;
}

/** The key length a head declares (bytes [0, 28) must be present); checks magic, kind and flags first. */
export function segmentRecordKeyLength(fixed: Uint8Array): number {
  if (fixed.length < SEGMENT_RECORD_HEAD_BYTES) {
    throw new SegmentRecordError(
      `head needs ${String(SEGMENT_RECORD_HEAD_BYTES)} bytes, ${String(fixed.length)} present`,
    );
  }
  const view = new DataView(fixed.buffer, fixed.byteOffset, SEGMENT_RECORD_HEAD_BYTES);
  const magic = view.getUint32(0);
  if (magic !== SEGMENT_RECORD_MAGIC)
    throw new SegmentRecordError(`magic is 0x${magic.toString(16).padStart(8, "0")}, not NSR1`);
  const kind = view.getUint8(4);
  if (kind !== KIND_PUT && kind !== KIND_DELETE) throw new SegmentRecordError(`unknown kind ${String(kind)}`);
  const flags = view.getUint8(5);
  if (flags !== 0) throw new SegmentRecordError(`flags are ${String(flags)}, must be 0`);
  const keyLength = view.getUint16(6);
  if (keyLength < 1 || keyLength > MAX_SEGMENT_KEY_BYTES)
    throw new SegmentRecordError(`key length ${String(keyLength)} is outside 1..${String(MAX_SEGMENT_KEY_BYTES)}`);
  return keyLength;
}

/**
 * Decodes the head at the start of `bytes` (the fixed part and the key must be present; a body may follow).
 * Returns the head and the record's total size (head + key + body).
 */
export function decodeSegmentRecordHead(bytes: Uint8Array): {
  readonly head: SegmentRecordHead;
  readonly recordBytes: number;
} {
  const keyLength = segmentRecordKeyLength(bytes);
  if (bytes.length < SEGMENT_RECORD_HEAD_BYTES + keyLength) {
    throw new SegmentRecordError(
      `head and key need ${String(SEGMENT_RECORD_HEAD_BYTES + keyLength)} bytes, ${String(bytes.length)} present`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, SEGMENT_RECORD_HEAD_BYTES);
  const stored = view.getUint32(24);
  const actual = headCrc(bytes, keyLength);
  if (stored !== actual)
    throw new SegmentRecordError(`head CRC32C is 0x${actual.toString(16)}, stored 0x${stored.toString(16)}`);
  let key: string;
  try {
    key = decoder.decode(bytes.subarray(SEGMENT_RECORD_HEAD_BYTES, SEGMENT_RECORD_HEAD_BYTES + keyLength));
  } catch {
    throw new SegmentRecordError("key is not valid UTF-8");
  }
  const bodyLength = view.getUint32(8);
  const bodyCrc32c = view.getUint32(12);
  const targetSegment = view.getUint32(16);
  const targetOffset = view.getUint32(20);
  if (view.getUint8(4) === KIND_PUT) {
    if (targetSegment !== 0 || targetOffset !== 0) throw new SegmentRecordError("a put names a target");
    return {
      head: { kind: "put", key, bodyLength, bodyCrc32c },
      recordBytes: SEGMENT_RECORD_HEAD_BYTES + keyLength + bodyLength,
    };
  }
  if (bodyLength !== 0 || bodyCrc32c !== 0) throw new SegmentRecordError("a delete carries a body");
  if (targetSegment === 0) throw new SegmentRecordError("a delete names target segment 0");
  return {
    head: { kind: "delete", key, targetSegment, targetOffset },
    recordBytes: SEGMENT_RECORD_HEAD_BYTES + keyLength,
  };
}

function headCrc(bytes: Uint8Array, keyLength: number): number {
  return crc32c(
    bytes.subarray(SEGMENT_RECORD_HEAD_BYTES, SEGMENT_RECORD_HEAD_BYTES + keyLength),
    crc32c(bytes.subarray(0, 24)),
  );
}

function checkU32(what: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_SEGMENT_OFFSET) {
    throw new SegmentRecordError(`${what} must be a u32, got ${String(value)}`);
  }
}
