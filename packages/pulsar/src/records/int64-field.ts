// Signed 64-bit integer fields of the adapter's records (ledger ids, sequence ids), as bigint end to end: eight
// bytes, big-endian two's complement. Core's ByteWriter and ByteReader carry numbers only.
import type { ByteReader, ByteWriter } from "@nereus/core";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** True when `value` is a bigint in the signed 64-bit range. */
export function isInt64(value: unknown): value is bigint {
  return typeof value === "bigint" && value >= INT64_MIN && value <= INT64_MAX;
}

/** Writes `value` (a signed 64-bit bigint; the record was validated before) as eight big-endian bytes. */
export function writeInt64(writer: ByteWriter, value: bigint): void {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, value);
  writer.writeBytes(bytes);
}

/** Reads eight big-endian bytes as a signed 64-bit bigint (DECODE_ERROR when fewer remain). */
export function readInt64(reader: ByteReader, field: string): bigint {
  const bytes = reader.readBytes(8, field);
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0);
}
