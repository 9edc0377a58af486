// Strict decoder of one NRS1 slice, from exactly the bytes a ranged GET of `[descriptor.offset,
// descriptor.offset + descriptor.length)` returns: verifies the slice CRC32C against the bytes and the descriptor,
// then the structure, then every field the descriptor repeats. Returns views into `bytes` (copy before retaining).
// `decodeSliceBytes` does the same from a partial expectation (what a ReadTarget knows: where the slice is, its
// checksum and entry count), checking only the fields it is given besides the full structure.
import { ByteReader, ErrorCode, NereusError, crc32c, type StoredEntry } from "@nereus/core";
import { atObjectOffset, checksumMismatch, decodeError } from "./wal-format-errors.js";
import { WAL_OBJECT_LAYOUT } from "./wal-object-layout.js";
import type { DecodedWalSlice, WalSliceDescriptor } from "./wal-object-model.js";

/**
 * What a reader expects of a slice: its object offset (for error offsets), exact length and CRC32C are required;
 * every other descriptor field is checked only when present.
 */
export type WalSliceExpectation = Pick<WalSliceDescriptor, "offset" | "length" | "checksum"> &
  Partial<Omit<WalSliceDescriptor, "offset" | "length" | "checksum" | "ordinal">>;

/**
 * Decodes one slice. Invariant: returns exactly the entries written, or throws: `OBJECT_CHECKSUM_MISMATCH` when
 * the bytes do not match their CRC32C or the descriptor's, `DECODE_ERROR` for any structural fault or disagreement
 * with the descriptor. `details.objectOffset` is the object byte offset of the fault.
 */
export function decodeSlice(bytes: Uint8Array, descriptor: WalSliceDescriptor): DecodedWalSlice {
  return decodeSliceBytes(bytes, descriptor);
}

/** `decodeSlice` against a partial expectation (same checks for the fields given, the same error classes). */
export function decodeSliceBytes(bytes: Uint8Array, descriptor: WalSliceExpectation): DecodedWalSlice {
  return atObjectOffset(descriptor.offset, () => {
    if (bytes.length !== descriptor.length) {
      throw decodeError(
        "slice",
        Math.min(bytes.length, descriptor.length),
        `expected ${String(descriptor.length)} byte(s), got ${String(bytes.length)}`,
      );
    }
    if (bytes.length < 4) throw decodeError("slice", bytes.length, "shorter than its checksum");
    const end = bytes.length - 4;
    const stored = new DataView(bytes.buffer, bytes.byteOffset + end, 4).getUint32(0);
    const actual = crc32c(bytes.subarray(0, end));
    if (actual !== stored) throw checksumMismatch("slice", 0, end, stored, actual);
    if (stored !== descriptor.checksum)
      throw checksumMismatch("slice (manifest checksum)", 0, end, descriptor.checksum, actual);

    const reader = new ByteReader(bytes.subarray(0, end), "NRS1 slice");
    reader.expectBytes(WAL_OBJECT_LAYOUT.sliceMagic, "slice magic");
    const streamId = expectEqual(reader, "streamId", reader.readString("streamId"), descriptor.streamId);
    const sliceId = expectEqual(reader, "sliceId", reader.readString("sliceId"), descriptor.sliceId);
    const firstExpectedOffset = expectEqual(
      reader,
      "firstExpectedOffset",
      reader.readU64("firstExpectedOffset"),
      descriptor.firstExpectedOffset,
    );
    const entryCount = expectEqual(reader, "entryCount", reader.readU32("entryCount"), descriptor.entryCount);
    if (entryCount < 1) throw reader.error("entryCount", "a slice holds at least one entry", reader.offset - 4);
    const payloadLength = expectEqual(
      reader,
      "payloadLength",
      reader.readU32("payloadLength"),
      descriptor.payloadBytes,
    );
    if (reader.remaining < entryCount * WAL_OBJECT_LAYOUT.indexItemBytes + payloadLength) {
      throw reader.error(
        "entry index",
        `entryCount ${String(entryCount)} and payloadLength ${String(payloadLength)} exceed the slice`,
      );
    }

    const index: { recordCount: number; payloadOffset: number; payloadLength: number }[] = [];
    let nextPayloadOffset = 0;
    let recordCount = 0;
    for (let ordinal = 0; ordinal < entryCount; ordinal++) {
      const itemOffset = reader.offset;
      const entryRecords = reader.readU32("entry recordCount");
      if (entryRecords < 1 || entryRecords > WAL_OBJECT_LAYOUT.maxEntryRecordCount) {
        throw reader.error("entry recordCount", `must be in [1, 2^31-1], got ${String(entryRecords)}`, itemOffset);
      }
      const payloadOffset = reader.readU32("entry payloadOffset");
      if (payloadOffset !== nextPayloadOffset) {
        throw reader.error(
          "entry payloadOffset",
          `entry ${String(ordinal)} must start at ${String(nextPayloadOffset)}, not ${String(payloadOffset)}`,
          itemOffset + 4,
        );
      }
      const entryLength = reader.readU32("entry payloadLength");
      nextPayloadOffset += entryLength;
      if (nextPayloadOffset > payloadLength) {
        throw reader.error(
          "entry payloadLength",
          `entry ${String(ordinal)} ends past the slice payload`,
          itemOffset + 8,
        );
      }
      recordCount += entryRecords;
      index.push({ recordCount: entryRecords, payloadOffset, payloadLength: entryLength });
    }
    if (nextPayloadOffset !== payloadLength) {
      throw reader.error(
        "entry index",
        `entries cover ${String(nextPayloadOffset)} of ${String(payloadLength)} payload byte(s)`,
      );
    }
    const payload = reader.readBytes(payloadLength, "payload");
    reader.expectEnd();
    if (descriptor.recordCount !== undefined && recordCount !== descriptor.recordCount) {
      throw decodeError(
        "slice",
        0,
        `entries hold ${String(recordCount)} record(s), the manifest says ${String(descriptor.recordCount)}`,
      );
    }
    if (!Number.isSafeInteger(firstExpectedOffset + recordCount)) {
      throw decodeError("slice", 0, "offsets of the slice exceed 2^53-1");
    }
    const entries: StoredEntry[] = index.map((item) => ({
      recordCount: item.recordCount,
      payload: payload.subarray(item.payloadOffset, item.payloadOffset + item.payloadLength),
    }));
    return { streamId, sliceId, firstExpectedOffset, entries };
  });
}

/**
 * Returns `actual` when it equals the descriptor's value (or the expectation does not name one); otherwise a
 * DECODE_ERROR at the field just read.
 */
function expectEqual<T extends string | number>(
  reader: ByteReader,
  field: string,
  actual: T,
  expected: T | undefined,
): T {
  if (expected !== undefined && actual !== expected) {
    throw new NereusError(
      ErrorCode.DECODE_ERROR,
      `NRS1 slice: ${field} is ${JSON.stringify(actual)}, the manifest says ${JSON.stringify(expected)} (field ends at byte offset ${String(reader.offset)})`,
      { retryable: false, details: { field, offset: reader.offset } },
    );
  }
  return actual;
}
