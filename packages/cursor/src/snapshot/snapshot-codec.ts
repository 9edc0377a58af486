// NCS1: the binary format of a cursor snapshot object, the full ack state of one cursor generation cut at one root
// version (CursorSnapshotContent). Immutable once written; the root references it by key, size and CRC32C, and the
// decoder checks the bytes against that reference. All integers big-endian; u64 fields hold safe integers.
//
// Header
//   0   magic                    "NCS1"
//   4   majorVersion             u16 = 1 (readers reject any other major)
//   6   minorVersion             u16 = 0 (readers accept a newer minor: its extra header bytes sit before the CRC)
//   8   flags                    u32 = 0 (any set bit is rejected)
//   12  headerLength             u32, bytes from 0 through the header CRC
//   16  totalLength              u64, bytes of the whole object
//   24  snapshotId               16 bytes (the 32 hex digits of the id)
//   40  cursorNameHash           16 bytes
//   56  cursorGeneration         u64 (>= 1)
//   64  sourceMutationSequence   u64 (>= 1)
//   72  baseMarkDeleteOffset     u64
//   80  createdAtMillis          u64
//   88  rangeCount               u32
//   92  partialCount             u32
//   96  streamId                 u16 length + UTF-8 (non-empty)
//       [minor > 0: extension bytes]
//       headerCrc32c             u32, CRC32C of bytes [0, headerLength - 4)
// Range section
//       magic "NCR1", bodyLength u32, body, crc32c u32 (of magic, bodyLength and body)
//       body: per range [start, end), in order: varint(start - previousEnd - 1), varint(end - start - 1), where
//       previousEnd is the previous range's end, or baseMarkDeleteOffset for the first range
// Partial section
//       magic "NCB1", bodyLength u32, body, crc32c u32
//       body: per partial, in order: varint(offset - previousOffset - 1) (previousOffset = baseMarkDeleteOffset - 1
//       for the first), varint(batchSize), varint(wordCount), wordCount × u64 remaining-bit words (word 0 first)
// Footer (the last 16 bytes)
//       magic "NCF1", totalLength u64, crc32c u32 of every byte before it
// Varints are unsigned LEB128 in their shortest form. The encoding makes ranges sorted, disjoint, non-adjacent and
// above the base by construction (every delta is >= 0), so one-entry ranges at stride 2 take 2 bytes each; the
// decoder still checks every partial's canonical form and that no partial lies inside a range. The storage
// checksum of the object (SnapshotReference.crc32c) is the CRC32C of all its bytes. Properties and the owner
// session are never in a snapshot.
//
// Decoding checks, in order: size, framing and header CRC, header against the expectation, each section's frame
// and CRC, the bodies, the footer, the whole-object CRC. Every failure is METADATA_INVARIANT_VIOLATION naming the
// snapshot and the field; nothing is retried or repaired here.
import { crc32c } from "@nereus/core";
import type { CursorSnapshotContent } from "../domain/snapshot-content.js";
import type { SnapshotReference } from "../domain/cursor-records.js";
import { checkHeaderFields, checkPartials, checkRanges } from "./snapshot-codec-checks.js";
import { SnapshotErrors } from "./snapshot-codec-errors.js";
import { type SnapshotHeader, crcMismatch, getU64, readHeader, setU64, writeHeader } from "./snapshot-codec-header.js";
import {
  FOOTER_BYTES,
  FOOTER_MAGIC,
  MIN_SNAPSHOT_BYTES,
  PARTIAL_SECTION_MAGIC,
  RANGE_SECTION_MAGIC,
} from "./snapshot-codec-layout.js";
import {
  partialBodySize,
  rangeBodySize,
  readPartialBody,
  readRangeBody,
  readSection,
  writePartialBody,
  writeRangeBody,
  writeSection,
} from "./snapshot-codec-sections.js";

/** What the root's SnapshotReference and the object key pin; `decodeCursorSnapshot` checks every field. */
export interface SnapshotExpectation {
  readonly snapshotId: string;
  readonly streamId: string;
  readonly cursorNameHash: string;
  readonly cursorGeneration: number;
  /** Exact byte length of the object. */
  readonly sizeBytes: number;
  /** CRC32C of the whole object. */
  readonly crc32c: number;
  readonly sourceMutationSequence: number;
  readonly baseMarkDeleteOffset: number;
  /** The object key, named in error messages (optional). */
  readonly objectKey?: string;
}

/** The expectation of the snapshot `reference` of a root of `cursor` (its stream, name hash and generation). */
export function snapshotExpectationOf(
  reference: SnapshotReference,
  cursor: { readonly streamId: string; readonly cursorNameHash: string; readonly cursorGeneration: number },
): SnapshotExpectation {
  return {
    snapshotId: reference.snapshotId,
    streamId: cursor.streamId,
    cursorNameHash: cursor.cursorNameHash,
    cursorGeneration: cursor.cursorGeneration,
    sizeBytes: reference.sizeBytes,
    crc32c: reference.crc32c,
    sourceMutationSequence: reference.sourceMutationSequence,
    baseMarkDeleteOffset: reference.baseMarkDeleteOffset,
    objectKey: reference.objectKey,
  };
}

/**
 * The NCS1 bytes of `content`: one exact-size allocation. Canonical (equal content ⇒ equal bytes). Throws
 * NereusError(METADATA_INVARIANT_VIOLATION) naming the field when `content` breaks an invariant of
 * CursorSnapshotContent (ranges sorted, disjoint, non-adjacent, above the base; partials canonical, ascending, at
 * or above the base and outside every range; 32-hex ids; generation and sequence >= 1).
 */
export function encodeCursorSnapshot(content: CursorSnapshotContent): Uint8Array {
  const errors = new SnapshotErrors(String(content.snapshotId), undefined, "encode");
  const streamId = checkHeaderFields(content, errors);
  checkRanges(content, errors);
  checkPartials(content.baseMarkDeleteOffset, content.rangeStarts, content.rangeEnds, content.partials, errors);
  const rangeBodyLength = rangeBodySize(content);
  const partialBodyLength = partialBodySize(content);
  const totalLength = MIN_SNAPSHOT_BYTES - 1 + streamId.length + rangeBodyLength + partialBodyLength;
  const bytes = new Uint8Array(totalLength);
  const view = new DataView(bytes.buffer);
  let at = writeHeader(bytes, view, content, streamId, totalLength);
  at = writeSection(bytes, view, at, RANGE_SECTION_MAGIC, rangeBodyLength, (body) =>
    writeRangeBody(bytes, body, content),
  );
  at = writeSection(bytes, view, at, PARTIAL_SECTION_MAGIC, partialBodyLength, (body) =>
    writePartialBody(bytes, view, body, content),
  );
  view.setUint32(at, FOOTER_MAGIC);
  setU64(view, at + 4, totalLength);
  view.setUint32(at + 12, crc32c(bytes.subarray(0, at + 12)));
  return bytes;
}

/**
 * Decodes a snapshot object and verifies it against what the root expects. Returns the content only when every
 * check passes: exact size, framing, CRCs (header, each section, footer, whole object against `expected.crc32c`),
 * the header's identity and cut (snapshot id, stream, cursor name hash, generation, source sequence, base
 * markDelete) equal to `expected`, canonical bodies, and no byte after the footer. Otherwise throws
 * NereusError(METADATA_INVARIANT_VIOLATION) naming the snapshot and the field. The result's arrays are fresh; the
 * input is not retained.
 */
export function decodeCursorSnapshot(bytes: Uint8Array, expected: SnapshotExpectation): CursorSnapshotContent {
  const errors = new SnapshotErrors(expected.snapshotId, expected.objectKey, "decode");
  errors.require(
    bytes.length === expected.sizeBytes,
    "sizeBytes",
    `the object has ${String(bytes.length)} bytes, the reference says ${String(expected.sizeBytes)}`,
  );
  errors.require(bytes.length >= MIN_SNAPSHOT_BYTES, "totalLength", `${String(bytes.length)} bytes is too short`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = readHeader(bytes, view, errors);
  errors.require(
    header.totalLength === bytes.length,
    "totalLength",
    `the header says ${String(header.totalLength)} bytes, the object has ${String(bytes.length)}`,
  );
  checkExpectedHeader(header, expected, errors);
  const base = header.baseMarkDeleteOffset;
  const rangeBody = readSection(bytes, view, header.headerLength, RANGE_SECTION_MAGIC, "range section", errors);
  const partialStart = rangeBody.end + 4;
  const partialBody = readSection(bytes, view, partialStart, PARTIAL_SECTION_MAGIC, "partial section", errors);
  checkFooter(bytes, view, partialBody.end + 4, errors);
  checkObjectCrc(bytes, view, expected, errors);
  const { starts, ends } = readRangeBody(bytes, rangeBody, header.rangeCount, base, errors);
  const partials = readPartialBody(bytes, view, partialBody, header.partialCount, base, errors);
  checkPartials(base, starts, ends, partials, errors);
  return {
    snapshotId: header.snapshotId,
    streamId: header.streamId,
    cursorNameHash: header.cursorNameHash,
    cursorGeneration: header.cursorGeneration,
    sourceMutationSequence: header.sourceMutationSequence,
    baseMarkDeleteOffset: base,
    createdAtMillis: header.createdAtMillis,
    rangeStarts: starts,
    rangeEnds: ends,
    partials,
  };
}

function checkExpectedHeader(header: SnapshotHeader, expected: SnapshotExpectation, errors: SnapshotErrors): void {
  const pinned = [
    "snapshotId",
    "streamId",
    "cursorNameHash",
    "cursorGeneration",
    "sourceMutationSequence",
    "baseMarkDeleteOffset",
  ] as const;
  for (const field of pinned) {
    errors.require(
      header[field] === expected[field],
      field,
      `the header has ${String(header[field])}, the reference expects ${String(expected[field])}`,
    );
  }
}

/** The footer must start at `at`, be the object's last 16 bytes, repeat the total length and match its CRC. */
function checkFooter(bytes: Uint8Array, view: DataView, at: number, errors: SnapshotErrors): void {
  errors.require(
    at + FOOTER_BYTES === bytes.length,
    "footer",
    `${String(bytes.length - at - FOOTER_BYTES)} byte(s) between the partial section and the footer`,
  );
  errors.require(view.getUint32(at) === FOOTER_MAGIC, "footer", 'bad footer magic (expected "NCF1")');
  errors.require(getU64(view, at + 4) === bytes.length, "footer totalLength", "does not match the object's length");
  const stored = view.getUint32(at + 12);
  const computed = crc32c(bytes.subarray(0, at + 12));
  errors.require(stored === computed, "footer crc32c", crcMismatch(stored, computed));
}

/** The whole-object CRC32C must be the reference's (the footer CRC continued over the footer's CRC bytes). */
function checkObjectCrc(
  bytes: Uint8Array,
  view: DataView,
  expected: SnapshotExpectation,
  errors: SnapshotErrors,
): void {
  const footerCrc = view.getUint32(bytes.length - 4);
  const computed = crc32c(bytes.subarray(bytes.length - 4), footerCrc);
  errors.require(
    computed === expected.crc32c,
    "crc32c",
    `the reference says 0x${expected.crc32c.toString(16).padStart(8, "0")}, the object's is 0x${computed.toString(16).padStart(8, "0")}`,
  );
}
