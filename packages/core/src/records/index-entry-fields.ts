// What every index entry shares, offset index (generation 0 and up) and generation index alike: the leading fields
// (a non-empty offset range of one stream and the entry's generation, which its key names) and the trailing ones
// (where the range's bytes are, their format and per-entry record counts). Payload layout of each part, big-endian:
//   leading:  streamId string, offsetStart u64, offsetEnd u64 (> offsetStart), generation u64
//   trailing: readTarget (u32 length + ReadTarget bytes), payloadFormat u8 wire id, entryRecordCounts (u32 count +
//             u32 each, summing to offsetEnd - offsetStart)
// What lies between is each codec's own (offset-index-codec.ts, generation-index-codec.ts).
import type { ByteReader } from "../bytes/byte-reader.js";
import type { ByteWriter } from "../bytes/byte-writer.js";
import type { PayloadFormat } from "../domain/append-types.js";
import type { ReadTarget } from "../domain/read-target.js";
import type { OffsetIndexKeyLocation } from "../keys/stream-key-parsers.js";
import type { RecordChecks } from "./record-checks.js";
import { RecordFields } from "./record-fields.js";
import { RecordWireIds } from "./record-wire-ids.js";

/** The leading fields: by them an index entry is keyed and ordered. */
export interface IndexedRange {
  readonly streamId: string;
  readonly offsetStart: number;
  readonly offsetEnd: number;
  readonly generation: number;
}

/** The trailing fields: where the range's bytes are and how they divide into entries. */
export interface IndexedTarget {
  readonly readTarget: ReadTarget;
  readonly payloadFormat: PayloadFormat;
  readonly entryRecordCounts: readonly number[];
}

/** A stream id and a non-empty range `[offsetStart, offsetEnd)` of safe integers (the generation is the codec's). */
export function checkIndexedRange(entry: IndexedRange, checks: RecordChecks): void {
  checks.text("streamId", entry.streamId);
  checks.natural("offsetStart", entry.offsetStart);
  checks.natural("offsetEnd", entry.offsetEnd, 1);
  checks.require(
    entry.offsetStart < entry.offsetEnd,
    `empty range [${String(entry.offsetStart)}, ${String(entry.offsetEnd)})`,
  );
}

/** A known payload format whose entries' record counts cover the range exactly. */
export function checkIndexedTarget(entry: IndexedRange & IndexedTarget, checks: RecordChecks): void {
  checks.require(
    RecordWireIds.payloadFormat.idOf(entry.payloadFormat) !== undefined,
    `unknown payloadFormat ${String(entry.payloadFormat)}`,
  );
  checks.entryRecordCounts(entry.entryRecordCounts, entry.payloadFormat, entry.offsetEnd - entry.offsetStart);
}

/** The entry's stream, end and generation are the ones its key names. */
export function matchIndexKey(entry: IndexedRange, location: OffsetIndexKeyLocation, checks: RecordChecks): void {
  checks.sameStream(entry.streamId, location.streamId);
  checks.require(
    entry.offsetEnd === location.offsetEnd && entry.generation === location.generation,
    `(offsetEnd ${String(entry.offsetEnd)}, generation ${String(entry.generation)}) does not match the key's ` +
      `(${String(location.offsetEnd)}, ${String(location.generation)})`,
  );
}

export function writeIndexedRange(writer: ByteWriter, entry: IndexedRange): void {
  writer.writeString(entry.streamId).writeU64(entry.offsetStart).writeU64(entry.offsetEnd).writeU64(entry.generation);
}

export function readIndexedRange(reader: ByteReader): IndexedRange {
  return {
    streamId: reader.readString("streamId"),
    offsetStart: reader.readU64("offsetStart"),
    offsetEnd: reader.readU64("offsetEnd"),
    generation: reader.readU64("generation"),
  };
}

export function writeIndexedTarget(writer: ByteWriter, entry: IndexedTarget): void {
  RecordFields.writeReadTarget(writer, entry.readTarget);
  writer.writeU8(RecordWireIds.payloadFormat.idOf(entry.payloadFormat) ?? 0);
  RecordFields.writeEntryRecordCounts(writer, entry.entryRecordCounts);
}

export function readIndexedTarget(reader: ByteReader, checks: RecordChecks): IndexedTarget {
  return {
    readTarget: RecordFields.readReadTarget(reader),
    payloadFormat: checks.wireValue("payloadFormat", RecordWireIds.payloadFormat, reader.readU8("payloadFormat")),
    entryRecordCounts: RecordFields.readEntryRecordCounts(reader),
  };
}
