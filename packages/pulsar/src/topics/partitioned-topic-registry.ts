// The partitioned-topic metadata records: how many partitions a partitioned topic has (what PARTITIONED_METADATA
// answers). Creating is put-if-absent, the partition count only grows (CAS), deleting removes the record. The
// partitions themselves are topic incarnations (topic-registry.ts), created when first used or by the caller; this
// registry neither creates nor deletes them. It does not own the metadata store.
import { ErrorCode, MetadataAmbiguousError, type MetadataStore, NereusError } from "@nereus/core";
import type { RecordCodec } from "@nereus/core/internal";
import { MAX_PARTITION_COUNT, type PulsarPartitionedTopic, partitionedTopicCodec } from "./partitioned-topic.js";
import type { PulsarKeyspace } from "./pulsar-keys.js";
import type { TopicName } from "./topic-name.js";

/** Outcome of {@link PartitionedTopicRegistry.create} and {@link PartitionedTopicRegistry.grow}. */
export type PartitionedTopicChange =
  | { readonly ok: true; readonly topic: PulsarPartitionedTopic }
  | { readonly ok: false; readonly reason: "exists" | "unknown" | "shrink"; readonly current?: PulsarPartitionedTopic };

const MAX_CAS_ATTEMPTS = 16;
const SCAN_PAGE = 500;

/** Metadata-backed partitioned-topic records of one cluster. */
export class PartitionedTopicRegistry {
  readonly #metadata: MetadataStore;
  readonly #keyspace: PulsarKeyspace;
  readonly #codec: RecordCodec<PulsarPartitionedTopic>;
  readonly #clock: () => number;

  constructor(metadata: MetadataStore, keyspace: PulsarKeyspace, clock: () => number = Date.now) {
    this.#metadata = metadata;
    this.#keyspace = keyspace;
    this.#codec = partitionedTopicCodec(keyspace);
    this.#clock = clock;
  }

  /** The partitioned topic `name`, or undefined (a partition or a non-partitioned topic has no record). */
  async get(name: TopicName, signal?: AbortSignal): Promise<PulsarPartitionedTopic | undefined> {
    return (await this.#read(name, signal))?.topic;
  }

  /** The partitioned topics of a namespace, in key order (one paged scan). */
  async list(tenant: string, namespace: string, signal?: AbortSignal): Promise<PulsarPartitionedTopic[]> {
    const prefix = this.#keyspace.namespacePartitionedTopicsPrefix(tenant, namespace);
    const topics: PulsarPartitionedTopic[] = [];
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#metadata.scan(prefix, { limit: SCAN_PAGE, startAfter, signal });
      for (const item of page.items) topics.push(this.#codec.decode(item.value, item.key));
      if (!page.more || page.items.length === 0) return topics;
      startAfter = page.items[page.items.length - 1]?.key;
    }
  }

  /** Creates the partitioned topic `name` with `partitionCount` partitions; `exists` when it already exists. */
  async create(name: TopicName, partitionCount: number, signal?: AbortSignal): Promise<PartitionedTopicChange> {
    checkPartitionCount(partitionCount);
    if (name.partitionIndex >= 0) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, `${name.fullName} is a partition; it cannot be partitioned`);
    }
    const topic: PulsarPartitionedTopic = { name: name.fullName, partitionCount, createdAtMillis: this.#clock() };
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const current = await this.#read(name, signal);
      if (current !== undefined) {
        return current.topic.partitionCount === partitionCount &&
          current.topic.createdAtMillis === topic.createdAtMillis
          ? { ok: true, topic: current.topic }
          : { ok: false, reason: "exists", current: current.topic };
      }
      if (await this.#write(name, 0, topic, signal)) return { ok: true, topic };
    }
    throw contention(name);
  }

  /** Raises the partition count of `name` to `partitionCount` (`shrink` below the current count). */
  async grow(name: TopicName, partitionCount: number, signal?: AbortSignal): Promise<PartitionedTopicChange> {
    checkPartitionCount(partitionCount);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const current = await this.#read(name, signal);
      if (current === undefined) return { ok: false, reason: "unknown" };
      if (partitionCount < current.topic.partitionCount) return { ok: false, reason: "shrink", current: current.topic };
      if (partitionCount === current.topic.partitionCount) return { ok: true, topic: current.topic };
      const topic = { ...current.topic, partitionCount };
      if (await this.#write(name, current.modRevision, topic, signal)) return { ok: true, topic };
    }
    throw contention(name);
  }

  /** Removes the record of `name`; returns what it held, or undefined when there was none. */
  async delete(name: TopicName, signal?: AbortSignal): Promise<PulsarPartitionedTopic | undefined> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const current = await this.#read(name, signal);
      if (current === undefined) return undefined;
      const key = this.#keyspace.partitionedTopicKey(name);
      try {
        const result = await this.#metadata.txn(
          { compares: [{ key, modRevision: current.modRevision }], writes: [{ type: "delete", key }] },
          { signal },
        );
        if (result.succeeded) return current.topic;
      } catch (error) {
        if (!MetadataAmbiguousError.isAmbiguous(error)) throw error;
      }
    }
    throw contention(name);
  }

  async #read(
    name: TopicName,
    signal: AbortSignal | undefined,
  ): Promise<{ topic: PulsarPartitionedTopic; modRevision: number } | undefined> {
    const item = await this.#metadata.get(this.#keyspace.partitionedTopicKey(name), { signal });
    return item === undefined
      ? undefined
      : { topic: this.#codec.decode(item.value, item.key), modRevision: item.modRevision };
  }

  /** CAS from `modRevision` (0: absent) to `topic`; a lost response counts as not applied (the caller re-reads). */
  async #write(
    name: TopicName,
    modRevision: number,
    topic: PulsarPartitionedTopic,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    const key = this.#keyspace.partitionedTopicKey(name);
    try {
      const result = await this.#metadata.txn(
        { compares: [{ key, modRevision }], writes: [{ type: "put", key, value: this.#codec.encode(topic) }] },
        { signal },
      );
      return result.succeeded;
    } catch (error) {
      if (MetadataAmbiguousError.isAmbiguous(error)) return false;
      throw error;
    }
  }
}

function checkPartitionCount(partitionCount: number): void {
  if (!Number.isInteger(partitionCount) || partitionCount < 1 || partitionCount > MAX_PARTITION_COUNT) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `partition count must be an integer in [1, 2^31-1], got ${String(partitionCount)}`,
    );
  }
}

function contention(name: TopicName): NereusError {
  return new NereusError(
    ErrorCode.METADATA_CONDITION_FAILED,
    `partitioned topic ${name.fullName}: its record kept changing`,
    { retryable: true },
  );
}
