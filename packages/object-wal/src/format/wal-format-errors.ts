// Errors of the NRS1 decoders. Every error names the object byte offset where decoding failed
// (`details.objectOffset`): checksum failures are OBJECT_CHECKSUM_MISMATCH, structural ones DECODE_ERROR (as raised
// by core's ByteReader, re-based onto the object), unknown versions UNSUPPORTED_FORMAT.
import { ErrorCode, NereusError } from "@nereus/core";

/** A CRC32C over `[from, to)` did not match the stored value at `to` (object offsets). */
export function checksumMismatch(
  what: string,
  from: number,
  to: number,
  expected: number,
  actual: number,
): NereusError {
  return new NereusError(
    ErrorCode.OBJECT_CHECKSUM_MISMATCH,
    `NRS1 ${what}: CRC32C of bytes [${String(from)}, ${String(to)}) is ${hex(actual)}, stored ${hex(expected)} (checksum at byte offset ${String(to)})`,
    { retryable: false, details: { what, objectOffset: to, from, expected, actual } },
  );
}

/** A structural error at object byte `objectOffset`. */
export function decodeError(what: string, objectOffset: number, reason: string): NereusError {
  return new NereusError(ErrorCode.DECODE_ERROR, `NRS1 ${what} at byte offset ${String(objectOffset)}: ${reason}`, {
    retryable: false,
    details: { what, objectOffset },
  });
}

/**
 * Runs a decoder that works on a sub-range starting at object byte `base` (relative offsets) and re-bases the
 * offsets of the errors it raises (`details.offset` of core's ByteReader, `details.objectOffset` of the helpers
 * above) onto the object, in `details.objectOffset`. Wrap each sub-range exactly once.
 */
export function atObjectOffset<T>(base: number, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (!NereusError.is(error)) throw error;
    const relative = error.details["objectOffset"] ?? error.details["offset"];
    if (typeof relative !== "number") throw error;
    const objectOffset = base + relative;
    throw new NereusError(
      error.code,
      base === 0 ? error.message : `${error.message} (object byte offset ${String(objectOffset)})`,
      {
        retryable: error.retryable,
        cause: error,
        details: { ...error.details, objectOffset },
      },
    );
  }
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, "0")}`;
}
