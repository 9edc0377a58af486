// KafkaTopic record codec (NRM1 recordType "KafkaTopic", schema 1). Payload layout, big-endian:
//   name             string (u32 length + UTF-8)
//   topicId          16 bytes (the UUID's raw bytes; never all zero)
//   state            u8   1 CREATING, 2 ACTIVE, 3 DELETING
//   partitionCount   u32  (>= 1)
//   profile          u8   core's StorageProfile wire id (canonical profiles only)
//   configCount      u32
//     name           string   strictly ascending by UTF-8 bytes
//     value          string
//   createdAtMillis  u64
// Canonical: equal topics encode to equal bytes (configs are sorted on encode, required sorted on decode).
import { ByteReader, ByteWriter, encodeStrictUtf8 } from "@nereus/core";
import {
  RecordChecks,
  type RecordCodec,
  RecordWireIds,
  WireEnum,
  compareBytes,
  decodeRecordEnvelope,
  encodeRecordEnvelope,
} from "@nereus/core/internal";
import type { KafkaKeyspace } from "./kafka-keys.js";
import type { KafkaTopic, KafkaTopicState } from "./kafka-topic.js";
import { UUID_PATTERN, ZERO_TOPIC_ID, topicIdBytes, topicIdText } from "./topic-id-bytes.js";

const RECORD_TYPE = "KafkaTopic";
const SCHEMA_VERSION = 1;
const MAX_PARTITIONS = 0x7fff_ffff;

/** Durable wire ids of the topic states. */
const KAFKA_TOPIC_STATE_IDS = new WireEnum<KafkaTopicState>("KafkaTopicState", [
  ["CREATING", 1],
  ["ACTIVE", 2],
  ["DELETING", 3],
]);

function sortedConfigs(configs: Readonly<Record<string, string>>): Array<[string, string]> {
  return Object.entries(configs).sort(([left], [right]) =>
    compareBytes(encodeStrictUtf8(left), encodeStrictUtf8(right)),
  );
}

function validate(topic: KafkaTopic, checks: RecordChecks): void {
  checks.text("name", topic.name);
  checks.require(
    typeof topic.topicId === "string" && UUID_PATTERN.test(topic.topicId),
    "topicId must be a lowercase UUID",
  );
  checks.require(topic.topicId !== ZERO_TOPIC_ID, "topicId must not be the zero UUID");
  checks.require(KAFKA_TOPIC_STATE_IDS.idOf(topic.state) !== undefined, `unknown state ${String(topic.state)}`);
  checks.natural("partitionCount", topic.partitionCount, 1);
  checks.require(
    topic.partitionCount <= MAX_PARTITIONS,
    `partitionCount ${String(topic.partitionCount)} exceeds 2^31-1`,
  );
  checks.require(
    RecordWireIds.storageProfile.idOf(topic.profile) !== undefined,
    `profile ${String(topic.profile)} is not canonical`,
  );
  checks.require(typeof topic.configs === "object" && topic.configs !== null, "configs must be an object");
  for (const [name, value] of Object.entries(topic.configs)) {
    checks.text("config name", name);
    checks.require(name !== "__proto__", "config name __proto__ is reserved");
    checks.text(`config ${name}`, value, true);
  }
  checks.natural("createdAtMillis", topic.createdAtMillis);
}

/**
 * The codec of KafkaTopic records, bound to a keyspace: `decode` requires the record's name to be the one its key
 * names.
 */
export function topicRecordCodec(keyspace: KafkaKeyspace): RecordCodec<KafkaTopic> {
  return {
    recordType: RECORD_TYPE,
    schemaVersion: SCHEMA_VERSION,

    encode(topic: KafkaTopic): Uint8Array {
      validate(topic, new RecordChecks(RECORD_TYPE));
      const configs = sortedConfigs(topic.configs);
      const writer = new ByteWriter(128)
        .writeString(topic.name)
        .writeBytes(topicIdBytes(topic.topicId))
        .writeU8(KAFKA_TOPIC_STATE_IDS.idOf(topic.state) ?? 0)
        .writeU32(topic.partitionCount)
        .writeU8(RecordWireIds.storageProfile.idOf(topic.profile) ?? 0)
        .writeU32(configs.length);
      for (const [name, value] of configs) writer.writeString(name).writeString(value);
      writer.writeU64(topic.createdAtMillis);
      return encodeRecordEnvelope(
        { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
        writer.finish(),
      );
    },

    decode(bytes: Uint8Array, key: string): KafkaTopic {
      const checks = new RecordChecks(RECORD_TYPE, key);
      try {
        const keyName = keyspace.parseTopicKey(key);
        const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
        const reader = new ByteReader(payload, "KafkaTopic payload");
        const name = reader.readString("name");
        const topicId = topicIdText(reader.readBytes(16, "topicId"));
        const stateId = reader.readU8("state");
        const state = KAFKA_TOPIC_STATE_IDS.valueOf(stateId);
        if (state === undefined) throw checks.fail(`unknown state id ${String(stateId)}`);
        const partitionCount = reader.readU32("partitionCount");
        const profileId = reader.readU8("profile");
        const profile = RecordWireIds.storageProfile.valueOf(profileId);
        if (profile === undefined) throw checks.fail(`unknown storage profile id ${String(profileId)}`);
        const configCount = reader.readU32("configCount");
        const configs: Record<string, string> = {};
        let previous: Uint8Array | undefined;
        for (let index = 0; index < configCount; index += 1) {
          const configName = reader.readString("config name");
          checks.require(configName !== "__proto__", "config name __proto__ is reserved");
          const encoded = encodeStrictUtf8(configName);
          checks.require(
            previous === undefined || compareBytes(previous, encoded) < 0,
            "config names are not strictly ascending",
          );
          previous = encoded;
          configs[configName] = reader.readString("config value");
        }
        const createdAtMillis = reader.readU64("createdAtMillis");
        reader.expectEnd();
        const topic: KafkaTopic = { name, topicId, state, partitionCount, profile, configs, createdAtMillis };
        validate(topic, checks);
        checks.require(
          name === keyName,
          `name ${JSON.stringify(name)} does not match the key's topic ${JSON.stringify(keyName)}`,
        );
        return topic;
      } catch (error) {
        return checks.wrap(error);
      }
    },
  };
}
