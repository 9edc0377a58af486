// The scalar field types of Kafka message specs (int8..int64, uint16/uint32, float64, bool, uuid, string, bytes,
// records) as WireTypes. int64 is a safe-integer number (offsets, timestamps: out-of-range values are a
// DECODE_ERROR, never rounded); int64BigInt is for identifiers that may exceed 2^53 (producer ids). string/bytes/
// records switch to their COMPACT_ forms in flexible versions. Decoded bytes/records are views into the frame.
import type { ByteReader, ByteWriter } from "@nereus/core";
import {
  readInt16,
  readInt64BigInt,
  readInt8,
  writeInt16,
  writeInt64BigInt,
  writeInt8,
} from "../primitives/fixed-width.js";
import { invalidArgument } from "../primitives/invalid-argument.js";
import { readKafkaBytes, writeKafkaBytes } from "../primitives/kafka-bytes.js";
import type { RecordParts } from "../primitives/record-parts.js";
import { readKafkaString, writeKafkaString } from "../primitives/kafka-string.js";
import { ZERO_UUID, readUuid, writeUuid } from "../primitives/uuid.js";
import type { CodecContext, NullableWireType, WireType } from "./wire-type.js";

function scalar<T>(
  typeName: string,
  read: (reader: ByteReader, field: string) => T,
  write: (writer: ByteWriter, value: T, field: string) => void,
  defaultValue: T,
): WireType<T> {
  return {
    typeName,
    supportsNull: false,
    read: (reader, field) => read(reader, field),
    write: (writer, value, field) => {
      if (value === null) throw invalidArgument(field, value, `null for ${typeName}`);
      write(writer, value, field);
    },
    defaultValue: () => defaultValue,
  };
}

/** INT8 as a number. */
export const int8: WireType<number> = scalar("int8", readInt8, writeInt8, 0);
/** INT16 as a number. */
export const int16: WireType<number> = scalar("int16", readInt16, writeInt16, 0);
/** UINT16 as a number. */
export const uint16: WireType<number> = scalar(
  "uint16",
  (reader, field) => reader.readU16(field),
  (writer, value) => writer.writeU16(value),
  0,
);
/** INT32 as a number. */
export const int32: WireType<number> = scalar(
  "int32",
  (reader, field) => reader.readI32(field),
  (writer, value) => writer.writeI32(value),
  0,
);
/** UINT32 as a number. */
export const uint32: WireType<number> = scalar(
  "uint32",
  (reader, field) => reader.readU32(field),
  (writer, value) => writer.writeU32(value),
  0,
);
/** INT64 as a safe-integer number; values beyond ±(2^53-1) are a DECODE_ERROR. */
export const int64: WireType<number> = scalar(
  "int64",
  (reader, field) => reader.readI64(field),
  (writer, value) => writer.writeI64(value),
  0,
);
/** INT64 as a bigint, for identifiers that may exceed 2^53 (producer ids). */
export const int64BigInt: WireType<bigint> = scalar("int64", readInt64BigInt, writeInt64BigInt, 0n);
/** FLOAT64 (IEEE 754 big-endian). */
export const float64: WireType<number> = scalar(
  "float64",
  (reader, field) => {
    const bytes = reader.readBytes(8, field);
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getFloat64(0);
  },
  (writer, value, field) => {
    if (typeof value !== "number") throw invalidArgument(field, value, "not a number");
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value);
    writer.writeBytes(bytes);
  },
  0,
);
/** BOOLEAN: one byte, 0 or 1 (anything else is a DECODE_ERROR). */
export const bool: WireType<boolean> = scalar(
  "bool",
  (reader, field) => reader.readBoolean(field),
  (writer, value, field) => {
    if (typeof value !== "boolean") throw invalidArgument(field, value, "not a boolean");
    writer.writeBoolean(value);
  },
  false,
);
/** UUID: 16 bytes; a lowercase hyphenated string in objects. */
export const uuid: WireType<string> = scalar("uuid", readUuid, writeUuid, ZERO_UUID);

function layout(context: CodecContext, nullable: boolean): { compact: boolean; nullable: boolean } {
  return { compact: context.flexible, nullable };
}

/** STRING / NULLABLE_STRING, COMPACT_ in flexible versions. */
export const string: NullableWireType<string> = {
  typeName: "string",
  supportsNull: true,
  read: (reader, field, context, nullable) => readKafkaString(reader, field, layout(context, nullable)),
  write: (writer, value, field, context, nullable) => writeKafkaString(writer, value, layout(context, nullable), field),
  defaultValue: () => "",
};

function byteType(typeName: string): NullableWireType<Uint8Array> {
  return {
    typeName,
    supportsNull: true,
    read: (reader, field, context, nullable) => readKafkaBytes(reader, field, layout(context, nullable)),
    write: (writer, value, field, context, nullable) =>
      writeKafkaBytes(writer, value, layout(context, nullable), field),
    defaultValue: () => new Uint8Array(0),
  };
}

/** BYTES / NULLABLE_BYTES, COMPACT_ in flexible versions. Decoded values are views. */
export const bytes: NullableWireType<Uint8Array> = byteType("bytes");
/** RECORDS: a length-prefixed blob of record batches (same framing as bytes). Decoded values are views. */
export const records: NullableWireType<Uint8Array> = byteType("records");
/**
 * RECORDS of a response that may be written from parts (the Fetch response): the same wire form as `records`; the
 * encoder also takes a {@link RecordParts} (written part by part, never joined); the decoder returns one view.
 */
export const recordParts: NullableWireType<Uint8Array | RecordParts> = {
  typeName: "records",
  supportsNull: true,
  read: (reader, field, context, nullable) => readKafkaBytes(reader, field, layout(context, nullable)),
  write: (writer, value, field, context, nullable) => writeKafkaBytes(writer, value, layout(context, nullable), field),
  defaultValue: () => new Uint8Array(0),
};
