// Length prefixes of Kafka arrays: ARRAY (int32, -1 = null) and COMPACT_ARRAY (unsigned varint length+1,
// 0 = null). A declared length larger than the bytes left is rejected up front (every element takes at least one
// byte), so a hostile count can neither allocate nor loop before the reader runs out.
import type { ByteReader, ByteWriter } from "@nereus/core";
import { invalidArgument } from "./invalid-argument.js";
import type { StringLayout } from "./kafka-string.js";
import { readUnsignedVarint, writeUnsignedVarint } from "./varint.js";

/** Layout of an array field in one version (same switches as strings). */
export type ArrayLayout = StringLayout;

/** Reads an array length; `null` for a null array (only when the layout allows it). */
export function readArrayLength(reader: ByteReader, field: string, layout: ArrayLayout): number | null {
  const start = reader.offset;
  const length = layout.compact ? readUnsignedVarint(reader, field) - 1 : reader.readI32(field);
  if (length === -1) {
    if (!layout.nullable) throw reader.error(field, "null in a non-nullable array field", start);
    return null;
  }
  if (length < -1) throw reader.error(field, `negative array length ${String(length)}`, start);
  if (length > reader.remaining) {
    throw reader.error(
      field,
      `array length ${String(length)} exceeds the ${String(reader.remaining)} byte(s) left`,
      start,
    );
  }
  return length;
}

/** Writes an array length, or the null marker when `length` is null and the layout allows it. */
export function writeArrayLength(
  writer: ByteWriter,
  length: number | null,
  layout: ArrayLayout,
  field = "array",
): void {
  if (length === null) {
    if (!layout.nullable) throw invalidArgument(field, length, "null in a non-nullable array field");
    if (layout.compact) writeUnsignedVarint(writer, 0);
    else writer.writeI32(-1);
    return;
  }
  if (layout.compact) writeUnsignedVarint(writer, length + 1);
  else writer.writeI32(length);
}
