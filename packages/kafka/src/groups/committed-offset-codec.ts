// KafkaCommittedOffset record codec (NRM1 recordType "KafkaCommittedOffset", schema 1): the offset a consumer
// group committed for one topic-partition. Payload layout, big-endian:
//   groupId              string (u32 length + UTF-8, non-empty)
//   topic                string (non-empty)
//   partition            u32 (<= 2^31-1)
//   committedOffset      i64 (any safe integer; Kafka stores what the client sends, -1 included)
//   committedLeaderEpoch i32 (-1 = none)
//   metadata             string (may be empty; a null metadata is stored as "", as Kafka does)
//   commitTimestampMs    u64 (coordinator clock at commit)
// Canonical: equal records encode to equal bytes. `decode` checks the record against the key it was read from.
import { ByteReader, ByteWriter } from "@nereus/core";
import { type RecordCodec, RecordChecks, decodeRecordEnvelope, encodeRecordEnvelope } from "@nereus/core/internal";
import { parseCommittedOffsetKey } from "./group-keys.js";

const RECORD_TYPE = "KafkaCommittedOffset";
const SCHEMA_VERSION = 1;
const INT32_MAX = 0x7fff_ffff;
const INT32_MIN = -0x8000_0000;

/** One committed offset as stored. */
export interface CommittedOffset {
  readonly groupId: string;
  readonly topic: string;
  readonly partition: number;
  readonly committedOffset: number;
  readonly committedLeaderEpoch: number;
  readonly metadata: string;
  readonly commitTimestampMs: number;
}

function validate(record: CommittedOffset, checks: RecordChecks): void {
  checks.text("groupId", record.groupId);
  checks.text("topic", record.topic);
  checks.require(
    Number.isInteger(record.partition) && record.partition >= 0 && record.partition <= INT32_MAX,
    `partition ${String(record.partition)} is outside [0, 2^31-1]`,
  );
  checks.require(
    Number.isSafeInteger(record.committedOffset),
    `committedOffset ${String(record.committedOffset)} is not a safe integer`,
  );
  checks.require(
    Number.isInteger(record.committedLeaderEpoch) &&
      record.committedLeaderEpoch >= INT32_MIN &&
      record.committedLeaderEpoch <= INT32_MAX,
    `committedLeaderEpoch ${String(record.committedLeaderEpoch)} is not an int32`,
  );
  checks.text("metadata", record.metadata, true);
  checks.natural("commitTimestampMs", record.commitTimestampMs);
}

/** Codec of {@link CommittedOffset}; `decode` requires group, topic and partition to match the key. */
export const committedOffsetCodec: RecordCodec<CommittedOffset> = {
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,

  encode(record: CommittedOffset): Uint8Array {
    validate(record, new RecordChecks(RECORD_TYPE));
    const payload = new ByteWriter(96 + record.groupId.length + record.topic.length + record.metadata.length * 3)
      .writeString(record.groupId)
      .writeString(record.topic)
      .writeU32(record.partition)
      .writeI64(record.committedOffset)
      .writeI32(record.committedLeaderEpoch)
      .writeString(record.metadata)
      .writeU64(record.commitTimestampMs)
      .finish();
    return encodeRecordEnvelope(
      { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
      payload,
    );
  },

  decode(bytes: Uint8Array, key: string): CommittedOffset {
    const checks = new RecordChecks(RECORD_TYPE, key);
    try {
      const location = parseCommittedOffsetKey(key);
      const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
      const reader = new ByteReader(payload, `${RECORD_TYPE} payload`);
      const record: CommittedOffset = {
        groupId: reader.readString("groupId"),
        topic: reader.readString("topic"),
        partition: reader.readU32("partition"),
        committedOffset: reader.readI64("committedOffset"),
        committedLeaderEpoch: reader.readI32("committedLeaderEpoch"),
        metadata: reader.readString("metadata"),
        commitTimestampMs: reader.readU64("commitTimestampMs"),
      };
      reader.expectEnd();
      validate(record, checks);
      checks.require(
        record.groupId === location.groupId,
        `groupId ${JSON.stringify(record.groupId)} does not match the key's group ${JSON.stringify(location.groupId)}`,
      );
      checks.require(
        record.topic === location.topic,
        `topic ${JSON.stringify(record.topic)} does not match the key's topic ${JSON.stringify(location.topic)}`,
      );
      checks.require(
        record.partition === location.partition,
        `partition ${String(record.partition)} does not match the key's partition ${String(location.partition)}`,
      );
      return record;
    } catch (error) {
      return checks.wrap(error);
    }
  },
};
