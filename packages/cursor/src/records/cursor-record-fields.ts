// Field encoders the cursor records share (big-endian, canonical):
//   ranges      u32 count, then (start u64, end u64)*
//   partial     offset u64, batchSize u32, wordCount u32, then wordCount × u64 words (least significant word first)
//   partials    u32 count, then partial*
//   stringMap   u32 count, then (key string, value string)* strictly ascending by UTF-8 key bytes
//   int64Map    u32 count, then (key string, value i64 two's complement)* strictly ascending by UTF-8 key bytes
// Readers bound every count by the bytes left, so a corrupt count fails fast instead of looping.
import { type ByteReader, type ByteWriter, decodeStrictUtf8, encodeStrictUtf8 } from "@nereus/core";
import { type RecordChecks, compareBytes, isWellFormedString } from "@nereus/core/internal";
import type { AckRange, PartialAck } from "../domain/ack-types.js";

const U32_MASK = 0xffff_ffffn;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** Reads a u32 count of items of at least `minItemBytes` bytes each, failing when they cannot fit. */
function readCount(reader: ByteReader, field: string, minItemBytes: number): number {
  const start = reader.offset;
  const count = reader.readU32(`${field}.count`);
  if (count * minItemBytes > reader.remaining) {
    throw reader.error(field, `${String(count)} items cannot fit in ${String(reader.remaining)} byte(s)`, start);
  }
  return count;
}

function writeU64Bits(writer: ByteWriter, value: bigint): void {
  writer.writeU32(Number((value >> 32n) & U32_MASK)).writeU32(Number(value & U32_MASK));
}

function readU64Bits(reader: ByteReader, field: string): bigint {
  const high = reader.readU32(field);
  return (BigInt(high) << 32n) | BigInt(reader.readU32(field));
}

/** True when `value` is a bigint that fits a signed 64-bit integer. */
function isInt64(value: unknown): value is bigint {
  return typeof value === "bigint" && value >= INT64_MIN && value <= INT64_MAX;
}

export function writeRanges(writer: ByteWriter, ranges: readonly AckRange[]): void {
  writer.writeU32(ranges.length);
  for (const range of ranges) writer.writeU64(range.start).writeU64(range.end);
}

export function readRanges(reader: ByteReader, field: string): AckRange[] {
  const count = readCount(reader, field, 16);
  const ranges: AckRange[] = [];
  for (let index = 0; index < count; index += 1) {
    ranges.push({ start: reader.readU64(`${field}.start`), end: reader.readU64(`${field}.end`) });
  }
  return ranges;
}

export function writePartial(writer: ByteWriter, partial: PartialAck): void {
  writer.writeU64(partial.offset).writeU32(partial.batchSize).writeU32(partial.remaining.length);
  for (const word of partial.remaining) writeU64Bits(writer, word);
}

export function readPartial(reader: ByteReader, field: string): PartialAck {
  const offset = reader.readU64(`${field}.offset`);
  const batchSize = reader.readU32(`${field}.batchSize`);
  const wordCount = readCount(reader, `${field}.remaining`, 8);
  const remaining: bigint[] = [];
  for (let index = 0; index < wordCount; index += 1) remaining.push(readU64Bits(reader, `${field}.remaining`));
  return { offset, batchSize, remaining };
}

export function writePartials(writer: ByteWriter, partials: readonly PartialAck[]): void {
  writer.writeU32(partials.length);
  for (const partial of partials) writePartial(writer, partial);
}

export function readPartials(reader: ByteReader, field: string): PartialAck[] {
  const count = readCount(reader, field, 16);
  const partials: PartialAck[] = [];
  for (let index = 0; index < count; index += 1) partials.push(readPartial(reader, field));
  return partials;
}

function isWellFormedText(value: unknown): boolean {
  return typeof value === "string" && isWellFormedString(value);
}

/** Throws through `checks` unless `map` is a Map whose keys are well-formed strings and values pass `isValue`. */
function checkMap(
  map: ReadonlyMap<string, unknown>,
  name: string,
  isValue: (value: unknown) => boolean,
  checks: RecordChecks,
): void {
  if (!(map instanceof Map)) throw checks.fail(`${name} must be a Map`);
  for (const [key, value] of map) {
    checks.text(`${name} key`, key, true);
    if (!isValue(value)) throw checks.fail(`${name} value of ${JSON.stringify(key)} is invalid: ${String(value)}`);
  }
}

/** Throws through `checks` unless `map` is a Map of well-formed strings to well-formed strings. */
export function checkStringMap(map: ReadonlyMap<string, string>, name: string, checks: RecordChecks): void {
  checkMap(map, name, isWellFormedText, checks);
}

/** Throws through `checks` unless `map` is a Map of well-formed strings to int64 bigints. */
export function checkInt64Map(map: ReadonlyMap<string, bigint>, name: string, checks: RecordChecks): void {
  checkMap(map, name, isInt64, checks);
}

/** The entries of a checked map with their UTF-8 keys, sorted by key bytes. */
function sortedEntries<V>(map: ReadonlyMap<string, V>): Array<{ key: Uint8Array; value: V }> {
  const entries: Array<{ key: Uint8Array; value: V }> = [];
  for (const [key, value] of map) entries.push({ key: encodeStrictUtf8(key), value });
  return entries.sort((a, b) => compareBytes(a.key, b.key));
}

/** Writes a checked string map (see checkStringMap). */
export function writeStringMap(writer: ByteWriter, map: ReadonlyMap<string, string>): void {
  const entries = sortedEntries(map);
  writer.writeU32(entries.length);
  for (const { key, value } of entries) writer.writeLengthPrefixedBytes(key).writeString(value);
}

/** Writes a checked int64 map (see checkInt64Map). */
export function writeInt64Map(writer: ByteWriter, map: ReadonlyMap<string, bigint>): void {
  const entries = sortedEntries(map);
  writer.writeU32(entries.length);
  for (const { key, value } of entries) {
    writer.writeLengthPrefixedBytes(key);
    writeU64Bits(writer, BigInt.asUintN(64, value));
  }
}

/** Reads map keys in strictly ascending UTF-8 byte order, each followed by a value `readValue` reads. */
function readMap<V>(reader: ByteReader, field: string, readValue: (field: string) => V): Map<string, V> {
  const count = readCount(reader, field, 8);
  const map = new Map<string, V>();
  let previous: Uint8Array | undefined;
  for (let index = 0; index < count; index += 1) {
    const keyStart = reader.offset;
    const keyBytes = reader.readLengthPrefixedBytes(`${field}.key`);
    if (previous !== undefined && compareBytes(previous, keyBytes) >= 0) {
      throw reader.error(`${field}.key`, "keys are not in strictly ascending UTF-8 byte order", keyStart);
    }
    previous = keyBytes;
    let key: string;
    try {
      key = decodeStrictUtf8(keyBytes, `${field}.key`);
    } catch (cause) {
      throw reader.error(`${field}.key`, "key is not well-formed UTF-8", keyStart, cause);
    }
    map.set(key, readValue(`${field}.value`));
  }
  return map;
}

export function readStringMap(reader: ByteReader, field: string): Map<string, string> {
  return readMap(reader, field, (name) => reader.readString(name));
}

export function readInt64Map(reader: ByteReader, field: string): Map<string, bigint> {
  return readMap(reader, field, (name) => BigInt.asIntN(64, readU64Bits(reader, name)));
}
