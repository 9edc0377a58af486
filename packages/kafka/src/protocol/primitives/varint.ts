// Kafka's variable-length integers: the unsigned varint of flexible versions (lengths, tag numbers, tag sizes;
// at most 5 bytes, 32 bits) and the zigzag-encoded signed varint (int32, 5 bytes) / varlong (int64, 10 bytes) of
// record fields. Little-endian base-128 groups, high bit = continuation. Overlong or over-wide encodings are
// rejected with a DECODE_ERROR naming the field and the byte offset where the varint starts.
import type { ByteReader, ByteWriter } from "@nereus/core";
import { invalidArgument } from "./invalid-argument.js";

const MAX_UNSIGNED_VARINT = 0xffff_ffff;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MASK = 2n ** 64n - 1n;

/** Reads an unsigned varint of at most 32 bits (0 .. 2^32-1). */
export function readUnsignedVarint(reader: ByteReader, field: string): number {
  const start = reader.offset;
  let value = 0;
  for (let index = 0; index < 5; index += 1) {
    const byte = reader.readU8(field);
    if (index === 4) {
      if (byte > 0x0f) throw reader.error(field, "unsigned varint exceeds 32 bits", start);
      return value + byte * 2 ** 28;
    }
    value += (byte & 0x7f) * 2 ** (7 * index);
    if ((byte & 0x80) === 0) return value;
  }
  /* c8 ignore next */
  throw reader.error(field, "unsigned varint is too long", start);
}

/** Reads a zigzag-encoded signed 32-bit varint. */
export function readVarint(reader: ByteReader, field: string): number {
  const unsigned = readUnsignedVarint(reader, field);
  // zigzag: 0 → 0, 1 → -1, 2 → 1, 3 → -2 ...
  return unsigned % 2 === 0 ? unsigned / 2 : -(unsigned + 1) / 2;
}

/** Reads a zigzag-encoded signed 64-bit varlong (at most 10 bytes) as a bigint. */
export function readVarlong(reader: ByteReader, field: string): bigint {
  const start = reader.offset;
  let value = 0n;
  for (let index = 0; index < 10; index += 1) {
    const byte = reader.readU8(field);
    if (index === 9 && byte > 0x01) throw reader.error(field, "varlong exceeds 64 bits", start);
    value |= BigInt(byte & 0x7f) << BigInt(7 * index);
    if ((byte & 0x80) === 0) return (value >> 1n) ^ -(value & 1n);
  }
  throw reader.error(field, "varlong is too long", start);
}

/** Reads a varlong that must fit a safe integer (timestamps, deltas); anything wider is a DECODE_ERROR. */
export function readSafeVarlong(reader: ByteReader, field: string): number {
  const start = reader.offset;
  const value = readVarlong(reader, field);
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw reader.error(field, "varlong exceeds the safe-integer range", start);
  }
  return Number(value);
}

/** Writes an unsigned varint (0 .. 2^32-1). */
export function writeUnsignedVarint(writer: ByteWriter, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > MAX_UNSIGNED_VARINT)
    throw invalidArgument("unsigned varint", value);
  let rest = value;
  while (rest >= 0x80) {
    writer.writeU8((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  writer.writeU8(rest);
}

/** Writes a zigzag-encoded signed 32-bit varint. */
export function writeVarint(writer: ByteWriter, value: number): void {
  if (!Number.isInteger(value) || value < -0x8000_0000 || value > 0x7fff_ffff) throw invalidArgument("varint", value);
  writeUnsignedVarint(writer, value >= 0 ? value * 2 : -value * 2 - 1);
}

/** Writes a zigzag-encoded signed 64-bit varlong (a safe-integer number or any int64 bigint). */
export function writeVarlong(writer: ByteWriter, value: number | bigint): void {
  if (typeof value === "number" && !Number.isSafeInteger(value)) throw invalidArgument("varlong", value);
  const big = BigInt(value);
  if (big < INT64_MIN || big > INT64_MAX) throw invalidArgument("varlong", value);
  let rest = ((big << 1n) ^ (big >> 63n)) & UINT64_MASK;
  while (rest >= 0x80n) {
    writer.writeU8(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  writer.writeU8(Number(rest));
}

/** Number of bytes `writeUnsignedVarint` uses for `value`. */
export function sizeOfUnsignedVarint(value: number): number {
  let size = 1;
  let rest = value;
  while (rest >= 0x80) {
    rest = Math.floor(rest / 0x80);
    size += 1;
  }
  return size;
}
