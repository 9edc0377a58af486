// Strict decoder of the fixed-size NRS1 footer: the last 24 bytes of an object, which locate the manifest and
// carry the whole-object CRC32C. Lets a reader that only knows an object's key and size find its slices with two
// ranged GETs (footer, then manifest). Does not verify the object checksum (that needs the whole object).
import { ByteReader } from "@nereus/core";
import { atObjectOffset, decodeError } from "./wal-format-errors.js";
import { WAL_OBJECT_LAYOUT } from "./wal-object-layout.js";
import type { WalObjectFooter } from "./wal-object-model.js";

/** Smallest possible header: magic, versions, flags, two 1-byte strings, createdAt, sliceCount. */
const MIN_HEADER_BYTES = 4 + 2 + 2 + 4 + (4 + 1) * 2 + 8 + 4;

/**
 * Decodes the footer of an object of `objectLength` bytes from exactly its last 24 bytes. Throws DECODE_ERROR
 * (with `details.objectOffset`) for a wrong size, a missing trailing "NRS1", or a manifest that does not end
 * exactly where the footer starts.
 */
export function decodeWalObjectFooter(footer: Uint8Array, objectLength: number): WalObjectFooter {
  const base = objectLength - WAL_OBJECT_LAYOUT.footerBytes;
  return atObjectOffset(Math.max(0, base), () => {
    if (footer.length !== WAL_OBJECT_LAYOUT.footerBytes || base < 0) {
      throw decodeError(
        "footer",
        0,
        `expected the last ${String(WAL_OBJECT_LAYOUT.footerBytes)} bytes of an object of at least that size`,
      );
    }
    const reader = new ByteReader(footer, "NRS1 footer");
    const manifestOffset = reader.readU64("manifestOffset");
    const manifestLength = reader.readU32("manifestLength");
    const manifestChecksum = reader.readU32("manifestChecksum");
    const objectChecksum = reader.readU32("objectChecksum");
    reader.expectBytes(WAL_OBJECT_LAYOUT.objectMagic, "trailing magic");
    reader.expectEnd();
    if (manifestOffset < MIN_HEADER_BYTES || manifestOffset + manifestLength !== base) {
      throw decodeError(
        "footer",
        0,
        `manifest [${String(manifestOffset)}, +${String(manifestLength)}) must end where the footer starts (${String(base)})`,
      );
    }
    return { manifestOffset, manifestLength, manifestChecksum, objectChecksum };
  });
}
