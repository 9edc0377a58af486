// Policy record codecs (NRM1, schema 1): PulsarNamespacePolicies at P/pulsar/policies/namespaces/{tenant}/{namespace}
// and PulsarTopicPolicies at P/pulsar/policies/topics/{tenant}/{namespace}/{localName} (a partitioned topic's name,
// never a partition's). A field left unset defers to the next level. Payload, big-endian:
//   name                  string   `{tenant}/{namespace}`, or the canonical full topic name
//   deduplication         u8       0 unset, 1 disabled, 2 enabled
//   storageProfile        u8       0 unset, else core's StorageProfile wire id
// and in namespace records only:
//   autoTopicCreation     u8       0 unset, 1 set, then:
//     allowed             u8       0 or 1
//     type                u8       1 non-partitioned, 2 partitioned
//     defaultPartitions   u32      [1, 2^31 - 1]
// `decode` requires the record's name to be the one its key names.
import type { ByteReader, ByteWriter } from "@nereus/core";
import { type RecordChecks, type RecordCodec, RecordWireIds, WireEnum, defineRecordCodec } from "@nereus/core/internal";
import { MAX_PARTITION_COUNT } from "./partitioned-topic.js";
import type { PulsarKeyspace } from "./pulsar-keys.js";
import { parseNamespaceName, parseTopicName } from "./topic-name.js";
import type { AutoTopicType, NamespacePolicies, TopicPolicies } from "./topic-policies.js";

/** A stored namespace policy record: the namespace and its policies. */
export interface StoredNamespacePolicies {
  /** `{tenant}/{namespace}`. */
  readonly name: string;
  readonly policies: NamespacePolicies;
}

/** A stored topic policy record: the (partitioned) topic and its policies. */
export interface StoredTopicPolicies {
  readonly name: string;
  readonly policies: TopicPolicies;
}

/** Durable wire ids of automatically created topic types (never renumber). */
const AUTO_TOPIC_TYPE_IDS = new WireEnum<AutoTopicType>("AutoTopicType", [
  ["non-partitioned", 1],
  ["partitioned", 2],
]);

const UNSET = 0;

function validateShared(policies: TopicPolicies, checks: RecordChecks): void {
  const dedup = policies.deduplicationEnabled;
  checks.require(dedup === undefined || typeof dedup === "boolean", "deduplicationEnabled must be a boolean");
  const profile = policies.storageProfile;
  checks.require(
    profile === undefined || RecordWireIds.storageProfile.idOf(profile) !== undefined,
    `storageProfile ${String(profile)} is not canonical`,
  );
}

function validateNamespace(record: StoredNamespacePolicies, checks: RecordChecks): void {
  checks.text("name", record.name);
  try {
    checks.require(parseNamespaceName(record.name).name === record.name, "name is not a namespace");
  } catch (error) {
    throw checks.fail(`name: ${error instanceof Error ? error.message : String(error)}`);
  }
  validateShared(record.policies, checks);
  const auto = record.policies.autoTopicCreation;
  if (auto === undefined) return;
  checks.require(typeof auto.allowed === "boolean", "autoTopicCreation.allowed must be a boolean");
  checks.require(AUTO_TOPIC_TYPE_IDS.idOf(auto.type) !== undefined, `unknown auto topic type ${String(auto.type)}`);
  checks.u32("autoTopicCreation.defaultPartitions", auto.defaultPartitions, 1);
  checks.require(auto.defaultPartitions <= MAX_PARTITION_COUNT, "autoTopicCreation.defaultPartitions exceeds 2^31-1");
}

function validateTopic(record: StoredTopicPolicies, checks: RecordChecks): void {
  checks.text("name", record.name);
  let partitionIndex: number;
  try {
    const parsed = parseTopicName(record.name);
    checks.require(parsed.fullName === record.name, `name ${JSON.stringify(record.name)} is not canonical`);
    partitionIndex = parsed.partitionIndex;
  } catch (error) {
    throw checks.fail(`name: ${error instanceof Error ? error.message : String(error)}`);
  }
  checks.require(partitionIndex < 0, `name ${JSON.stringify(record.name)} is a partition`);
  validateShared(record.policies, checks);
  checks.require(
    !("autoTopicCreation" in record.policies) || record.policies.autoTopicCreation === undefined,
    "autoTopicCreation is a namespace policy",
  );
}

function writeShared(writer: ByteWriter, policies: TopicPolicies): void {
  const dedup = policies.deduplicationEnabled;
  writer.writeU8(dedup === undefined ? UNSET : dedup ? 2 : 1);
  const profile = policies.storageProfile;
  writer.writeU8(profile === undefined ? UNSET : (RecordWireIds.storageProfile.idOf(profile) ?? UNSET));
}

function readShared(reader: ByteReader, checks: RecordChecks): TopicPolicies {
  const dedup = reader.readU8("deduplication");
  checks.require(dedup <= 2, `unknown deduplication value ${String(dedup)}`);
  const profileId = reader.readU8("storageProfile");
  return {
    ...(dedup === UNSET ? {} : { deduplicationEnabled: dedup === 2 }),
    ...(profileId === UNSET
      ? {}
      : { storageProfile: checks.wireValue("storage profile", RecordWireIds.storageProfile, profileId) }),
  };
}

/** The codec of namespace policy records, bound to a keyspace. */
export function namespacePoliciesCodec(keyspace: PulsarKeyspace): RecordCodec<StoredNamespacePolicies> {
  return defineRecordCodec({
    recordType: "PulsarNamespacePolicies",
    schemaVersion: 1,
    validate: validateNamespace,
    parseKey: (key) => keyspace.parseNamespacePoliciesKey(key),
    matchKey(record, keyName, checks) {
      checks.require(record.name === keyName, `name ${record.name} does not match the key's namespace ${keyName}`);
    },
    write(writer, record) {
      writer.writeString(record.name);
      writeShared(writer, record.policies);
      const auto = record.policies.autoTopicCreation;
      if (auto === undefined) {
        writer.writeU8(UNSET);
        return;
      }
      writer
        .writeU8(1)
        .writeBoolean(auto.allowed)
        .writeU8(AUTO_TOPIC_TYPE_IDS.idOf(auto.type) ?? UNSET)
        .writeU32(auto.defaultPartitions);
    },
    read(reader, checks): StoredNamespacePolicies {
      const name = reader.readString("name");
      const shared = readShared(reader, checks);
      const autoSet = reader.readU8("autoTopicCreation");
      checks.require(autoSet <= 1, `unknown autoTopicCreation presence ${String(autoSet)}`);
      if (autoSet === UNSET) return { name, policies: shared };
      const autoTopicCreation = {
        allowed: reader.readBoolean("autoTopicCreation.allowed"),
        type: checks.wireValue("auto topic type", AUTO_TOPIC_TYPE_IDS, reader.readU8("autoTopicCreation.type")),
        defaultPartitions: reader.readU32("autoTopicCreation.defaultPartitions"),
      };
      return { name, policies: { ...shared, autoTopicCreation } };
    },
  });
}

/** The codec of topic policy records, bound to a keyspace. */
export function topicPoliciesCodec(keyspace: PulsarKeyspace): RecordCodec<StoredTopicPolicies> {
  return defineRecordCodec({
    recordType: "PulsarTopicPolicies",
    schemaVersion: 1,
    validate: validateTopic,
    parseKey: (key) => keyspace.parseTopicPoliciesKey(key),
    matchKey(record, keyName, checks) {
      checks.require(record.name === keyName, `name ${record.name} does not match the key's topic ${keyName}`);
    },
    write(writer, record) {
      writer.writeString(record.name);
      writeShared(writer, record.policies);
    },
    read(reader, checks): StoredTopicPolicies {
      return { name: reader.readString("name"), policies: readShared(reader, checks) };
    },
  });
}
