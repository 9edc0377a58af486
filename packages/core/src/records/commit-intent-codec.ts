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
import { ByteReader } from "../bytes/byte-reader.js";
import { parseCommitIntentKey } from "../keys/stream-key-parsers.js";
import type { RecordCodec } from "./record-codec.js";
import { RecordChecks } from "./record-checks.js";
import { decodeRecordEnvelope, encodeRecord, type RecordEnvelopeHeader } from "./record-envelope.js";
import { RecordFields } from "./record-fields.js";
import { RecordWireIds } from "./record-wire-ids.js";

const RECORD_TYPE = "CommitIntent";
const SCHEMA_VERSION = 1;
const HEADER: RecordEnvelopeHeader = { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION };

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
  if (RecordWireIds.payloadFormat.idOf(intent.payloadFormat) === undefined) throw checks.fail(`unknown payloadFormat ${String(intent.payloadFormat)}`);
  checks.natural("recordCount", intent.recordCount, 1);
  checks.u32("entryCount", intent.entryCount, 1);
  checks.natural("logicalBytes", intent.logicalBytes);
  if (intent.offsetEnd - intent.offsetStart !== intent.recordCount) {
    throw checks.fail(`range [${String(intent.offsetStart)}, ${String(intent.offsetEnd)}) does not hold recordCount ${String(intent.recordCount)}`);
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
export const commitIntentCodec: RecordCodec<CommitIntent> = {
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,

  encode(intent: CommitIntent): Uint8Array {
    validateIntent(intent, new RecordChecks(RECORD_TYPE));
    return encodeRecord(HEADER, (writer) => {
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
    });
  },

  decode(bytes: Uint8Array, key: string): CommitIntent {
    const checks = new RecordChecks(RECORD_TYPE, key);
    try {
      const location = parseCommitIntentKey(key);
      const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
      const reader = new ByteReader(payload, "CommitIntent payload");
      const streamId = reader.readString("streamId");
      const commitId = reader.readString("commitId");
      const previousCommitId = reader.readString("previousCommitId");
      const offsetStart = reader.readU64("offsetStart");
      const offsetEnd = reader.readU64("offsetEnd");
      const cumulativeSize = reader.readU64("cumulativeSize");
      const commitVersion = reader.readU64("commitVersion");
      const writerId = reader.readString("writerId");
      const writerEpoch = reader.readU64("writerEpoch");
      const fencingTokenHash = reader.readString("fencingTokenHash");
      const readTarget = RecordFields.readReadTarget(reader);
      const formatId = reader.readU8("payloadFormat");
      const payloadFormat = RecordWireIds.payloadFormat.valueOf(formatId);
      if (payloadFormat === undefined) throw checks.fail(`unknown payloadFormat wire id ${String(formatId)}`);
      const recordCount = reader.readU64("recordCount");
      const entryCount = reader.readU32("entryCount");
      const logicalBytes = reader.readU64("logicalBytes");
      const entryRecordCounts = RecordFields.readEntryRecordCounts(reader);
      reader.expectEnd();
      const intent: CommitIntent = {
        streamId,
        commitId,
        previousCommitId,
        offsetStart,
        offsetEnd,
        cumulativeSize,
        commitVersion,
        writerId,
        writerEpoch,
        fencingTokenHash,
        readTarget,
        payloadFormat,
        recordCount,
        entryCount,
        logicalBytes,
        entryRecordCounts,
      };
      validateIntent(intent, checks);
      checks.require(intent.streamId === location.streamId, `streamId ${intent.streamId} does not match the key's stream ${location.streamId}`);
      checks.require(intent.commitId === location.commitId, `commitId ${intent.commitId} does not match the key's commit ${location.commitId}`);
      return intent;
    } catch (error) {
      return checks.wrap(error);
    }
  },
};

