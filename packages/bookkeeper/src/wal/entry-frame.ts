// The bytes of one Nereus entry inside one BookKeeper entry (docs/architecture.md §8.5; RANGED_NEREUS_ENTRY_V1, for every
// payload format so a reader recovers each entry's record count from the ledger alone). Layout, big-endian:
//   magic          5 bytes "NBKE1"
//   recordCount    i32 (1 .. 2^31-1)
//   payloadLength  i32 (0 .. 64 MiB)
//   payloadCrc32c  u32 CRC32C of the payload
//   payload        payloadLength bytes (no trailing bytes)
// `encodeEntryFrame` returns a fresh array; `decodeEntryFrame` returns a view into its input (copy to retain).
import { ByteReader, ByteWriter, ErrorCode, NereusError, crc32c } from "@nereus/core";
import { bytesEqual } from "@nereus/core/internal";

/** "NBKE1". */
const ENTRY_FRAME_MAGIC: Uint8Array = new Uint8Array([0x4e, 0x42, 0x4b, 0x45, 0x31]);
/** Bytes the frame adds to each payload. */
export const ENTRY_FRAME_OVERHEAD = 17;
/** Largest payload a frame may carry (a bookie frame is smaller still: 5 MiB). */
const ENTRY_FRAME_MAX_PAYLOAD = 64 * 1024 * 1024;
const MAX_RECORD_COUNT = 0x7fff_ffff;

/** One decoded frame. */
export interface EntryFrame {
  readonly recordCount: number;
  /** A view into the frame bytes. */
  readonly payload: Uint8Array;
}

/** Frames `payload` with its record count. Throws INVALID_ARGUMENT for an out-of-range count or length. */
export function encodeEntryFrame(recordCount: number, payload: Uint8Array): Uint8Array {
  if (!Number.isInteger(recordCount) || recordCount < 1 || recordCount > MAX_RECORD_COUNT) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `entry record count ${String(recordCount)} is outside 1..2^31-1`,
      { retryable: false },
    );
  }
  if (payload.length > ENTRY_FRAME_MAX_PAYLOAD) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `entry payload of ${String(payload.length)} bytes exceeds ${String(ENTRY_FRAME_MAX_PAYLOAD)}`,
      { retryable: false },
    );
  }
  return new ByteWriter(payload.length + ENTRY_FRAME_OVERHEAD)
    .writeBytes(ENTRY_FRAME_MAGIC)
    .writeI32(recordCount)
    .writeI32(payload.length)
    .writeU32(crc32c(payload))
    .writeBytes(payload)
    .finish();
}

/**
 * Decodes one frame. Any deviation (magic, counts, length, trailing bytes, payload CRC) throws
 * `NereusError(PRIMARY_WAL_CHECKSUM_MISMATCH)`: the ledger holds bytes this writer did not write.
 */
export function decodeEntryFrame(bytes: Uint8Array, where: string): EntryFrame {
  try {
    const reader = new ByteReader(bytes, `entry frame ${where}`);
    if (
      bytes.length < ENTRY_FRAME_OVERHEAD ||
      !bytesEqual(bytes.subarray(0, ENTRY_FRAME_MAGIC.length), ENTRY_FRAME_MAGIC)
    ) {
      throw corrupt(where, "missing NBKE1 magic");
    }
    reader.readBytes(ENTRY_FRAME_MAGIC.length, "magic");
    const recordCount = reader.readI32("recordCount");
    const payloadLength = reader.readI32("payloadLength");
    const checksum = reader.readU32("payloadCrc32c");
    if (recordCount < 1) throw corrupt(where, `record count ${String(recordCount)} is not positive`);
    if (payloadLength < 0 || payloadLength !== reader.remaining) {
      throw corrupt(
        where,
        `declared payload length ${String(payloadLength)} but ${String(reader.remaining)} byte(s) follow`,
      );
    }
    const payload = reader.readBytes(payloadLength, "payload");
    if (crc32c(payload) !== checksum) throw corrupt(where, "payload CRC32C mismatch");
    return { recordCount, payload };
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH)) throw error;
    throw corrupt(where, error instanceof Error ? error.message : String(error), error);
  }
}

function corrupt(where: string, reason: string, cause?: unknown): NereusError {
  return new NereusError(
    ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
    `BookKeeper entry ${where} is not a valid Nereus entry frame: ${reason}`,
    { retryable: false, cause },
  );
}
