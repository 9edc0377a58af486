// KafkaTopicRef record codec (NRM1 recordType "KafkaTopicRef", schema 1): the value of the topic index keys, which
// name the topic holding them. P/kafka/topic-claims/{collisionForm} holds the topic that claimed a name's '.'→'_'
// form; P/kafka/topic-ids/{topicId} the topic with that id. Payload layout, big-endian:
//   name      string (u32 length + UTF-8)
//   topicId   16 bytes (the UUID's raw bytes; never all zero)
// `decode` checks the reference against its key: a claim key must be the claim key of `name`, an id key the id key
// of `topicId`. Canonical: equal references encode to equal bytes (topic deletion compares claim values by bytes).
import { ByteReader, ByteWriter } from "@nereus/core";
import { RecordChecks, type RecordCodec, decodeRecordEnvelope, encodeRecordEnvelope } from "@nereus/core/internal";
import type { KafkaKeyspace } from "./kafka-keys.js";
import { UUID_PATTERN, ZERO_TOPIC_ID, topicIdBytes, topicIdText } from "./topic-id-bytes.js";
import { topicNameProblem } from "./topic-name.js";

const RECORD_TYPE = "KafkaTopicRef";
const SCHEMA_VERSION = 1;

/** Which topic holds a topic index key. */
export interface TopicReference {
  readonly name: string;
  readonly topicId: string;
}

function validate(reference: TopicReference, checks: RecordChecks): void {
  checks.text("name", reference.name);
  checks.require(
    topicNameProblem(reference.name) === undefined,
    `name ${JSON.stringify(reference.name)} is not a legal topic name`,
  );
  checks.require(
    typeof reference.topicId === "string" && UUID_PATTERN.test(reference.topicId),
    "topicId must be a lowercase UUID",
  );
  checks.require(reference.topicId !== ZERO_TOPIC_ID, "topicId must not be the zero UUID");
}

/** The codec of topic index values, bound to a keyspace (for the key check of `decode`). */
export function topicReferenceCodec(keyspace: KafkaKeyspace): RecordCodec<TopicReference> {
  return {
    recordType: RECORD_TYPE,
    schemaVersion: SCHEMA_VERSION,

    encode(reference: TopicReference): Uint8Array {
      validate(reference, new RecordChecks(RECORD_TYPE));
      const payload = new ByteWriter(64)
        .writeString(reference.name)
        .writeBytes(topicIdBytes(reference.topicId))
        .finish();
      return encodeRecordEnvelope(
        { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
        payload,
      );
    },

    decode(bytes: Uint8Array, key: string): TopicReference {
      const checks = new RecordChecks(RECORD_TYPE, key);
      try {
        const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
        const reader = new ByteReader(payload, "KafkaTopicRef payload");
        const name = reader.readString("name");
        const topicId = topicIdText(reader.readBytes(16, "topicId"));
        reader.expectEnd();
        const reference: TopicReference = { name, topicId };
        validate(reference, checks);
        checks.require(
          key === keyspace.topicClaimKey(name) || key === keyspace.topicIdKey(topicId),
          `topic ${JSON.stringify(name)} (id ${topicId}) does not hold this key`,
        );
        return reference;
      } catch (error) {
        return checks.wrap(error);
      }
    },
  };
}
