// Strict decoder of the NRS1 manifest (the slice directory before the footer), from exactly the manifest bytes.
// Verifies the manifest CRC32C from the footer, then that the descriptors are in order, well-formed, and tile the
// object without gaps up to the manifest. Does not read slices.
import { ByteReader, crc32c } from "@nereus/core";
import { atObjectOffset, checksumMismatch } from "./wal-format-errors.js";
import { WAL_OBJECT_LAYOUT } from "./wal-object-layout.js";
import type { WalObjectFooter, WalSliceDescriptor } from "./wal-object-model.js";

/** Smallest slice: magic, two 1-byte strings, firstExpectedOffset, counts, one index item, checksum. */
const MIN_SLICE_BYTES = 4 + (4 + 1) * 2 + 8 + 4 + 4 + WAL_OBJECT_LAYOUT.indexItemBytes + 4;

/**
 * Decodes the manifest located by `footer`. Throws OBJECT_CHECKSUM_MISMATCH when the bytes do not match
 * `footer.manifestChecksum`, DECODE_ERROR (with `details.objectOffset`) for any structural fault: wrong ordinals,
 * stream ids not strictly increasing in UTF-8 byte order, slices that overlap, leave gaps or do not end at the
 * manifest, or counts that cannot describe a valid slice.
 */
export function decodeWalManifest(manifest: Uint8Array, footer: WalObjectFooter): readonly WalSliceDescriptor[] {
  return atObjectOffset(footer.manifestOffset, () => {
    const actual = crc32c(manifest);
    if (manifest.length !== footer.manifestLength || actual !== footer.manifestChecksum) {
      throw checksumMismatch("manifest", 0, manifest.length, footer.manifestChecksum, actual);
    }
    const reader = new ByteReader(manifest, "NRS1 manifest");
    reader.expectBytes(WAL_OBJECT_LAYOUT.manifestMagic, "manifest magic");
    const sliceCount = reader.readU32("sliceCount");
    if (sliceCount < 1) throw reader.error("sliceCount", "an object holds at least one slice", reader.offset - 4);
    const slices: WalSliceDescriptor[] = [];
    let previousStream: Buffer | undefined;
    for (let ordinal = 0; ordinal < sliceCount; ordinal++) {
      const start = reader.offset;
      if (reader.readU32("ordinal") !== ordinal) throw reader.error("ordinal", `expected ${String(ordinal)}`, start);
      const streamOffset = reader.offset;
      const streamId = reader.readString("streamId");
      const streamBytes = Buffer.from(streamId, "utf8");
      if (streamId.length === 0 || (previousStream !== undefined && Buffer.compare(previousStream, streamBytes) >= 0)) {
        throw reader.error(
          "streamId",
          "stream ids must be non-empty and strictly increasing in UTF-8 byte order",
          streamOffset,
        );
      }
      previousStream = streamBytes;
      const sliceId = reader.readString("sliceId");
      const firstExpectedOffset = reader.readU64("firstExpectedOffset");
      const entryCount = reader.readU32("entryCount");
      const recordCount = reader.readU64("recordCount");
      const payloadBytes = reader.readU64("payloadBytes");
      const offsetField = reader.offset;
      const offset = reader.readU64("offset");
      const length = reader.readU32("length");
      const checksum = reader.readU32("checksum");
      const previous = slices.at(-1);
      const expectedOffset = previous === undefined ? offset : previous.offset + previous.length;
      if (offset !== expectedOffset) {
        throw reader.error(
          "offset",
          `slice ${String(ordinal)} must start at ${String(expectedOffset)}, not ${String(offset)}`,
          offsetField,
        );
      }
      if (
        entryCount < 1 ||
        recordCount < entryCount ||
        recordCount > entryCount * WAL_OBJECT_LAYOUT.maxEntryRecordCount ||
        !Number.isSafeInteger(firstExpectedOffset + recordCount) ||
        length < MIN_SLICE_BYTES ||
        payloadBytes + entryCount * WAL_OBJECT_LAYOUT.indexItemBytes > length
      ) {
        throw reader.error("slice descriptor", `slice ${String(ordinal)} has inconsistent counts or length`, start);
      }
      slices.push({
        ordinal,
        streamId,
        sliceId,
        firstExpectedOffset,
        entryCount,
        recordCount,
        payloadBytes,
        offset,
        length,
        checksum,
      });
    }
    reader.expectEnd();
    const last = slices.at(-1);
    if (last !== undefined && last.offset + last.length !== footer.manifestOffset) {
      throw reader.error(
        "slices",
        `the last slice ends at ${String(last.offset + last.length)}, not at the manifest`,
        0,
      );
    }
    return slices;
  });
}
