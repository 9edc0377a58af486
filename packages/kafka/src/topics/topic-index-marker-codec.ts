// KafkaTopicIndex record codec (NRM1 recordType "KafkaTopicIndex", schema 1): the value of P/kafka/topic-index,
// written once every topic record of the cluster has its claim and id keys (topic-index.ts). Payload, big-endian:
//   completedAtMillis  u64  when the index was completed
// Its presence is what matters; the time is for operators.
import { ByteReader, ByteWriter } from "@nereus/core";
import { RecordChecks, type RecordCodec, decodeRecordEnvelope, encodeRecordEnvelope } from "@nereus/core/internal";
import type { KafkaKeyspace } from "./kafka-keys.js";

const RECORD_TYPE = "KafkaTopicIndex";
const SCHEMA_VERSION = 1;

/** The topic index marker. */
export interface TopicIndexMarker {
  readonly completedAtMillis: number;
}

/** The codec of the topic index marker, bound to a keyspace (`decode` requires the marker's key). */
export function topicIndexMarkerCodec(keyspace: KafkaKeyspace): RecordCodec<TopicIndexMarker> {
  return {
    recordType: RECORD_TYPE,
    schemaVersion: SCHEMA_VERSION,

    encode(marker: TopicIndexMarker): Uint8Array {
      new RecordChecks(RECORD_TYPE).natural("completedAtMillis", marker.completedAtMillis);
      const payload = new ByteWriter(8).writeU64(marker.completedAtMillis).finish();
      return encodeRecordEnvelope(
        { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
        payload,
      );
    },

    decode(bytes: Uint8Array, key: string): TopicIndexMarker {
      const checks = new RecordChecks(RECORD_TYPE, key);
      try {
        checks.require(key === keyspace.topicIndexKey(), "not the topic index key");
        const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
        const reader = new ByteReader(payload, "KafkaTopicIndex payload");
        const completedAtMillis = reader.readU64("completedAtMillis");
        reader.expectEnd();
        checks.natural("completedAtMillis", completedAtMillis);
        return { completedAtMillis };
      } catch (error) {
        return checks.wrap(error);
      }
    },
  };
}
