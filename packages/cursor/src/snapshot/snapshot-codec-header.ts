// The header of an NCS1 snapshot (layout in snapshot-codec.ts): written into a preallocated buffer, read back with
// every check a header needs on its own (magic, major version, flags, lengths, CRC). Comparing it with what the
// root expects is the caller's job.
import { crc32c, decodeStrictUtf8, fromHex, toHex } from "@nereus/core";
import type { CursorSnapshotContent } from "../domain/snapshot-content.js";
import type { SnapshotErrors } from "./snapshot-codec-errors.js";
import {
  FOOTER_BYTES,
  HEADER_FIXED_BYTES,
  HEADER_OVERHEAD_BYTES,
  MAJOR_VERSION,
  MINOR_VERSION,
  SECTION_OVERHEAD_BYTES,
  SNAPSHOT_MAGIC,
} from "./snapshot-codec-layout.js";

const TWO_POW_32 = 0x1_0000_0000;
const MAX_SAFE_HIGH_WORD = 0x1f_ffff;

/** The header fields of a snapshot, as read. */
export interface SnapshotHeader {
  readonly minorVersion: number;
  readonly headerLength: number;
  readonly totalLength: number;
  readonly snapshotId: string;
  readonly cursorNameHash: string;
  readonly cursorGeneration: number;
  readonly sourceMutationSequence: number;
  readonly baseMarkDeleteOffset: number;
  readonly createdAtMillis: number;
  readonly rangeCount: number;
  readonly partialCount: number;
  readonly streamId: string;
}

/** Writes a u64 holding a non-negative safe integer. */
export function setU64(view: DataView, at: number, value: number): void {
  view.setUint32(at, Math.floor(value / TWO_POW_32));
  view.setUint32(at + 4, value % TWO_POW_32);
}

/** Reads a u64 that must hold a safe integer; undefined when it does not. */
export function getU64(view: DataView, at: number): number | undefined {
  const high = view.getUint32(at);
  return high > MAX_SAFE_HIGH_WORD ? undefined : high * TWO_POW_32 + view.getUint32(at + 4);
}

/** Writes the header of `content` at the start of `bytes`; returns its length. */
export function writeHeader(
  bytes: Uint8Array,
  view: DataView,
  content: CursorSnapshotContent,
  streamId: Uint8Array,
  totalLength: number,
): number {
  const headerLength = HEADER_OVERHEAD_BYTES + streamId.length;
  view.setUint32(0, SNAPSHOT_MAGIC);
  view.setUint16(4, MAJOR_VERSION);
  view.setUint16(6, MINOR_VERSION);
  view.setUint32(8, 0);
  view.setUint32(12, headerLength);
  setU64(view, 16, totalLength);
  bytes.set(fromHex(content.snapshotId), 24);
  bytes.set(fromHex(content.cursorNameHash), 40);
  setU64(view, 56, content.cursorGeneration);
  setU64(view, 64, content.sourceMutationSequence);
  setU64(view, 72, content.baseMarkDeleteOffset);
  setU64(view, 80, content.createdAtMillis);
  view.setUint32(88, content.rangeStarts.length);
  view.setUint32(92, content.partials.length);
  view.setUint16(HEADER_FIXED_BYTES, streamId.length);
  bytes.set(streamId, HEADER_FIXED_BYTES + 2);
  view.setUint32(headerLength - 4, crc32c(bytes.subarray(0, headerLength - 4)));
  return headerLength;
}

function checkedU64(view: DataView, at: number, field: string, errors: SnapshotErrors): number {
  const value = getU64(view, at);
  if (value === undefined) throw errors.fail(field, "u64 value exceeds the safe-integer range");
  return value;
}

/** Checks the header's framing (magic, major, length, CRC, flags) before any field is trusted. */
function checkFraming(bytes: Uint8Array, view: DataView, errors: SnapshotErrors): number {
  errors.require(view.getUint32(0) === SNAPSHOT_MAGIC, "magic", 'not an NCS1 snapshot (expected "NCS1")');
  const major = view.getUint16(4);
  errors.require(major === MAJOR_VERSION, "majorVersion", `unknown major version ${String(major)}`);
  const headerLength = view.getUint32(12);
  const maxHeaderLength = bytes.length - 2 * SECTION_OVERHEAD_BYTES - FOOTER_BYTES;
  errors.require(
    headerLength >= HEADER_OVERHEAD_BYTES + 1 && headerLength <= maxHeaderLength,
    "headerLength",
    `${String(headerLength)} is outside [${String(HEADER_OVERHEAD_BYTES + 1)}, ${String(maxHeaderLength)}]`,
  );
  const stored = view.getUint32(headerLength - 4);
  const computed = crc32c(bytes.subarray(0, headerLength - 4));
  errors.require(stored === computed, "headerCrc32c", crcMismatch(stored, computed));
  const flags = view.getUint32(8);
  errors.require(flags === 0, "flags", `unknown flags 0x${flags.toString(16)}`);
  return headerLength;
}

/** Reads and checks the header of a snapshot object of at least MIN_SNAPSHOT_BYTES bytes. */
export function readHeader(bytes: Uint8Array, view: DataView, errors: SnapshotErrors): SnapshotHeader {
  const headerLength = checkFraming(bytes, view, errors);
  const minorVersion = view.getUint16(6);
  const streamIdLength = view.getUint16(HEADER_FIXED_BYTES);
  const exactLength = HEADER_OVERHEAD_BYTES + streamIdLength;
  errors.require(
    minorVersion === MINOR_VERSION ? headerLength === exactLength : headerLength >= exactLength,
    "headerLength",
    `${String(headerLength)} does not fit a ${String(streamIdLength)}-byte stream id at minor version ${String(minorVersion)}`,
  );
  errors.require(streamIdLength > 0, "streamId", "is empty");
  let streamId: string;
  try {
    streamId = decodeStrictUtf8(bytes.subarray(HEADER_FIXED_BYTES + 2, HEADER_FIXED_BYTES + 2 + streamIdLength));
  } catch (cause) {
    throw errors.fail("streamId", "is not well-formed UTF-8", cause);
  }
  return {
    minorVersion,
    headerLength,
    totalLength: checkedU64(view, 16, "totalLength", errors),
    snapshotId: toHex(bytes.subarray(24, 40)),
    cursorNameHash: toHex(bytes.subarray(40, 56)),
    cursorGeneration: checkedU64(view, 56, "cursorGeneration", errors),
    sourceMutationSequence: checkedU64(view, 64, "sourceMutationSequence", errors),
    baseMarkDeleteOffset: checkedU64(view, 72, "baseMarkDeleteOffset", errors),
    createdAtMillis: checkedU64(view, 80, "createdAtMillis", errors),
    rangeCount: view.getUint32(88),
    partialCount: view.getUint32(92),
    streamId,
  };
}

/** "stored 0x…, computed 0x…". */
export function crcMismatch(stored: number, computed: number): string {
  const hex = (value: number): string => `0x${value.toString(16).padStart(8, "0")}`;
  return `CRC32C mismatch: stored ${hex(stored)}, computed ${hex(computed)}`;
}
