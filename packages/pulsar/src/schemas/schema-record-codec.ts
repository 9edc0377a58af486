// PulsarSchema record codec (NRM1 recordType "PulsarSchema", schema 1): one registered schema version of a topic,
// stored at P/pulsar/schemas/{tenant}/{namespace}/{localName}/{version}. Payload, big-endian:
//   topic            string   canonical full name of the topic (never a partition)
//   version          i64      [0, 2^63 - 1], the key's version
//   type             i32      Schema.Type number (not None 0, not AutoConsume 21)
//   data             bytes    u32 length, then the definition (at most 512 KiB)
//   propertyCount    u32      then per property: key string, value string
//   createdAtMillis  u64
// `decode` requires the record's topic and version to be the ones its key names.
import { type RecordChecks, type RecordCodec, defineRecordCodec } from "@nereus/core/internal";
import { SchemaType } from "../protocol/index.js";
import { readInt64, writeInt64 } from "../records/int64-field.js";
import type { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { parseTopicName } from "../topics/topic-name.js";
import { MAX_SCHEMA_VERSION } from "./schema-version.js";
import type { StoredSchema } from "./stored-schema.js";

/** Largest schema definition stored (a metadata record stays well below etcd's request limit). */
export const MAX_SCHEMA_DATA_BYTES = 512 * 1024;
/** Most properties of one schema. */
const MAX_SCHEMA_PROPERTIES = 1_024;

function validate(schema: StoredSchema, checks: RecordChecks): void {
  checks.text("topic", schema.topic);
  let partitionIndex: number;
  try {
    const parsed = parseTopicName(schema.topic);
    checks.require(parsed.fullName === schema.topic, `topic ${JSON.stringify(schema.topic)} is not canonical`);
    partitionIndex = parsed.partitionIndex;
  } catch (error) {
    throw checks.fail(`topic: ${error instanceof Error ? error.message : String(error)}`);
  }
  checks.require(partitionIndex < 0, `topic ${JSON.stringify(schema.topic)} is a partition`);
  checks.require(
    typeof schema.version === "bigint" && schema.version >= 0n && schema.version <= MAX_SCHEMA_VERSION,
    `version ${String(schema.version)} is outside [0, 2^63 - 1]`,
  );
  checks.require(
    Number.isInteger(schema.type) && schema.type > 0 && schema.type <= 0x7fff_ffff,
    `type ${String(schema.type)} is not a registrable Schema.Type`,
  );
  checks.require(schema.type !== SchemaType.AutoConsume, "an AutoConsume schema is never registered");
  checks.require(schema.data instanceof Uint8Array, "data must be bytes");
  checks.require(
    schema.data.length <= MAX_SCHEMA_DATA_BYTES,
    `data is ${String(schema.data.length)} bytes; the maximum is ${String(MAX_SCHEMA_DATA_BYTES)}`,
  );
  checks.require(
    Array.isArray(schema.properties) && schema.properties.length <= MAX_SCHEMA_PROPERTIES,
    `at most ${String(MAX_SCHEMA_PROPERTIES)} properties`,
  );
  for (const property of schema.properties) {
    checks.text("property key", property.key, true);
    checks.text("property value", property.value, true);
  }
  checks.natural("createdAtMillis", schema.createdAtMillis);
}

/** The codec of PulsarSchema records, bound to a keyspace (`decode` checks the record against its key). */
export function schemaRecordCodec(keyspace: PulsarKeyspace): RecordCodec<StoredSchema> {
  return defineRecordCodec({
    recordType: "PulsarSchema",
    schemaVersion: 1,
    validate,
    parseKey: (key) => keyspace.parseSchemaKey(key),
    matchKey(schema, location, checks) {
      checks.require(
        schema.topic === location.topic && schema.version === location.version,
        `schema ${schema.topic} version ${String(schema.version)} does not match the key's ${location.topic} version ${String(location.version)}`,
      );
    },

    write(writer, schema) {
      writer.writeString(schema.topic);
      writeInt64(writer, schema.version);
      writer.writeI32(schema.type).writeLengthPrefixedBytes(schema.data).writeU32(schema.properties.length);
      for (const property of schema.properties) writer.writeString(property.key).writeString(property.value);
      writer.writeU64(schema.createdAtMillis);
    },

    read(reader, checks): StoredSchema {
      const topic = reader.readString("topic");
      const version = readInt64(reader, "version");
      const type = reader.readI32("type");
      const data = reader.readLengthPrefixedBytes("data");
      const count = reader.readU32("propertyCount");
      checks.require(count <= MAX_SCHEMA_PROPERTIES, `propertyCount ${String(count)} is above the maximum`);
      const properties = Array.from({ length: count }, (_, index) => ({
        key: reader.readString(`properties[${String(index)}].key`),
        value: reader.readString(`properties[${String(index)}].value`),
      }));
      return { topic, version, type, data, properties, createdAtMillis: reader.readU64("createdAtMillis") };
    },
  });
}
