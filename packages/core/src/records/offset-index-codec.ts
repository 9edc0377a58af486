// OffsetIndexEntry record codec (NRM1 recordType "OffsetIndexEntry", schema 1). Payload layout, big-endian:
//   streamId           string
//   offsetStart        u64
//   offsetEnd          u64 (> offsetStart)
//   generation         u64 (0 = the original append target)
//   commitId           string (non-empty for generation 0)
//   commitVersion      u64 (>= 1)
//   cumulativeSize     u64
//   readTarget         u32 length + ReadTarget bytes (read-target-codec.ts)
//   payloadFormat      u8 wire id
//   entryRecordCounts  u32 count + u32 each (sum = offsetEnd - offsetStart)
import type { OffsetIndexEntry } from "../domain/commit-records.js";
import { parseOffsetIndexKey, type OffsetIndexKeyLocation } from "../keys/stream-key-parsers.js";
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

/**
 * Codec of the OffsetIndexEntry record (generation 0 and higher generations of the COMMITTED view). Enforced: a
 * non-empty range exactly covered by entryRecordCounts (1 each for opaque formats), commitId set for generation
 * 0, commitVersion >= 1, a valid nested ReadTarget, safe integers. `decode` requires the key's stream id,
 * offsetEnd and generation to match.
 */
export const offsetIndexCodec: RecordCodec<OffsetIndexEntry> = defineRecordCodec<
  OffsetIndexEntry,
  OffsetIndexKeyLocation
>({
  recordType: "OffsetIndexEntry",
  schemaVersion: 1,
  parseKey: parseOffsetIndexKey,
  matchKey: matchIndexKey,

  validate(entry, checks) {
    checkIndexedRange(entry, checks);
    checks.natural("generation", entry.generation);
    checks.text("commitId", entry.commitId, entry.generation > 0);
    checks.natural("commitVersion", entry.commitVersion, 1);
    checks.natural("cumulativeSize", entry.cumulativeSize);
    checkIndexedTarget(entry, checks);
  },

  write(writer, entry) {
    writeIndexedRange(writer, entry);
    writer.writeString(entry.commitId).writeU64(entry.commitVersion).writeU64(entry.cumulativeSize);
    writeIndexedTarget(writer, entry);
  },

  read(reader, checks) {
    return {
      ...readIndexedRange(reader),
      commitId: reader.readString("commitId"),
      commitVersion: reader.readU64("commitVersion"),
      cumulativeSize: reader.readU64("cumulativeSize"),
      ...readIndexedTarget(reader, checks),
    };
  },
});
