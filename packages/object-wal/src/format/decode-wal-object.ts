// Strict decoder of a whole NRS1 WAL object. Order: leading and trailing magic → whole-object CRC32C → footer →
// header (version, flags) → manifest (its CRC32C, order, tiling) → every slice (its CRC32C, structure, agreement
// with the manifest). Any fault raises; a CRC-valid but structurally wrong object is still rejected.
// Returned payloads are views into `bytes` (copy before retaining).
import { ByteReader, ErrorCode, NereusError, crc32c } from "@nereus/core";
import { decodeSlice } from "./decode-slice.js";
import { decodeWalManifest } from "./decode-wal-manifest.js";
import { decodeWalObjectFooter } from "./decode-wal-object-footer.js";
import { atObjectOffset, checksumMismatch, decodeError } from "./wal-format-errors.js";
import { WAL_OBJECT_LAYOUT, walSliceId } from "./wal-object-layout.js";
import type { DecodedWalObject, WalObjectHeader } from "./wal-object-model.js";

/**
 * Decodes and fully verifies one object. Invariant: returns exactly what `encodeWalObject` was given (slices in
 * stream order), or throws `OBJECT_CHECKSUM_MISMATCH`, `DECODE_ERROR` or (for a version this code does not know)
 * `UNSUPPORTED_FORMAT`, each with `details.objectOffset`; never returns partial or wrong data.
 */
export function decodeWalObject(bytes: Uint8Array): DecodedWalObject {
  const magic = WAL_OBJECT_LAYOUT.objectMagic;
  if (bytes.length < WAL_OBJECT_LAYOUT.footerBytes + magic.length) {
    throw decodeError(
      "object",
      bytes.length,
      `truncated: ${String(bytes.length)} byte(s) cannot hold a header and a footer`,
    );
  }
  if (!startsWith(bytes, magic, 0)) throw decodeError("object", 0, "not an NRS1 object (leading magic)");
  if (!startsWith(bytes, magic, bytes.length - magic.length)) {
    throw decodeError(
      "object",
      bytes.length - magic.length,
      "truncated or followed by extra bytes (no trailing magic)",
    );
  }
  const checksumAt = bytes.length - 8;
  const stored = new DataView(bytes.buffer, bytes.byteOffset + checksumAt, 4).getUint32(0);
  const actual = crc32c(bytes.subarray(0, checksumAt));
  if (actual !== stored) throw checksumMismatch("object", 0, checksumAt, stored, actual);

  const footer = decodeWalObjectFooter(bytes.subarray(bytes.length - WAL_OBJECT_LAYOUT.footerBytes), bytes.length);
  const { header, headerLength } = atObjectOffset(0, () => decodeHeader(bytes.subarray(0, footer.manifestOffset)));
  const manifest = decodeWalManifest(
    bytes.subarray(footer.manifestOffset, footer.manifestOffset + footer.manifestLength),
    footer,
  );
  if (manifest.length !== header.sliceCount) {
    throw decodeError(
      "manifest",
      footer.manifestOffset,
      `holds ${String(manifest.length)} slice(s), the header says ${String(header.sliceCount)}`,
    );
  }
  const first = manifest[0];
  if (first === undefined || first.offset !== headerLength) {
    throw decodeError(
      "manifest",
      footer.manifestOffset,
      `the first slice must start right after the header, at ${String(headerLength)}`,
    );
  }
  const slices = manifest.map((descriptor) => {
    if (descriptor.sliceId !== walSliceId(header.attemptKey, descriptor.ordinal)) {
      throw decodeError(
        "manifest",
        footer.manifestOffset,
        `slice ${String(descriptor.ordinal)} has id ${JSON.stringify(descriptor.sliceId)}, not one derived from the attempt key`,
      );
    }
    return decodeSlice(bytes.subarray(descriptor.offset, descriptor.offset + descriptor.length), descriptor);
  });
  return { header, manifest, slices, objectChecksum: stored };
}

function decodeHeader(region: Uint8Array): { header: WalObjectHeader; headerLength: number } {
  const reader = new ByteReader(region, "NRS1 header");
  reader.expectBytes(WAL_OBJECT_LAYOUT.objectMagic, "magic");
  const formatMajor = reader.readU16("formatMajor");
  const formatMinor = reader.readU16("formatMinor");
  if (formatMajor !== WAL_OBJECT_LAYOUT.formatMajor || formatMinor !== WAL_OBJECT_LAYOUT.formatMinor) {
    throw new NereusError(
      ErrorCode.UNSUPPORTED_FORMAT,
      `NRS1 header: format version ${String(formatMajor)}.${String(formatMinor)} is not supported (this decoder reads ${String(WAL_OBJECT_LAYOUT.formatMajor)}.${String(WAL_OBJECT_LAYOUT.formatMinor)})`,
      { retryable: false, details: { objectOffset: 4, formatMajor, formatMinor } },
    );
  }
  const flags = reader.readU32("flags");
  if (flags !== 0)
    throw reader.error("flags", `no flags are defined in version 1.0, got ${String(flags)}`, reader.offset - 4);
  const writerOffset = reader.offset;
  const writerId = reader.readString("writerId");
  if (writerId.length === 0) throw reader.error("writerId", "must not be empty", writerOffset);
  const attemptOffset = reader.offset;
  const attemptKey = reader.readString("attemptKey");
  if (attemptKey.length === 0) throw reader.error("attemptKey", "must not be empty", attemptOffset);
  const createdAtMillis = reader.readU64("createdAtMillis");
  const sliceCount = reader.readU32("sliceCount");
  const header: WalObjectHeader = { formatMajor, formatMinor, writerId, attemptKey, createdAtMillis, sliceCount };
  return { header, headerLength: reader.offset };
}

function startsWith(bytes: Uint8Array, expected: Uint8Array, at: number): boolean {
  for (let index = 0; index < expected.length; index++) {
    if (bytes[at + index] !== expected[index]) return false;
  }
  return true;
}
