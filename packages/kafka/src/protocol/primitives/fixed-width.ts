// Kafka's fixed-width integer fields that @nereus/core's ByteReader/ByteWriter do not cover directly: signed int8
// and int16 (two's complement over the core's unsigned reads) and int64 as bigint (producer ids may exceed 2^53).
// Plain int32/uint32 and safe-integer int64 go straight to the core helpers. Stateless; no buffer retention.
import type { ByteReader, ByteWriter } from "@nereus/core";
import { invalidArgument } from "./invalid-argument.js";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Reads a signed 8-bit integer. */
export function readInt8(reader: ByteReader, field: string): number {
  const value = reader.readU8(field);
  return value >= 0x80 ? value - 0x100 : value;
}

/** Reads a signed big-endian 16-bit integer. */
export function readInt16(reader: ByteReader, field: string): number {
  const value = reader.readU16(field);
  return value >= 0x8000 ? value - 0x1_0000 : value;
}

/** Reads a signed big-endian 64-bit integer as a bigint (full range, no safe-integer restriction). */
export function readInt64BigInt(reader: ByteReader, field: string): bigint {
  const bytes = reader.readBytes(8, field);
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0);
}

/** Writes a signed 8-bit integer (-128..127). */
export function writeInt8(writer: ByteWriter, value: number): void {
  if (!Number.isInteger(value) || value < -0x80 || value > 0x7f) throw invalidArgument("int8", value);
  writer.writeU8(value & 0xff);
}

/** Writes a signed big-endian 16-bit integer (-32768..32767). */
export function writeInt16(writer: ByteWriter, value: number): void {
  if (!Number.isInteger(value) || value < -0x8000 || value > 0x7fff) throw invalidArgument("int16", value);
  writer.writeU16(value & 0xffff);
}

/** Writes a signed big-endian 64-bit integer given as a bigint. */
export function writeInt64BigInt(writer: ByteWriter, value: bigint): void {
  if (typeof value !== "bigint" || value < INT64_MIN || value > INT64_MAX) throw invalidArgument("int64", value);
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, value);
  writer.writeBytes(bytes);
}
