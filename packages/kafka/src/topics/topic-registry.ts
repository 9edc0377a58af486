// The topic registry: Kafka topics as records in the metadata store (P/kafka/topics/{name}), each backed by one
// stream per partition. Creation is CREATING (put-if-absent) → streams created (create-or-get) → ACTIVE (CAS);
// deletion is DELETING (CAS) → streams deleted → record removed, so a crash at any point leaves a state the next
// lookup resumes. Config changes and added partitions are a CAS on an ACTIVE record (added partitions' streams are
// created first). A watch (`follow`) keeps the cache in step with other processes' changes. Reads go through a
// process-local cache of the records this process has seen; a miss reads the store. Creation and lookup by id cost
// the same however many topics exist: the collision check and id lookups go through the claim and id keys of
// topic-index.ts, written and removed in the same transactions as the record. An optional limit on the partitions
// of all topics is kept by partition-tally.ts. It does not own the stream store or the metadata store.
import { randomUUID } from "node:crypto";
import {
  ErrorCode,
  type KeyValue,
  type MetadataStore,
  NereusError,
  type StorageProfile,
  type StreamStore,
  type WatchEvent,
  type WatchHandle,
  streamIdFromName,
} from "@nereus/core";
import { type RecordCodec } from "@nereus/core/internal";
import type { KafkaBrokerLogger } from "../logging/broker-logger.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { KafkaKeyspace } from "./kafka-keys.js";
import { type KafkaTopic, partitionStreamName } from "./kafka-topic.js";
import { PartitionTally } from "./partition-tally.js";
import type { ConfigChangePlan } from "./plan-config-change.js";
import { TopicIndex } from "./topic-index.js";
import { topicRecordCodec } from "./topic-record-codec.js";

/** What {@link TopicRegistry.create} needs; the caller has validated name, configs and counts. */
export interface TopicSpec {
  readonly name: string;
  readonly partitionCount: number;
  readonly profile: StorageProfile;
  readonly configs: Readonly<Record<string, string>>;
}

/** Outcome of {@link TopicRegistry.create}: the new topic, or why none was created. */
export type CreateTopicOutcome =
  | { readonly ok: true; readonly topic: KafkaTopic }
  | {
      readonly ok: false;
      readonly reason: "exists" | "deleting" | "collision" | "unsupported-profile" | "partition-limit";
      readonly message: string;
    };

/** Outcome of {@link TopicRegistry.delete}. */
export type DeleteTopicOutcome =
  { readonly ok: true; readonly topic: KafkaTopic } | { readonly ok: false; readonly reason: "unknown" };

export interface TopicRegistryOptions {
  readonly store: StreamStore;
  readonly metadata: MetadataStore;
  readonly cluster: string;
  readonly logger: KafkaBrokerLogger;
  readonly clock?: () => number;
  /** Streams created or deleted concurrently for one topic (default 32). */
  readonly streamConcurrency?: number;
  /**
   * Most partitions all topics together may have (default: no limit). Creations and added partitions above it are
   * refused (`partition-limit`). Counted as partition-tally.ts describes: exact for this process's own changes,
   * other brokers' changes from the next `list`. The first creation of a process lists the topics once to count.
   */
  readonly maxPartitions?: number;
}

interface CachedRecord {
  readonly topic: KafkaTopic;
  readonly revision: number;
}

const SCAN_PAGE = 500;
const MAX_CONFIG_CAS_ATTEMPTS = 10;
const MAX_CREATE_ATTEMPTS = 10;

/** Why a change to a topic was refused (a Kafka error code and message). */
export interface TopicChangeRefusal {
  readonly ok: false;
  readonly errorCode: number;
  readonly message: string;
}

/** Outcome of {@link TopicRegistry.alterConfigs} and {@link TopicRegistry.addPartitions} for an ACTIVE topic. */
export type ConfigChangeOutcome = { readonly ok: true; readonly topic: KafkaTopic } | TopicChangeRefusal;

/** Metadata-backed registry of Kafka topics. Invariant: only ACTIVE topics are ever returned to callers. */
export class TopicRegistry {
  readonly keyspace: KafkaKeyspace;
  readonly #store: StreamStore;
  readonly #metadata: MetadataStore;
  readonly #codec: RecordCodec<KafkaTopic>;
  readonly #logger: KafkaBrokerLogger;
  readonly #clock: () => number;
  readonly #concurrency: number;
  readonly #cache = new Map<string, CachedRecord>();
  /** Topic id → name of the cached records (lookupById without a scan). */
  readonly #ids = new Map<string, string>();
  readonly #index: TopicIndex;
  readonly #maxPartitions: number;
  /** The partition count once the first creation (or listing) counted it; undefined without a limit. */
  #tally: PartitionTally | undefined;
  #tallyLoading: Promise<unknown> | undefined;
  /** Creations and deletions running in this process, by name (so concurrent callers share them). */
  readonly #pending = new Map<string, Promise<unknown>>();
  readonly #deletedListeners = new Set<(topic: KafkaTopic) => void>();
  /** The watch on the topic records (see `follow`). */
  #following: Promise<WatchHandle | undefined> | undefined;
  #closed = false;

  constructor(options: TopicRegistryOptions) {
    this.keyspace = new KafkaKeyspace(options.cluster);
    this.#store = options.store;
    this.#metadata = options.metadata;
    this.#codec = topicRecordCodec(this.keyspace);
    this.#logger = options.logger;
    this.#clock = options.clock ?? Date.now;
    this.#concurrency = options.streamConcurrency ?? 32;
    this.#maxPartitions = options.maxPartitions ?? Number.POSITIVE_INFINITY;
    this.#index = new TopicIndex({
      metadata: this.#metadata,
      keyspace: this.keyspace,
      topicCodec: this.#codec,
      logger: this.#logger,
      clock: this.#clock,
    });
  }

  /**
   * Follows the changes other processes make to topic records (configs, partition counts, deletions): a watch on the
   * topic keys drops a cached record older than a change, so the next use reads the store. Watch events are hints;
   * one that is lost leaves the record cached until `list` (the retention sweep runs it every few minutes) or a
   * restart refreshes it. Idempotent; a watch that cannot start is logged and the cache keeps working without it.
   */
  follow(): void {
    if (this.#closed) return;
    this.#following ??= this.#metadata
      .watch(this.keyspace.topicsPrefix(), (event) => this.#onTopicEvent(event))
      .then(
        async (handle) => {
          if (!this.#closed) return handle;
          await handle.close();
          return undefined;
        },
        (error: unknown) => {
          this.#logger.warn("cannot follow topic changes: other brokers' changes are seen on the next topic listing", {
            error: String(error),
          });
          return undefined;
        },
      );
  }

  /** Ends `follow`'s watch. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const handle = await this.#following;
    await handle?.close();
  }

  #onTopicEvent(event: WatchEvent): void {
    let name: string;
    try {
      name = this.keyspace.parseTopicKey(event.key);
    } catch {
      return;
    }
    const cached = this.#cache.get(name);
    if (cached !== undefined && cached.revision < event.modRevision) this.#forget(name);
  }

  /** The ACTIVE topic `name` from this process's cache (no I/O), or undefined. */
  cached(name: string): KafkaTopic | undefined {
    const entry = this.#cache.get(name);
    return entry?.topic.state === "ACTIVE" ? entry.topic : undefined;
  }

  /** The ACTIVE topic `name`: cache first, else one read. A half-created topic is finished first. */
  async lookup(name: string, signal?: AbortSignal): Promise<KafkaTopic | undefined> {
    const cached = this.cached(name);
    if (cached !== undefined) return cached;
    const entry = await this.#read(name, signal);
    return entry === undefined ? undefined : this.#settle(entry);
  }

  /** Every ACTIVE topic, by name (one scan of the topic records; refreshes the cache). */
  async list(signal?: AbortSignal): Promise<KafkaTopic[]> {
    const seen = new Set<string>();
    const topics: KafkaTopic[] = [];
    let partitions = 0;
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#metadata.scan(this.keyspace.topicsPrefix(), { limit: SCAN_PAGE, startAfter, signal });
      for (const item of page.items) {
        const entry = this.#remember(item);
        seen.add(entry.topic.name);
        if (entry.topic.state !== "DELETING") partitions += entry.topic.partitionCount;
        const topic = await this.#settle(entry);
        if (topic !== undefined) topics.push(topic);
      }
      const last = page.items[page.items.length - 1];
      if (!page.more || last === undefined) break;
      startAfter = last.key;
    }
    for (const name of [...this.#cache.keys()]) if (!seen.has(name)) this.#forget(name);
    if (this.#tally !== undefined) this.#tally.listed(partitions);
    else if (Number.isFinite(this.#maxPartitions)) this.#tally = new PartitionTally(this.#maxPartitions, partitions);
    return topics;
  }

  /** The ACTIVE topic with id `topicId`: this process's cache first, else its id key and its record (two reads). */
  async lookupById(topicId: string, signal?: AbortSignal): Promise<KafkaTopic | undefined> {
    const cachedName = this.#ids.get(topicId);
    const cached = cachedName === undefined ? undefined : this.cached(cachedName);
    if (cached?.topicId === topicId) return cached;
    const name = await this.#index.nameOf(topicId, signal);
    if (name === undefined) return undefined;
    const topic = await this.lookup(name, signal);
    return topic?.topicId === topicId ? topic : undefined;
  }

  /** Registers a callback run when a topic enters DELETING (partition logs drop their state). */
  onDeleted(listener: (topic: KafkaTopic) => void): void {
    this.#deletedListeners.add(listener);
  }

  /**
   * Creates a topic and its partition streams. A name in use (or being deleted, or colliding with another name
   * by '.' versus '_') is refused as a value; a profile this runtime cannot run is refused after the attempt
   * and leaves nothing behind. Storage failures throw (the CREATING record is finished by a later lookup).
   */
  async create(spec: TopicSpec, signal?: AbortSignal): Promise<CreateTopicOutcome> {
    const running = this.#pending.get(spec.name);
    if (running !== undefined) await running.catch(() => undefined);
    const existing = await this.#read(spec.name, signal);
    if (existing !== undefined) return this.#refuseExisting(existing);
    await this.#index.complete();
    const tally = await this.#partitionTally(signal);
    const refusal = tally === undefined ? undefined : this.#reserve(tally, spec.partitionCount);
    if (refusal !== undefined) return { ok: false, reason: "partition-limit", message: refusal };
    let kept = false;
    try {
      const outcome = await this.#createRecord(spec, signal);
      kept = outcome.ok;
      return outcome;
    } finally {
      tally?.settle(spec.partitionCount, kept);
    }
  }

  /** Puts the CREATING record with its claim and id keys (one txn), then finishes the topic (see `create`). */
  async #createRecord(spec: TopicSpec, signal: AbortSignal | undefined): Promise<CreateTopicOutcome> {
    const key = this.keyspace.topicKey(spec.name);
    const claimKey = this.keyspace.topicClaimKey(spec.name);
    for (let attempt = 0; attempt < MAX_CREATE_ATTEMPTS; attempt += 1) {
      const topic: KafkaTopic = {
        name: spec.name,
        topicId: randomUUID(),
        state: "CREATING",
        partitionCount: spec.partitionCount,
        profile: spec.profile,
        configs: { ...spec.configs },
        createdAtMillis: this.#clock(),
      };
      const claim = this.#index.claim(topic);
      const put = await this.#metadata.txn(
        {
          compares: [{ key, modRevision: 0 }, ...claim.compares],
          writes: [{ type: "put", key, value: this.#codec.encode(topic) }, ...claim.writes],
          readOnFailure: [key, claimKey],
        },
        { signal },
      );
      if (!put.succeeded) {
        const current = put.current.get(key);
        if (current !== undefined) return this.#refuseExisting(this.#remember(current));
        const claimant = put.current.get(claimKey);
        // Neither held: the record or claim went away in between, or the random id was taken. Try again.
        if (claimant === undefined) continue;
        const holder = this.#index.decode(claimant);
        const holderRecord = await this.#read(holder.name, signal);
        if (holderRecord !== undefined && holderRecord.topic.topicId === holder.topicId) {
          return {
            ok: false,
            reason: "collision",
            message: `Topic '${spec.name}' collides with existing topic: ${holder.name}`,
          };
        }
        // A claim whose topic is gone cannot be written by this registry; drop it and try again.
        this.#logger.warn("dropping a topic claim whose topic is gone", { claim: claimant.key, topic: holder.name });
        await this.#index.dropClaim(claimant, signal);
        continue;
      }
      const created = this.#finishCreate({ topic, revision: put.revision }, signal);
      this.#track(spec.name, created);
      try {
        return { ok: true, topic: await created };
      } catch (error) {
        if (NereusError.hasCode(error, ErrorCode.UNSUPPORTED_STORAGE_PROFILE)) {
          await this.#metadata.txn({
            compares: [{ key, modRevision: put.revision }],
            writes: [{ type: "delete", key }, ...this.#index.release(topic).writes],
          });
          this.#forget(spec.name);
          return { ok: false, reason: "unsupported-profile", message: error.message };
        }
        throw error;
      }
    }
    throw new NereusError(
      ErrorCode.METADATA_CONDITION_FAILED,
      `topic ${spec.name}: its keys kept changing; gave up creating it after ${String(MAX_CREATE_ATTEMPTS)} attempts`,
      {
        retryable: true,
      },
    );
  }

  /** The partition tally (counted by one listing the first time), or undefined when there is no limit. */
  async #partitionTally(signal: AbortSignal | undefined): Promise<PartitionTally | undefined> {
    if (!Number.isFinite(this.#maxPartitions)) return undefined;
    while (this.#tally === undefined) {
      this.#tallyLoading ??= this.list(signal).finally(() => (this.#tallyLoading = undefined));
      await this.#tallyLoading;
    }
    return this.#tally;
  }

  /** Reserves `count` partitions on `tally`; the refusal message when they would pass the limit. */
  #reserve(tally: PartitionTally, count: number): string | undefined {
    const reservation = tally.reserve(count);
    if (reservation.ok) return undefined;
    return `Adding ${String(count)} partitions would bring this broker's ${String(reservation.total)} to ${String(reservation.total + count)}, above its limit of ${String(tally.limit)}.`;
  }

  /**
   * Changes the explicit configs of ACTIVE topic `name` to what `plan` makes of its current ones (one CAS on the
   * topic record, see `#changeActive`). Answers the updated topic, the refusal of `plan`, or undefined when no ACTIVE
   * topic has that name. Storage failures throw; nothing is written before the CAS.
   */
  async alterConfigs(
    name: string,
    plan: (topic: KafkaTopic) => ConfigChangePlan,
    signal?: AbortSignal,
  ): Promise<ConfigChangeOutcome | undefined> {
    const outcome = await this.#changeActive(
      name,
      "changing its configs",
      (topic) => {
        const planned = plan(topic);
        return Promise.resolve(planned.ok ? { ...topic, configs: { ...planned.configs } } : planned);
      },
      signal,
    );
    if (outcome?.ok === true)
      this.#logger.info("topic configs changed", { topic: name, configs: outcome.topic.configs });
    return outcome;
  }

  /**
   * Raises ACTIVE topic `name` to `count` partitions: creates the new partitions' streams one after another in
   * partition order (create-or-get), then CASes the record's partition count (see `#changeActive`). `check` refuses a
   * count the current topic cannot take. Answers the updated topic, the refusal, or undefined when no ACTIVE topic has
   * that name. A crash between the two steps leaves empty streams just above the recorded count: a retry reuses them,
   * and deleting the topic deletes them too. Storage failures throw.
   */
  async addPartitions(
    name: string,
    count: number,
    check: (topic: KafkaTopic) => TopicChangeRefusal | undefined,
    signal?: AbortSignal,
  ): Promise<ConfigChangeOutcome | undefined> {
    let from = 0;
    const tally = await this.#partitionTally(signal);
    let reserved = 0;
    let outcome: ConfigChangeOutcome | undefined;
    try {
      outcome = await this.#changeActive(
        name,
        "adding partitions",
        async (topic) => {
          const refusal = check(topic);
          if (refusal !== undefined) return refusal;
          if (tally !== undefined) {
            tally.settle(reserved, false);
            reserved = 0;
            const limited = this.#reserve(tally, count - topic.partitionCount);
            if (limited !== undefined)
              return { ok: false, errorCode: KafkaErrorCode.POLICY_VIOLATION, message: limited };
            reserved = count - topic.partitionCount;
          }
          for (let partition = topic.partitionCount; partition < count; partition += 1)
            await this.#createPartitionStream(topic, partition, signal);
          from = topic.partitionCount;
          return { ...topic, partitionCount: count };
        },
        signal,
      );
    } finally {
      tally?.settle(reserved, outcome?.ok === true);
    }
    if (outcome?.ok === true) this.#logger.info("partitions added", { topic: name, from, to: count });
    return outcome;
  }

  /**
   * One CAS of ACTIVE topic `name`'s record to what `change` makes of it (or `change`'s refusal); on a lost CAS the
   * record is read and `change` asked again, at most 10 times (then METADATA_CONDITION_FAILED, naming `what`).
   * Undefined when no ACTIVE topic has that name.
   */
  async #changeActive(
    name: string,
    what: string,
    change: (topic: KafkaTopic) => Promise<KafkaTopic | TopicChangeRefusal>,
    signal: AbortSignal | undefined,
  ): Promise<ConfigChangeOutcome | undefined> {
    for (let attempt = 0; attempt < MAX_CONFIG_CAS_ATTEMPTS; attempt += 1) {
      const entry = await this.#read(name, signal);
      if (entry === undefined || entry.topic.state !== "ACTIVE") return undefined;
      const updated = await change(entry.topic);
      if ("ok" in updated) return updated;
      const key = this.keyspace.topicKey(name);
      const result = await this.#metadata.txn(
        {
          compares: [{ key, modRevision: entry.revision }],
          writes: [{ type: "put", key, value: this.#codec.encode(updated) }],
        },
        { signal },
      );
      if (result.succeeded) {
        this.#cacheSet({ topic: updated, revision: result.revision });
        return { ok: true, topic: updated };
      }
    }
    throw new NereusError(
      ErrorCode.METADATA_CONDITION_FAILED,
      `topic ${name}: its record kept changing; gave up ${what} after ${String(MAX_CONFIG_CAS_ATTEMPTS)} attempts`,
    );
  }

  /** Deletes topic `name`: DELETING, then its streams and producer-state checkpoints, then the record. */
  async delete(name: string, signal?: AbortSignal): Promise<DeleteTopicOutcome> {
    const running = this.#pending.get(name);
    if (running !== undefined) await running.catch(() => undefined);
    const entry = await this.#read(name, signal);
    if (entry === undefined) return { ok: false, reason: "unknown" };
    let deleting = entry;
    if (entry.topic.state !== "DELETING") {
      const settled = entry.topic.state === "CREATING" ? await this.#finishCreate(entry, signal) : entry.topic;
      const current = this.#cache.get(name) ?? entry;
      const marked: KafkaTopic = { ...settled, state: "DELETING" };
      const key = this.keyspace.topicKey(name);
      const result = await this.#metadata.txn(
        {
          compares: [{ key, modRevision: current.revision }],
          writes: [{ type: "put", key, value: this.#codec.encode(marked) }],
        },
        { signal },
      );
      if (!result.succeeded) return this.delete(name, signal);
      deleting = { topic: marked, revision: result.revision };
      this.#cacheSet(deleting);
      this.#tally?.removed(marked.partitionCount);
    }
    const deleted = this.#finishDelete(deleting);
    this.#track(name, deleted);
    await deleted;
    return { ok: true, topic: entry.topic };
  }

  /** Reads and caches the record of `name` (any state), or undefined when absent. */
  async #read(name: string, signal?: AbortSignal): Promise<CachedRecord | undefined> {
    const stored = await this.#metadata.get(this.keyspace.topicKey(name), { signal });
    if (stored === undefined) {
      this.#forget(name);
      return undefined;
    }
    return this.#remember(stored);
  }

  #remember(stored: KeyValue): CachedRecord {
    const entry = { topic: this.#codec.decode(stored.value, stored.key), revision: stored.modRevision };
    const known = this.#cache.get(entry.topic.name);
    if (known === undefined || known.revision <= entry.revision) this.#cacheSet(entry);
    return entry;
  }

  #cacheSet(entry: CachedRecord): void {
    const replaced = this.#cache.get(entry.topic.name);
    if (
      replaced !== undefined &&
      replaced.topic.topicId !== entry.topic.topicId &&
      this.#ids.get(replaced.topic.topicId) === entry.topic.name
    ) {
      this.#ids.delete(replaced.topic.topicId);
    }
    this.#cache.set(entry.topic.name, entry);
    this.#ids.set(entry.topic.topicId, entry.topic.name);
  }

  #forget(name: string): void {
    const entry = this.#cache.get(name);
    if (entry === undefined) return;
    this.#cache.delete(name);
    if (this.#ids.get(entry.topic.topicId) === name) this.#ids.delete(entry.topic.topicId);
  }

  /** An ACTIVE topic as is; a CREATING one finished; a DELETING one resumed in the background and hidden. */
  async #settle(entry: CachedRecord): Promise<KafkaTopic | undefined> {
    switch (entry.topic.state) {
      case "ACTIVE":
        return entry.topic;
      case "CREATING": {
        const running = this.#pending.get(entry.topic.name);
        if (running !== undefined) {
          await running.catch(() => undefined);
          return this.cached(entry.topic.name);
        }
        const created = this.#finishCreate(entry);
        this.#track(entry.topic.name, created);
        return created;
      }
      case "DELETING":
        if (!this.#pending.has(entry.topic.name)) {
          const resumed = this.#finishDelete(entry);
          this.#track(entry.topic.name, resumed);
          resumed.catch((error: unknown) =>
            this.#logger.warn("resuming a topic deletion failed", { topic: entry.topic.name, error: String(error) }),
          );
        }
        return undefined;
    }
  }

  #refuseExisting(entry: CachedRecord): CreateTopicOutcome {
    if (entry.topic.state === "DELETING") {
      if (!this.#pending.has(entry.topic.name)) void this.#settle(entry);
      return { ok: false, reason: "deleting", message: `Topic '${entry.topic.name}' is marked for deletion.` };
    }
    if (entry.topic.state === "CREATING" && !this.#pending.has(entry.topic.name)) {
      this.#track(entry.topic.name, this.#finishCreate(entry));
    }
    return { ok: false, reason: "exists", message: `Topic '${entry.topic.name}' already exists.` };
  }

  /** Creates (or finds) every partition stream, then flips the record to ACTIVE. Idempotent. */
  async #finishCreate(entry: CachedRecord, signal?: AbortSignal): Promise<KafkaTopic> {
    const { topic } = entry;
    await this.#forEachPartition(topic, (partition) => this.#createPartitionStream(topic, partition, signal));
    const active: KafkaTopic = { ...topic, state: "ACTIVE" };
    const key = this.keyspace.topicKey(topic.name);
    const result = await this.#metadata.txn(
      {
        compares: [{ key, modRevision: entry.revision }],
        writes: [{ type: "put", key, value: this.#codec.encode(active) }],
        readOnFailure: [key],
      },
      { signal },
    );
    if (result.succeeded) {
      this.#cacheSet({ topic: active, revision: result.revision });
      return active;
    }
    const current = result.current.get(key);
    const now = current === undefined ? undefined : this.#remember(current);
    if (now?.topic.topicId === topic.topicId && now.topic.state === "ACTIVE") return now.topic;
    throw new NereusError(
      ErrorCode.METADATA_CONDITION_FAILED,
      `topic ${topic.name} changed while it was being created`,
      { retryable: true },
    );
  }

  async #finishDelete(entry: CachedRecord): Promise<void> {
    const { topic } = entry;
    for (const listener of this.#deletedListeners) listener(topic);
    await this.#forEachPartition(topic, (partition) => this.#deletePartitionStream(topic, partition));
    // Streams an interrupted CreatePartitions left just above the recorded count (created in order, so no gaps).
    let above = topic.partitionCount;
    while (await this.#deletePartitionStream(topic, above)) above += 1;
    const key = this.keyspace.topicKey(topic.name);
    const unchanged = { key, modRevision: entry.revision };
    const release = this.#index.release(topic);
    let result = await this.#metadata.txn({
      compares: [unchanged, ...release.compares],
      writes: [{ type: "delete", key }, ...release.writes],
      readOnFailure: [key],
    });
    if (!result.succeeded && result.current.get(key)?.modRevision === entry.revision) {
      // The record is unchanged, so the claim is another topic's (see topic-index.ts): leave it.
      result = await this.#metadata.txn({
        compares: [unchanged],
        writes: [{ type: "delete", key }, ...this.#index.releaseId(topic).writes],
      });
    }
    const cached = this.#cache.get(topic.name);
    if (cached?.topic.topicId === topic.topicId) this.#forget(topic.name);
    if (!result.succeeded)
      this.#logger.warn("topic record changed during deletion; left in place", { topic: topic.name });
    this.#logger.info("topic deleted", { topic: topic.name, topicId: topic.topicId, partitions: topic.partitionCount });
  }

  #createPartitionStream(topic: KafkaTopic, partition: number, signal?: AbortSignal): Promise<unknown> {
    return this.#store.createStream(partitionStreamName(topic.topicId, partition), {
      profile: topic.profile,
      attributes: { "kafka.partition": String(partition), "kafka.topic": topic.name, "kafka.topic.id": topic.topicId },
      signal,
    });
  }

  /** Deletes one partition's stream, producer-state checkpoint and log-start record; false when the stream did not exist. */
  async #deletePartitionStream(topic: KafkaTopic, partition: number): Promise<boolean> {
    const streamId = streamIdFromName(partitionStreamName(topic.topicId, partition));
    let existed = true;
    try {
      await this.#store.delete(streamId);
    } catch (error) {
      if (!NereusError.hasCode(error, ErrorCode.STREAM_NOT_FOUND)) throw error;
      existed = false;
    }
    await this.#metadata.txn({
      compares: [],
      writes: [
        { type: "delete", key: this.keyspace.producerStateKey(streamId) },
        { type: "delete", key: this.keyspace.logStartKey(streamId) },
      ],
    });
    return existed;
  }

  async #forEachPartition(topic: KafkaTopic, work: (partition: number) => Promise<unknown>): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < topic.partitionCount) {
        const partition = next;
        next += 1;
        await work(partition);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#concurrency, topic.partitionCount) }, worker));
  }

  #track(name: string, work: Promise<unknown>): void {
    this.#pending.set(name, work);
    const clear = (): void => {
      if (this.#pending.get(name) === work) this.#pending.delete(name);
    };
    work.then(clear, clear);
  }
}
