// The schema registry of a cluster's topics: every schema version a topic has had, one PulsarSchema record per
// version (schema-record-codec.ts), numbered from 0. A partition's schemas are its partitioned topic's. Registering
// a schema (a producer's, a consumer's, GET_OR_CREATE_SCHEMA) follows one rule, Pulsar's default "full"
// compatibility kept simple:
//   - the bytes schema (None) and AutoConsume need no registration and go with any topic;
//   - a schema with the type and definition of a registered version is that version (properties aside);
//   - on a topic without a schema it becomes version 0;
//   - any other schema is incompatible (the topic keeps its schema).
// Versions are created put-if-absent, so concurrent registrations agree on one. It does not own the metadata store.
import { ErrorCode, MetadataAmbiguousError, type MetadataStore, NereusError } from "@nereus/core";
import type { RecordCodec } from "@nereus/core/internal";
import { type SchemaInfo, SchemaType } from "../protocol/index.js";
import type { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { type TopicName, parseTopicName } from "../topics/topic-name.js";
import { MAX_SCHEMA_DATA_BYTES, schemaRecordCodec } from "./schema-record-codec.js";
import { type StoredSchema, isSameSchema, needsNoRegistration } from "./stored-schema.js";

/** Outcome of {@link SchemaRegistry.register}. */
export type SchemaRegistration =
  /** `version` is undefined for a schema that needs no registration. */
  | { readonly compatible: true; readonly version: bigint | undefined; readonly created: boolean }
  | { readonly compatible: false; readonly reason: string };

const MAX_CAS_ATTEMPTS = 16;
const SCAN_PAGE = 100;

/** The name of a Schema.Type number, for messages. */
function typeName(type: number): string {
  return Object.entries(SchemaType).find(([, value]) => value === type)?.[0] ?? `type ${String(type)}`;
}

/** Metadata-backed schema versions of one cluster's topics. */
export class SchemaRegistry {
  readonly #metadata: MetadataStore;
  readonly #keyspace: PulsarKeyspace;
  readonly #codec: RecordCodec<StoredSchema>;
  readonly #clock: () => number;

  constructor(metadata: MetadataStore, keyspace: PulsarKeyspace, clock: () => number = Date.now) {
    this.#metadata = metadata;
    this.#keyspace = keyspace;
    this.#codec = schemaRecordCodec(keyspace);
    this.#clock = clock;
  }

  /** Every schema version of `topic` (a partition: of its partitioned topic), oldest first. */
  async versions(topic: TopicName, signal?: AbortSignal): Promise<StoredSchema[]> {
    const prefix = this.#keyspace.schemaVersionsPrefix(schemaTopic(topic));
    const versions: StoredSchema[] = [];
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#metadata.scan(prefix, { limit: SCAN_PAGE, startAfter, signal });
      for (const item of page.items) versions.push(this.#codec.decode(item.value, item.key));
      if (!page.more || page.items.length === 0) return versions;
      startAfter = page.items[page.items.length - 1]?.key;
    }
  }

  /** Version `version` of `topic`'s schema, or the latest one without `version`; undefined when there is none. */
  async get(topic: TopicName, version?: bigint, signal?: AbortSignal): Promise<StoredSchema | undefined> {
    if (version === undefined) return (await this.versions(topic, signal)).at(-1);
    const item = await this.#metadata.get(this.#keyspace.schemaKey(schemaTopic(topic), version), { signal });
    return item === undefined ? undefined : this.#codec.decode(item.value, item.key);
  }

  /**
   * Registers `schema` on `topic` by the module's rule (see the module comment): the version it is, or why it is
   * incompatible. INVALID_ARGUMENT, before any I/O, for a definition above 512 KiB.
   */
  async register(topic: TopicName, schema: SchemaInfo | undefined, signal?: AbortSignal): Promise<SchemaRegistration> {
    if (schema === undefined || needsNoRegistration(schema))
      return { compatible: true, version: undefined, created: false };
    if (schema.schemaData.length > MAX_SCHEMA_DATA_BYTES) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `a schema definition is at most ${String(MAX_SCHEMA_DATA_BYTES)} bytes, got ${String(schema.schemaData.length)}`,
        { retryable: false },
      );
    }
    const owner = schemaTopic(topic);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const versions = await this.versions(owner, signal);
      const same = versions.find((stored) => isSameSchema(stored, schema));
      if (same !== undefined) return { compatible: true, version: same.version, created: false };
      const latest = versions.at(-1);
      if (latest !== undefined) {
        return {
          compatible: false,
          reason:
            `topic ${owner.fullName} has a ${typeName(latest.type)} schema (version ${String(latest.version)}); ` +
            `a ${typeName(schema.type)} schema with another definition is incompatible`,
        };
      }
      const stored: StoredSchema = {
        topic: owner.fullName,
        version: 0n,
        type: schema.type,
        data: schema.schemaData,
        properties: schema.properties ?? [],
        createdAtMillis: this.#clock(),
      };
      if (await this.#create(owner, stored, signal))
        return { compatible: true, version: stored.version, created: true };
    }
    throw new NereusError(ErrorCode.METADATA_CONDITION_FAILED, `the schemas of ${owner.fullName} kept changing`, {
      retryable: true,
    });
  }

  /** Deletes every schema version of `topic` (a partition: of its partitioned topic); returns how many there were. */
  async deleteAll(topic: TopicName, signal?: AbortSignal): Promise<number> {
    const versions = await this.versions(topic, signal);
    const owner = schemaTopic(topic);
    for (const stored of versions) {
      const key = this.#keyspace.schemaKey(owner, stored.version);
      await this.#metadata.txn({ compares: [], writes: [{ type: "delete", key }] }, { signal });
    }
    return versions.length;
  }

  /** Put-if-absent of one version; a lost response counts as not created (the caller reads again). */
  async #create(owner: TopicName, stored: StoredSchema, signal: AbortSignal | undefined): Promise<boolean> {
    const key = this.#keyspace.schemaKey(owner, stored.version);
    try {
      const result = await this.#metadata.txn(
        { compares: [{ key, modRevision: 0 }], writes: [{ type: "put", key, value: this.#codec.encode(stored) }] },
        { signal },
      );
      return result.succeeded;
    } catch (error) {
      if (MetadataAmbiguousError.isAmbiguous(error)) return false;
      throw error;
    }
  }
}

/** The topic whose schemas `topic` uses: a partition's partitioned topic, else the topic itself. */
function schemaTopic(topic: TopicName): TopicName {
  return topic.partitionIndex < 0 ? topic : parseTopicName(topic.partitionedTopicName);
}
