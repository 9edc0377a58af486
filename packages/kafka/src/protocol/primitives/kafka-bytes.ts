// Kafka byte fields: BYTES / NULLABLE_BYTES / RECORDS (int32 length, -1 = null) and their COMPACT_ forms
// (unsigned varint length+1, 0 = null). Decoded values are views into the frame: copy before retaining.
import type { ByteReader, ByteWriter } from "@nereus/core";
import { invalidArgument } from "./invalid-argument.js";
import type { StringLayout } from "./kafka-string.js";
import { RecordParts } from "./record-parts.js";
import { readUnsignedVarint, writeUnsignedVarint } from "./varint.js";

/** Layout of a byte field in one version (same switches as strings). */
export type BytesLayout = StringLayout;

/** Reads a byte field; returns a view into the reader's input, or `null` when allowed. */
export function readKafkaBytes(reader: ByteReader, field: string, layout: BytesLayout): Uint8Array | null {
  const start = reader.offset;
  const length = layout.compact ? readUnsignedVarint(reader, field) - 1 : reader.readI32(field);
  if (length === -1) {
    if (!layout.nullable) throw reader.error(field, "null in a non-nullable bytes field", start);
    return null;
  }
  if (length < -1) throw reader.error(field, `negative bytes length ${String(length)}`, start);
  if (length > reader.remaining) {
    throw reader.error(
      field,
      `bytes length ${String(length)} exceeds the ${String(reader.remaining)} byte(s) left`,
      start,
    );
  }
  return reader.readBytes(length, field);
}

/**
 * Writes a byte field (handed to the writer's `writeBytes`, which copies it or, in a SharingByteWriter, may keep it
 * by reference), or null when the layout allows it. A {@link RecordParts} value is written as its parts back to back
 * under one length prefix (the same bytes as its join).
 */
export function writeKafkaBytes(
  writer: ByteWriter,
  value: Uint8Array | RecordParts | null,
  layout: BytesLayout,
  field = "bytes",
): void {
  if (value === null) {
    if (!layout.nullable) throw invalidArgument(field, value, "null in a non-nullable bytes field");
    if (layout.compact) writeUnsignedVarint(writer, 0);
    else writer.writeI32(-1);
    return;
  }
  if (!(value instanceof Uint8Array) && !(value instanceof RecordParts))
    throw invalidArgument(field, value, "not a Uint8Array");
  if (layout.compact) writeUnsignedVarint(writer, value.length + 1);
  else writer.writeI32(value.length);
  if (value instanceof Uint8Array) writer.writeBytes(value);
  else for (const part of value.parts) writer.writeBytes(part);
}
