// The tagged-field section that ends every struct in a flexible version (KIP-482):
// uvarint count, then per field uvarint tag, uvarint size, size bytes. Tags are written in ascending order;
// the reader accepts any order but rejects a repeated tag. Unknown tags are kept as raw views so a decoder can
// hand them back unchanged.
import type { ByteReader, ByteWriter } from "@nereus/core";
import { invalidArgument } from "./invalid-argument.js";
import { readUnsignedVarint, writeUnsignedVarint } from "./varint.js";

/** One tagged field as raw bytes (a view into the frame when decoded). */
export interface RawTaggedField {
  readonly tag: number;
  readonly data: Uint8Array;
}

/** Reads a tagged-field section and returns every field raw, in wire order. */
export function readTaggedFields(reader: ByteReader, field: string): RawTaggedField[] {
  const start = reader.offset;
  const count = readUnsignedVarint(reader, field);
  // Each tagged field takes at least two bytes (tag and size).
  if (count * 2 > reader.remaining) {
    throw reader.error(
      field,
      `tagged field count ${String(count)} exceeds the ${String(reader.remaining)} byte(s) left`,
      start,
    );
  }
  const fields: RawTaggedField[] = [];
  const seen = new Set<number>();
  for (let index = 0; index < count; index += 1) {
    const tagAt = reader.offset;
    const tag = readUnsignedVarint(reader, field);
    if (seen.has(tag)) throw reader.error(field, `tag ${String(tag)} appears twice`, tagAt);
    seen.add(tag);
    const size = readUnsignedVarint(reader, field);
    if (size > reader.remaining) {
      throw reader.error(
        field,
        `tagged field ${String(tag)} size ${String(size)} exceeds the ${String(reader.remaining)} byte(s) left`,
        tagAt,
      );
    }
    fields.push({ tag, data: reader.readBytes(size, field) });
  }
  return fields;
}

/** Writes a tagged-field section; `fields` must have distinct tags and is written in ascending tag order. */
export function writeTaggedFields(writer: ByteWriter, fields: readonly RawTaggedField[]): void {
  const sorted = fields.length > 1 ? [...fields].sort((left, right) => left.tag - right.tag) : fields;
  for (let index = 1; index < sorted.length; index += 1) {
    if (sorted[index]?.tag === sorted[index - 1]?.tag)
      throw invalidArgument("tagged field", sorted[index]?.tag, "a repeated tag");
  }
  writeUnsignedVarint(writer, sorted.length);
  for (const { tag, data } of sorted) {
    writeUnsignedVarint(writer, tag);
    writeUnsignedVarint(writer, data.length);
    writer.writeBytes(data);
  }
}
