// CommitIntent record codec (NRM1 recordType "CommitIntent", schema 1). Payload layout, big-endian:
//   streamId           string
//   commitId           string
//   previousCommitId   string ("" for the first commit)
//   offsetStart        u64
//   offsetEnd          u64
//   cumulativeSize     u64
//   commitVersion      u64
//   writerId           string
//   writerEpoch        u64
//   fencingTokenHash   string (64 lowercase hex)
//   readTarget         u32 length + ReadTarget bytes (read-target-codec.ts)
//   payloadFormat      u8 wire id (OPAQUE_RECORD_BATCH 1, KAFKA_RECORD_BATCH 2, PULSAR_ENTRY_BATCH 3)
//   recordCount        u64
//   entryCount         u32
//   logicalBytes       u64
//   entryRecordCounts  u32 count + u32 each
import type { CommitIntent } from "../domain/commit-records.js";
import { parseCommitIntentKey, type CommitKeyLocation } from "../keys/stream-key-parsers.js";
import { defineRecordCodec } from "./define-record-codec.js";
import { matchCommitKey } from "./match-commit-key.js";
import type { RecordCodec } from "./record-codec.js";
import type { RecordChecks } from "./record-checks.js";
import { RecordFields } from "./record-fields.js";
import { RecordWireIds } from "./record-wire-ids.js";

function validateIntent(intent: CommitIntent, checks: RecordChecks): void {
  checks.text("streamId", intent.streamId);
  checks.text("commitId", intent.commitId);
  checks.text("previousCommitId", intent.previousCommitId, true);
  checks.require(intent.previousCommitId !== intent.commitId, "previousCommitId equals commitId");
  checks.natural("offsetStart", intent.offsetStart);
  checks.natural("offsetEnd", intent.offsetEnd);
  checks.natural("cumulativeSize", intent.cumulativeSize);
  checks.natural("commitVersion", intent.commitVersion, 1);
  checks.text("writerId", intent.writerId);
  checks.natural("writerEpoch", intent.writerEpoch);
  checks.sha256Hex("fencingTokenHash", intent.fencingTokenHash);
  if (RecordWireIds.payloadFormat.idOf(intent.payloadFormat) === undefined)
    throw checks.fail(`unknown payloadFormat ${String(intent.payloadFormat)}`);
  checks.natural("recordCount", intent.recordCount, 1);
  checks.u32("entryCount", intent.entryCount, 1);
  checks.natural("logicalBytes", intent.logicalBytes);
  if (intent.offsetEnd - intent.offsetStart !== intent.recordCount) {
    throw checks.fail(
      `range [${String(intent.offsetStart)}, ${String(intent.offsetEnd)}) does not hold recordCount ${String(intent.recordCount)}`,
    );
  }
  if (!Array.isArray(intent.entryRecordCounts) || intent.entryRecordCounts.length !== intent.entryCount) {
    throw checks.fail(`entryRecordCounts must have entryCount (${String(intent.entryCount)}) items`);
  }
  checks.entryRecordCounts(intent.entryRecordCounts, intent.payloadFormat, intent.recordCount);
  checks.require(intent.cumulativeSize >= intent.logicalBytes, "cumulativeSize is smaller than logicalBytes");
  const first = intent.previousCommitId === "";
  checks.require(first === (intent.commitVersion === 1), "previousCommitId must be empty exactly for commitVersion 1");
  checks.require(
    !first || (intent.offsetStart === 0 && intent.cumulativeSize === intent.logicalBytes),
    "the first commit must start at offset 0 with cumulativeSize = logicalBytes",
  );
}

/**
 * Codec of the immutable CommitIntent record. Enforced: [offsetStart, offsetEnd) holds exactly recordCount
 * offsets; entryRecordCounts has entryCount items summing to recordCount (1 each for opaque formats);
 * previousCommitId === "" iff commitVersion === 1 (then offsetStart = 0 and cumulativeSize = logicalBytes);
 * a valid nested ReadTarget; safe integers. `decode` requires the key's stream id and commit id to match.
 */
export const commitIntentCodec: RecordCodec<CommitIntent> = defineRecordCodec<CommitIntent, CommitKeyLocation>({
  recordType: "CommitIntent",
  schemaVersion: 1,
  validate: validateIntent,
  parseKey: parseCommitIntentKey,

  matchKey: matchCommitKey,

  write(writer, intent) {
    writer
      .writeString(intent.streamId)
      .writeString(intent.commitId)
      .writeString(intent.previousCommitId)
      .writeU64(intent.offsetStart)
      .writeU64(intent.offsetEnd)
      .writeU64(intent.cumulativeSize)
      .writeU64(intent.commitVersion)
      .writeString(intent.writerId)
      .writeU64(intent.writerEpoch)
      .writeString(intent.fencingTokenHash);
    RecordFields.writeReadTarget(writer, intent.readTarget);
    writer
      .writeU8(RecordWireIds.payloadFormat.idOf(intent.payloadFormat) ?? 0)
      .writeU64(intent.recordCount)
      .writeU32(intent.entryCount)
      .writeU64(intent.logicalBytes);
    RecordFields.writeEntryRecordCounts(writer, intent.entryRecordCounts);
  },

  read(reader, checks): CommitIntent {
    return {
      streamId: reader.readString("streamId"),
      commitId: reader.readString("commitId"),
      previousCommitId: reader.readString("previousCommitId"),
      offsetStart: reader.readU64("offsetStart"),
      offsetEnd: reader.readU64("offsetEnd"),
      cumulativeSize: reader.readU64("cumulativeSize"),
      commitVersion: reader.readU64("commitVersion"),
      writerId: reader.readString("writerId"),
      writerEpoch: reader.readU64("writerEpoch"),
      fencingTokenHash: reader.readString("fencingTokenHash"),
      readTarget: RecordFields.readReadTarget(reader),
      payloadFormat: checks.wireValue("payloadFormat", RecordWireIds.payloadFormat, reader.readU8("payloadFormat")),
      recordCount: reader.readU64("recordCount"),
      entryCount: reader.readU32("entryCount"),
      logicalBytes: reader.readU64("logicalBytes"),
      entryRecordCounts: RecordFields.readEntryRecordCounts(reader),
    };
  },
});
