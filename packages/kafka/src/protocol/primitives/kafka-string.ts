// Kafka strings: STRING / NULLABLE_STRING (int16 byte length, -1 = null) and COMPACT_STRING /
// COMPACT_NULLABLE_STRING (unsigned varint length+1, 0 = null), UTF-8, at most 32767 bytes. Decoding is strict
// UTF-8 (malformed bytes are a DECODE_ERROR at the string's offset); null where the version does not allow it
// is a DECODE_ERROR too. Returned strings are copies; the input is never retained.
import { type ByteReader, type ByteWriter, decodeStrictUtf8, encodeStrictUtf8 } from "@nereus/core";
import { readInt16, writeInt16 } from "./fixed-width.js";
import { invalidArgument } from "./invalid-argument.js";
import { readUnsignedVarint, writeUnsignedVarint } from "./varint.js";

/** Longest string Kafka accepts on the wire, in UTF-8 bytes. */
const MAX_STRING_BYTES = 0x7fff;

/** How a string field is laid out in one version. */
export interface StringLayout {
  /** COMPACT_ (flexible versions) rather than int16-length strings. */
  readonly compact: boolean;
  /** Whether null is allowed in this version. */
  readonly nullable: boolean;
}

/** Reads a string in the given layout; `null` only when `layout.nullable`. */
export function readKafkaString(reader: ByteReader, field: string, layout: StringLayout): string | null {
  const start = reader.offset;
  let length: number;
  if (layout.compact) {
    const encoded = readUnsignedVarint(reader, field);
    length = encoded - 1;
  } else {
    length = readInt16(reader, field);
    if (length < -1) throw reader.error(field, `negative string length ${String(length)}`, start);
  }
  if (length === -1) {
    if (!layout.nullable) throw reader.error(field, "null in a non-nullable string field", start);
    return null;
  }
  if (length > MAX_STRING_BYTES)
    throw reader.error(field, `string length ${String(length)} exceeds ${String(MAX_STRING_BYTES)}`, start);
  const bytes = reader.readBytes(length, field);
  try {
    return decodeStrictUtf8(bytes, field);
  } catch (cause) {
    throw reader.error(field, "string is not well-formed UTF-8", start, cause);
  }
}

/** Writes a string (or null, when the layout is nullable) in the given layout. */
export function writeKafkaString(
  writer: ByteWriter,
  value: string | null,
  layout: StringLayout,
  field = "string",
): void {
  if (value === null) {
    if (!layout.nullable) throw invalidArgument(field, value, "null in a non-nullable string field");
    if (layout.compact) writeUnsignedVarint(writer, 0);
    else writeInt16(writer, -1);
    return;
  }
  if (typeof value !== "string") throw invalidArgument(field, value, "not a string");
  const bytes = encodeStrictUtf8(value, field);
  if (bytes.length > MAX_STRING_BYTES)
    throw invalidArgument(field, value, `longer than ${String(MAX_STRING_BYTES)} UTF-8 bytes`);
  if (layout.compact) writeUnsignedVarint(writer, bytes.length + 1);
  else writeInt16(writer, bytes.length);
  writer.writeBytes(bytes);
}
