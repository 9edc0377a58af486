// Encoder of NRS1 WAL objects (docs/wal-object-format.md). Pure and canonical: the same input, in any slice order,
// gives the same bytes. Validates the input before building anything; payload bytes are copied once into the
// result and never retained.
//
//   object   = header slice{sliceCount} manifest footer
//   header   = "NRS1" formatMajor:u16 formatMinor:u16 flags:u32 writerId:str attemptKey:str createdAtMillis:u64
//              sliceCount:u32
//   slice    = "NRSL" streamId:str sliceId:str firstExpectedOffset:u64 entryCount:u32 payloadLength:u32
//              (recordCount:u32 payloadOffset:u32 payloadLength:u32){entryCount} payload sliceChecksum:u32
//   manifest = "NRSM" sliceCount:u32 (ordinal:u32 streamId:str sliceId:str firstExpectedOffset:u64 entryCount:u32
//              recordCount:u64 payloadBytes:u64 offset:u64 length:u32 checksum:u32){sliceCount}
//   footer   = manifestOffset:u64 manifestLength:u32 manifestChecksum:u32 objectChecksum:u32 "NRS1"
//   str      = byteLength:u32 UTF-8 bytes; all integers big-endian
import { ByteWriter, ErrorCode, NereusError, crc32c, crc32cCombine } from "@nereus/core";
import { copyBytes } from "@nereus/core/internal";
import { WAL_OBJECT_LAYOUT, walSliceId } from "./wal-object-layout.js";
import type {
  EncodedWalObject,
  WalObjectHeader,
  WalObjectInput,
  WalSliceDescriptor,
  WalSliceInput,
} from "./wal-object-model.js";

/**
 * Encodes one WAL object. Slices are ordered by stream id (UTF-8 byte order) and get ordinals and slice ids
 * (`walSliceId(attemptKey, ordinal)`) in that order; the returned manifest lists them in object order.
 * Throws `NereusError(INVALID_ARGUMENT)` for empty or duplicate stream ids, slices without entries, record counts
 * outside 1..2^31-1, offsets that are not safe integers, or a slice longer than 2^32-1 bytes. `allocate` provides
 * the zero-filled memory of the object (e.g. an object store's `accelerations.allocateBody`); it must return exactly `length` bytes.
 */
export function encodeWalObject(
  input: WalObjectInput,
  allocate: (length: number) => Uint8Array = (length) => new Uint8Array(length),
): EncodedWalObject {
  validate(input);
  const slices = [...input.slices].sort((left, right) =>
    Buffer.compare(Buffer.from(left.streamId), Buffer.from(right.streamId)),
  );
  const header: WalObjectHeader = {
    formatMajor: WAL_OBJECT_LAYOUT.formatMajor,
    formatMinor: WAL_OBJECT_LAYOUT.formatMinor,
    writerId: input.writerId,
    attemptKey: input.attemptKey,
    createdAtMillis: input.createdAtMillis,
    sliceCount: slices.length,
  };
  const headerBytes = new ByteWriter(64 + input.writerId.length * 3 + input.attemptKey.length * 3)
    .writeBytes(WAL_OBJECT_LAYOUT.objectMagic)
    .writeU16(header.formatMajor)
    .writeU16(header.formatMinor)
    .writeU32(0)
    .writeString(header.writerId)
    .writeString(header.attemptKey)
    .writeU64(header.createdAtMillis)
    .writeU32(header.sliceCount)
    .finish();

  // Parts of the object in order; payloads are referenced here and copied once below.
  const parts: Uint8Array[] = [headerBytes];
  let position = headerBytes.length;
  let objectCrc = crc32c(headerBytes);
  const manifest: WalSliceDescriptor[] = slices.map((slice, ordinal) => {
    const sliceId = walSliceId(input.attemptKey, ordinal);
    const { head, payloadBytes, recordCount } = encodeSliceHead(slice, sliceId);
    let checksum = crc32c(head);
    parts.push(head);
    for (const entry of slice.entries) {
      checksum =
        entry.payloadCrc32c === undefined
          ? crc32c(entry.payload, checksum)
          : crc32cCombine(checksum, entry.payloadCrc32c, entry.payload.length);
      parts.push(entry.payload);
    }
    const trailer = new ByteWriter(4).writeU32(checksum).finish();
    parts.push(trailer);
    const length = head.length + payloadBytes + trailer.length;
    // The object checksum grows slice by slice from the CRCs already known: no second pass over the payloads.
    objectCrc = crc32cCombine(objectCrc, crc32c(trailer, checksum), length);
    if (length > WAL_OBJECT_LAYOUT.maxSliceBytes) {
      throw invalid(
        `slice of stream ${slice.streamId} would be ${String(length)} bytes, more than ${String(WAL_OBJECT_LAYOUT.maxSliceBytes)}`,
      );
    }
    const descriptor: WalSliceDescriptor = {
      ordinal,
      streamId: slice.streamId,
      sliceId,
      firstExpectedOffset: slice.firstExpectedOffset,
      entryCount: slice.entries.length,
      recordCount,
      payloadBytes,
      offset: position,
      length,
      checksum,
    };
    position += length;
    return descriptor;
  });

  const manifestWriter = new ByteWriter(64 * manifest.length + 16)
    .writeBytes(WAL_OBJECT_LAYOUT.manifestMagic)
    .writeU32(manifest.length);
  for (const descriptor of manifest) {
    manifestWriter
      .writeU32(descriptor.ordinal)
      .writeString(descriptor.streamId)
      .writeString(descriptor.sliceId)
      .writeU64(descriptor.firstExpectedOffset)
      .writeU32(descriptor.entryCount)
      .writeU64(descriptor.recordCount)
      .writeU64(descriptor.payloadBytes)
      .writeU64(descriptor.offset)
      .writeU32(descriptor.length)
      .writeU32(descriptor.checksum);
  }
  const manifestBytes = manifestWriter.finish();
  parts.push(manifestBytes);
  const manifestOffset = position;
  position += manifestBytes.length;

  const total = position + WAL_OBJECT_LAYOUT.footerBytes;
  if (!Number.isSafeInteger(total)) throw invalid("WAL object would exceed 2^53-1 bytes");
  const bytes = allocate(total);
  if (bytes.length !== total)
    throw invalid(`the allocator returned ${String(bytes.length)} bytes for a ${String(total)}-byte object`);
  let at = 0;
  for (const part of parts) {
    copyBytes(bytes, part, at);
    at += part.length;
  }
  const manifestChecksum = crc32c(manifestBytes);
  const footerStart = new ByteWriter(16)
    .writeU64(manifestOffset)
    .writeU32(manifestBytes.length)
    .writeU32(manifestChecksum)
    .finish();
  bytes.set(footerStart, at);
  const objectChecksum = crc32c(footerStart, crc32cCombine(objectCrc, manifestChecksum, manifestBytes.length));
  bytes.set(new ByteWriter(8).writeU32(objectChecksum).writeBytes(WAL_OBJECT_LAYOUT.objectMagic).finish(), total - 8);
  const storageChecksum = crc32c(bytes.subarray(total - 8), objectChecksum);
  return { bytes, header, manifest, objectChecksum, storageChecksum };
}

/** Slice bytes up to (excluding) the payload: magic, identity, counts and the entry index. */
function encodeSliceHead(
  slice: WalSliceInput,
  sliceId: string,
): { head: Uint8Array; payloadBytes: number; recordCount: number } {
  let payloadBytes = 0;
  let recordCount = 0;
  for (const entry of slice.entries) {
    payloadBytes += entry.payload.length;
    recordCount += entry.recordCount;
  }
  if (payloadBytes > WAL_OBJECT_LAYOUT.maxSliceBytes) {
    throw invalid(
      `slice of stream ${slice.streamId} holds ${String(payloadBytes)} payload bytes, more than a slice can`,
    );
  }
  const writer = new ByteWriter(
    64 + slice.streamId.length * 3 + sliceId.length * 3 + slice.entries.length * WAL_OBJECT_LAYOUT.indexItemBytes,
  )
    .writeBytes(WAL_OBJECT_LAYOUT.sliceMagic)
    .writeString(slice.streamId)
    .writeString(sliceId)
    .writeU64(slice.firstExpectedOffset)
    .writeU32(slice.entries.length)
    .writeU32(payloadBytes);
  let payloadOffset = 0;
  for (const entry of slice.entries) {
    writer.writeU32(entry.recordCount).writeU32(payloadOffset).writeU32(entry.payload.length);
    payloadOffset += entry.payload.length;
  }
  return { head: writer.finish(), payloadBytes, recordCount };
}

function validate(input: WalObjectInput): void {
  if (typeof input.writerId !== "string" || input.writerId.length === 0)
    throw invalid("writerId must be a non-empty string");
  if (typeof input.attemptKey !== "string" || input.attemptKey.length === 0)
    throw invalid("attemptKey must be a non-empty string");
  if (!Number.isSafeInteger(input.createdAtMillis) || input.createdAtMillis < 0) {
    throw invalid(`createdAtMillis must be a non-negative safe integer, got ${String(input.createdAtMillis)}`);
  }
  if (input.slices.length === 0) throw invalid("a WAL object needs at least one slice");
  const streams = new Set<string>();
  for (const slice of input.slices) {
    if (typeof slice.streamId !== "string" || slice.streamId.length === 0)
      throw invalid("streamId must be a non-empty string");
    if (streams.has(slice.streamId)) throw invalid(`stream ${slice.streamId} has more than one slice`);
    streams.add(slice.streamId);
    if (!Number.isSafeInteger(slice.firstExpectedOffset) || slice.firstExpectedOffset < 0) {
      throw invalid(`firstExpectedOffset of stream ${slice.streamId} must be a non-negative safe integer`);
    }
    if (slice.entries.length === 0) throw invalid(`slice of stream ${slice.streamId} has no entries`);
    let end = slice.firstExpectedOffset;
    for (const entry of slice.entries) {
      if (
        !Number.isInteger(entry.recordCount) ||
        entry.recordCount < 1 ||
        entry.recordCount > WAL_OBJECT_LAYOUT.maxEntryRecordCount
      ) {
        throw invalid(`entry record count must be an integer in [1, 2^31-1], got ${String(entry.recordCount)}`);
      }
      if (!(entry.payload instanceof Uint8Array)) throw invalid("entry payload must be a Uint8Array");
      end += entry.recordCount;
    }
    if (!Number.isSafeInteger(end)) throw invalid(`offsets of stream ${slice.streamId} would exceed 2^53-1`);
  }
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}
