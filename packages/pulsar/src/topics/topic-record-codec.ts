// PulsarTopic record codec (NRM1 recordType "PulsarTopic", schema 1): one topic incarnation, stored at
// P/pulsar/topics/{tenant}/{namespace}/{localName}. Payload, big-endian:
//   name             string   canonical full name (persistent://tenant/namespace/topic)
//   incarnation      u64      (>= 1)
//   state            u8       CREATING 1, ACTIVE 2, DELETING 3, DELETED 4
//   streamName       string   pulsar/{incarnation}/{name}
//   streamId         string   core's id of streamName
//   ledgerId         i64      virtual ledger id in [2^62, 2^63 - 2]
//   profile          u8       core's StorageProfile wire id (canonical profiles only)
//   createdAtMillis  u64
// `decode` requires the record's name to be the one its key names.
import { RecordWireIds, type RecordChecks, type RecordCodec, WireEnum, defineRecordCodec } from "@nereus/core/internal";
import { streamIdFromName } from "@nereus/core";
import { readInt64, writeInt64 } from "../records/int64-field.js";
import type { PulsarKeyspace } from "./pulsar-keys.js";
import {
  MAX_VIRTUAL_LEDGER_ID,
  MIN_VIRTUAL_LEDGER_ID,
  type PulsarTopic,
  type PulsarTopicState,
  topicStreamName,
} from "./pulsar-topic.js";
import { isCanonicalTopicName } from "./topic-name.js";

/** Durable wire ids of the topic states (never renumber). */
const TOPIC_STATE_IDS = new WireEnum<PulsarTopicState>("PulsarTopicState", [
  ["CREATING", 1],
  ["ACTIVE", 2],
  ["DELETING", 3],
  ["DELETED", 4],
]);

/** Throws through `checks` unless `ledgerId` is a virtual ledger id. */
function checkVirtualLedgerId(checks: RecordChecks, name: string, ledgerId: unknown): void {
  checks.require(
    typeof ledgerId === "bigint" && ledgerId >= MIN_VIRTUAL_LEDGER_ID && ledgerId <= MAX_VIRTUAL_LEDGER_ID,
    `${name} ${String(ledgerId)} is outside [2^62, 2^63 - 2]`,
  );
}

function validate(topic: PulsarTopic, checks: RecordChecks): void {
  checks.text("name", topic.name);
  checks.require(isCanonicalTopicName(topic.name), `name ${JSON.stringify(topic.name)} is not a canonical topic name`);
  checks.natural("incarnation", topic.incarnation, 1);
  checks.require(TOPIC_STATE_IDS.idOf(topic.state) !== undefined, `unknown state ${String(topic.state)}`);
  checks.require(
    topic.streamName === topicStreamName(topic.name, topic.incarnation),
    `streamName ${JSON.stringify(topic.streamName)} is not the stream name of incarnation ${String(topic.incarnation)}`,
  );
  checks.require(topic.streamId === streamIdFromName(topic.streamName), "streamId is not the id of streamName");
  checkVirtualLedgerId(checks, "ledgerId", topic.ledgerId);
  checks.require(
    RecordWireIds.storageProfile.idOf(topic.profile) !== undefined,
    `profile ${String(topic.profile)} is not canonical`,
  );
  checks.natural("createdAtMillis", topic.createdAtMillis);
}

/** The codec of PulsarTopic records, bound to a keyspace (`decode` checks the record against its key). */
export function topicRecordCodec(keyspace: PulsarKeyspace): RecordCodec<PulsarTopic> {
  return defineRecordCodec({
    recordType: "PulsarTopic",
    schemaVersion: 1,
    validate,
    parseKey: (key) => keyspace.parseTopicKey(key),
    matchKey(topic, keyName, checks) {
      checks.require(
        topic.name === keyName,
        `name ${JSON.stringify(topic.name)} does not match the key's topic ${JSON.stringify(keyName)}`,
      );
    },

    write(writer, topic) {
      writer
        .writeString(topic.name)
        .writeU64(topic.incarnation)
        .writeU8(TOPIC_STATE_IDS.idOf(topic.state) ?? 0)
        .writeString(topic.streamName)
        .writeString(topic.streamId);
      writeInt64(writer, topic.ledgerId);
      writer.writeU8(RecordWireIds.storageProfile.idOf(topic.profile) ?? 0).writeU64(topic.createdAtMillis);
    },

    read(reader, checks): PulsarTopic {
      return {
        name: reader.readString("name"),
        incarnation: reader.readU64("incarnation"),
        state: checks.wireValue("state", TOPIC_STATE_IDS, reader.readU8("state")),
        streamName: reader.readString("streamName"),
        streamId: reader.readString("streamId"),
        ledgerId: readInt64(reader, "ledgerId"),
        profile: checks.wireValue("storage profile", RecordWireIds.storageProfile, reader.readU8("profile")),
        createdAtMillis: reader.readU64("createdAtMillis"),
      };
    },
  });
}
