// GenerationIndexEntry record codec (NRM1 recordType "GenerationIndexEntry", schema 1). Payload layout, big-endian:
//   streamId           string
//   offsetStart        u64
//   offsetEnd          u64 (> offsetStart)
//   generation         u64 (>= 1)
//   level              u32 (>= 1)
//   state              u8 wire id (PREPARED 1, COMMITTED 2, QUARANTINED 3, ABORTED 4)
//   publicationId      string (non-empty)
//   commitVersion      u64 (>= 1)
//   cumulativeSize     u64 (>= logicalBytes)
//   logicalBytes       u64
//   readTarget         u32 length + ReadTarget bytes (read-target-codec.ts)
//   payloadFormat      u8 wire id
//   entryRecordCounts  u32 count + u32 each (sum = offsetEnd - offsetStart)
import type { GenerationIndexEntry } from "../domain/generation-records.js";
import { parseGenerationIndexKey } from "../keys/generation-keys.js";
import type { OffsetIndexKeyLocation } from "../keys/stream-key-parsers.js";
import { defineRecordCodec } from "./define-record-codec.js";
import {
  checkIndexedRange,
  checkIndexedTarget,
  matchIndexKey,
  readIndexedRange,
  readIndexedTarget,
  writeIndexedRange,
  writeIndexedTarget,
} from "./index-entry-fields.js";
import type { RecordCodec } from "./record-codec.js";
import { RecordWireIds } from "./record-wire-ids.js";

/**
 * Codec of the GenerationIndexEntry record (generations >= 1 of the COMMITTED view). Enforced: a non-empty range
 * exactly covered by entryRecordCounts, generation and level >= 1, a known state, a publication id, a valid nested
 * ReadTarget, safe integers. `decode` requires the key's stream id, offsetEnd and generation to match.
 */
export const generationIndexCodec: RecordCodec<GenerationIndexEntry> = defineRecordCodec<
  GenerationIndexEntry,
  OffsetIndexKeyLocation
>({
  recordType: "GenerationIndexEntry",
  schemaVersion: 1,
  parseKey: parseGenerationIndexKey,
  matchKey: matchIndexKey,

  validate(entry, checks) {
    checkIndexedRange(entry, checks);
    checks.natural("generation", entry.generation, 1);
    checks.u32("level", entry.level, 1);
    checks.require(
      RecordWireIds.generationState.idOf(entry.state) !== undefined,
      `unknown state ${String(entry.state)}`,
    );
    checks.text("publicationId", entry.publicationId);
    checks.natural("commitVersion", entry.commitVersion, 1);
    checks.natural("cumulativeSize", entry.cumulativeSize);
    checks.natural("logicalBytes", entry.logicalBytes);
    checks.require(entry.logicalBytes <= entry.cumulativeSize, "logicalBytes exceed cumulativeSize");
    checkIndexedTarget(entry, checks);
  },

  write(writer, entry) {
    writeIndexedRange(writer, entry);
    writer
      .writeU32(entry.level)
      .writeU8(RecordWireIds.generationState.idOf(entry.state) ?? 0)
      .writeString(entry.publicationId)
      .writeU64(entry.commitVersion)
      .writeU64(entry.cumulativeSize)
      .writeU64(entry.logicalBytes);
    writeIndexedTarget(writer, entry);
  },

  read(reader, checks) {
    return {
      ...readIndexedRange(reader),
      level: reader.readU32("level"),
      state: checks.wireValue("state", RecordWireIds.generationState, reader.readU8("state")),
      publicationId: reader.readString("publicationId"),
      commitVersion: reader.readU64("commitVersion"),
      cumulativeSize: reader.readU64("cumulativeSize"),
      logicalBytes: reader.readU64("logicalBytes"),
      ...readIndexedTarget(reader, checks),
    };
  },
});
