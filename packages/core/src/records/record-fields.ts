// Field encoders shared by several record payloads: nested read targets and per-entry record counts.
import type { ReadTarget } from "../domain/read-target.js";
import type { ByteReader } from "../bytes/byte-reader.js";
import type { ByteWriter } from "../bytes/byte-writer.js";
import { readTargetCodec, writeLengthPrefixedReadTarget } from "./read-target-codec.js";

/** Reads and writes the composite fields every commit-derived record carries. */
export const RecordFields = {
  /** readTarget: u32 length + canonical ReadTarget bytes (written in place, validated like `readTargetCodec.encode`). */
  writeReadTarget(writer: ByteWriter, target: ReadTarget): void {
    writeLengthPrefixedReadTarget(writer, target);
  },

  readReadTarget(reader: ByteReader): ReadTarget {
    return readTargetCodec.decode(reader.readLengthPrefixedBytes("readTarget"));
  },

  /** entryRecordCounts: u32 count + u32 per entry. */
  writeEntryRecordCounts(writer: ByteWriter, counts: readonly number[]): void {
    writer.writeU32(counts.length);
    for (const count of counts) writer.writeU32(count);
  },

  readEntryRecordCounts(reader: ByteReader): number[] {
    const start = reader.offset;
    const length = reader.readU32("entryRecordCounts.length");
    if (length > reader.remaining / 4) {
      throw reader.error(
        "entryRecordCounts",
        `${String(length)} counts cannot fit in ${String(reader.remaining)} byte(s)`,
        start,
      );
    }
    const counts: number[] = [];
    for (let index = 0; index < length; index += 1) counts.push(reader.readU32(`entryRecordCounts[${String(index)}]`));
    return counts;
  },
} as const;
