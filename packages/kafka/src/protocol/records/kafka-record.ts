// One record inside an (uncompressed or already inflated) RecordBatch v2:
//
//   Record => length:VARINT attributes:INT8 timestampDelta:VARLONG offsetDelta:VARINT
//             keyLength:VARINT key:BYTES valueLength:VARINT value:BYTES headerCount:VARINT [Header]
//   Header => keyLength:VARINT key:UTF8 valueLength:VARINT value:BYTES
//
// Lengths of -1 mean null (keys and values; header keys may not be null). `length` counts the bytes after
// itself and must match exactly. Decoded keys and values are views into the input.
import { ByteReader, type ByteWriter, decodeStrictUtf8, encodeStrictUtf8 } from "@nereus/core";
import { readInt8, writeInt8 } from "../primitives/fixed-width.js";
import { invalidArgument } from "../primitives/invalid-argument.js";
import { readSafeVarlong, readVarint, writeVarint, writeVarlong } from "../primitives/varint.js";

/** A record header. */
export interface RecordHeader {
  readonly key: string;
  readonly value: Uint8Array | null;
}

/** One record as stored in a batch (offsets and timestamps relative to the batch). */
export interface KafkaRecord {
  /** Unused by Kafka today; 0. */
  readonly attributes: number;
  readonly timestampDelta: number;
  readonly offsetDelta: number;
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
  readonly headers: readonly RecordHeader[];
}

function readNullableBytes(reader: ByteReader, field: string): Uint8Array | null {
  const start = reader.offset;
  const length = readVarint(reader, field);
  if (length === -1) return null;
  if (length < -1) throw reader.error(field, `negative length ${String(length)}`, start);
  return reader.readBytes(length, field);
}

/** Reads one record (its length prefix included). */
export function readRecord(reader: ByteReader): KafkaRecord {
  const start = reader.offset;
  const length = readVarint(reader, "Record.length");
  if (length < 0) throw reader.error("Record.length", `negative record length ${String(length)}`, start);
  const body = new ByteReader(
    reader.readBytes(length, "Record"),
    `Kafka record at byte offset ${String(start)} of the records`,
  );
  const attributes = readInt8(body, "Record.attributes");
  const timestampDelta = readSafeVarlong(body, "Record.timestampDelta");
  const offsetDelta = readVarint(body, "Record.offsetDelta");
  const key = readNullableBytes(body, "Record.key");
  const value = readNullableBytes(body, "Record.value");
  const headerStart = body.offset;
  const headerCount = readVarint(body, "Record.headerCount");
  if (headerCount < 0 || headerCount > body.remaining) {
    throw body.error("Record.headerCount", `invalid header count ${String(headerCount)}`, headerStart);
  }
  const headers: RecordHeader[] = [];
  for (let index = 0; index < headerCount; index += 1) {
    const keyStart = body.offset;
    const keyLength = readVarint(body, "Header.key");
    if (keyLength < 0) throw body.error("Header.key", `invalid header key length ${String(keyLength)}`, keyStart);
    const keyBytes = body.readBytes(keyLength, "Header.key");
    let headerKey: string;
    try {
      headerKey = decodeStrictUtf8(keyBytes, "Header.key");
    } catch (cause) {
      throw body.error("Header.key", "header key is not well-formed UTF-8", keyStart, cause);
    }
    headers.push({ key: headerKey, value: readNullableBytes(body, "Header.value") });
  }
  body.expectEnd();
  return { attributes, timestampDelta, offsetDelta, key, value, headers };
}

function writeNullableBytes(writer: ByteWriter, value: Uint8Array | null, field: string): void {
  if (value === null) {
    writeVarint(writer, -1);
    return;
  }
  if (!(value instanceof Uint8Array)) throw invalidArgument(field, value, "not a Uint8Array");
  writeVarint(writer, value.length);
  writer.writeBytes(value);
}

/** Writes one record with its length prefix. `scratch` receives the body first (pass a fresh ByteWriter). */
export function writeRecord(writer: ByteWriter, record: KafkaRecord, scratch: ByteWriter): void {
  writeInt8(scratch, record.attributes);
  writeVarlong(scratch, record.timestampDelta);
  writeVarint(scratch, record.offsetDelta);
  writeNullableBytes(scratch, record.key, "Record.key");
  writeNullableBytes(scratch, record.value, "Record.value");
  writeVarint(scratch, record.headers.length);
  for (const header of record.headers) {
    const key = encodeStrictUtf8(header.key, "Header.key");
    writeVarint(scratch, key.length);
    scratch.writeBytes(key);
    writeNullableBytes(scratch, header.value, "Header.value");
  }
  const body = scratch.finish();
  writeVarint(writer, body.length);
  writer.writeBytes(body);
}
