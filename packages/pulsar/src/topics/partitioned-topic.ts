// PulsarPartitionedTopic record codec (NRM1 recordType "PulsarPartitionedTopic", schema 1): the metadata of a
// partitioned topic, stored at P/pulsar/partitioned-topics/{tenant}/{namespace}/{localName}. Its partitions are
// ordinary topics named `{name}-partition-{N}`, each with its own incarnation record. Payload, big-endian:
//   name             string   canonical full name, not itself a partition
//   partitionCount   u32      (1 .. 2^31-1)
//   createdAtMillis  u64
// `decode` requires the record's name to be the one its key names.
import { type RecordChecks, type RecordCodec, defineRecordCodec } from "@nereus/core/internal";
import type { PulsarKeyspace } from "./pulsar-keys.js";
import { parseTopicName } from "./topic-name.js";

/** Most partitions a partitioned topic may have. */
export const MAX_PARTITION_COUNT = 0x7fff_ffff;

/** A partitioned topic: its name and how many partitions it has (partition indexes 0 .. partitionCount - 1). */
export interface PulsarPartitionedTopic {
  readonly name: string;
  readonly partitionCount: number;
  readonly createdAtMillis: number;
}

function validate(topic: PulsarPartitionedTopic, checks: RecordChecks): void {
  checks.text("name", topic.name);
  let parsed;
  try {
    parsed = parseTopicName(topic.name);
  } catch (error) {
    throw checks.fail(`name: ${error instanceof Error ? error.message : String(error)}`);
  }
  checks.require(parsed.fullName === topic.name, `name ${JSON.stringify(topic.name)} is not canonical`);
  checks.require(parsed.partitionIndex < 0, `name ${JSON.stringify(topic.name)} is a partition`);
  checks.natural("partitionCount", topic.partitionCount, 1);
  checks.require(
    topic.partitionCount <= MAX_PARTITION_COUNT,
    `partitionCount ${String(topic.partitionCount)} exceeds 2^31-1`,
  );
  checks.natural("createdAtMillis", topic.createdAtMillis);
}

/** The codec of PulsarPartitionedTopic records, bound to a keyspace (`decode` checks the record against its key). */
export function partitionedTopicCodec(keyspace: PulsarKeyspace): RecordCodec<PulsarPartitionedTopic> {
  return defineRecordCodec({
    recordType: "PulsarPartitionedTopic",
    schemaVersion: 1,
    validate,
    parseKey: (key) => keyspace.parsePartitionedTopicKey(key),
    matchKey(topic, keyName, checks) {
      checks.require(
        topic.name === keyName,
        `name ${JSON.stringify(topic.name)} does not match the key's topic ${JSON.stringify(keyName)}`,
      );
    },

    write(writer, topic) {
      writer.writeString(topic.name).writeU32(topic.partitionCount).writeU64(topic.createdAtMillis);
    },

    read(reader): PulsarPartitionedTopic {
      return {
        name: reader.readString("name"),
        partitionCount: reader.readU32("partitionCount"),
        createdAtMillis: reader.readU64("createdAtMillis"),
      };
    },
  });
}
