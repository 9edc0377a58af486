// The registry of topic incarnations: one PulsarTopic record per topic (or partition) in the metadata store, each
// incarnation backed by one stream. Creation is CREATING (a CAS that also fixes the incarnation number, the virtual
// ledger id and the storage profile) → stream created (create-or-get) → ACTIVE (CAS); deletion is DELETING (CAS) →
// stream deleted → DELETED tombstone (CAS, removing the stream's producer-sequence checkpoint in the same
// transaction). A crash at any step leaves a state the next call resumes. Every CAS that loses re-reads the record
// and follows what it finds, so concurrent creators agree on one incarnation. It does not own the stores.
import {
  ErrorCode,
  type KeyValue,
  MetadataAmbiguousError,
  type MetadataStore,
  NereusError,
  type StorageProfile,
  type StreamStore,
  type WriteOp,
} from "@nereus/core";
import type { RecordCodec } from "@nereus/core/internal";
import { LedgerIdAllocator } from "./ledger-id-allocator.js";
import { PulsarKeyspace } from "./pulsar-keys.js";
import { type PulsarTopic, TOPIC_STREAM_ATTRIBUTES, topicStreamId, topicStreamName } from "./pulsar-topic.js";
import { topicRecordCodec } from "./topic-record-codec.js";
import type { TopicName } from "./topic-name.js";

/** The part of core's `StreamStore` the registry uses. */
export type TopicStreams = Pick<StreamStore, "createStream" | "delete">;

export interface TopicRegistryOptions {
  readonly metadata: MetadataStore;
  readonly streams: TopicStreams;
  readonly cluster: string;
  /** Wall clock in milliseconds (createdAtMillis). */
  readonly clock?: () => number;
}

/** Outcome of {@link TopicRegistry.createOrGet}. */
export interface CreateOrGetResult {
  readonly topic: PulsarTopic;
  /** True when this call made the incarnation ACTIVE (false: it existed already). */
  readonly created: boolean;
}

interface StoredTopic {
  readonly topic: PulsarTopic;
  readonly modRevision: number;
}

/** Record transitions one call may make before it gives up (each lost CAS re-reads and follows). */
const MAX_TRANSITIONS = 16;

/**
 * Metadata-backed registry of topic incarnations. Invariants: only ACTIVE incarnations are returned; an incarnation
 * number, stream and ledger id belong to one incarnation forever; the profile never changes within an incarnation.
 */
export class TopicRegistry {
  readonly keyspace: PulsarKeyspace;
  readonly #metadata: MetadataStore;
  readonly #streams: TopicStreams;
  readonly #codec: RecordCodec<PulsarTopic>;
  readonly #ledgerIds: LedgerIdAllocator;
  readonly #clock: () => number;

  constructor(options: TopicRegistryOptions) {
    this.keyspace = new PulsarKeyspace(options.cluster);
    this.#metadata = options.metadata;
    this.#streams = options.streams;
    this.#codec = topicRecordCodec(this.keyspace);
    this.#ledgerIds = new LedgerIdAllocator(options.metadata, this.keyspace);
    this.#clock = options.clock ?? Date.now;
  }

  /** The ACTIVE incarnation of `name`, or undefined. A half-done creation or deletion is finished first. */
  async get(name: TopicName, signal?: AbortSignal): Promise<PulsarTopic | undefined> {
    for (let step = 0; step < MAX_TRANSITIONS; step += 1) {
      const stored = await this.#read(name, signal);
      if (stored === undefined || stored.topic.state === "DELETED") return undefined;
      if (stored.topic.state === "ACTIVE") return stored.topic;
      if (stored.topic.state === "CREATING") await this.#finishCreation(name, stored, signal, false);
      else await this.#finishDeletion(name, stored, signal);
    }
    throw contention(name, "read");
  }

  /**
   * The ACTIVE incarnation of `name`, created with `profile` when there is none (incarnation + 1 after a deletion,
   * with a new stream and a new virtual ledger id). An existing incarnation keeps its own profile: compare
   * `topic.profile` when the caller insists on one. UNSUPPORTED_STORAGE_PROFILE when this runtime cannot run
   * `profile` (that incarnation is abandoned as a tombstone; a later creation starts the next one).
   */
  async createOrGet(name: TopicName, profile: StorageProfile, signal?: AbortSignal): Promise<CreateOrGetResult> {
    let ownLedgerId: bigint | undefined;
    for (let step = 0; step < MAX_TRANSITIONS; step += 1) {
      const stored = await this.#read(name, signal);
      if (stored === undefined || stored.topic.state === "DELETED") {
        ownLedgerId = await this.#beginCreation(name, stored, profile, signal);
        continue;
      }
      if (stored.topic.state === "ACTIVE") return { topic: stored.topic, created: false };
      if (stored.topic.state === "DELETING") {
        await this.#finishDeletion(name, stored, signal);
        continue;
      }
      const topic = await this.#finishCreation(name, stored, signal, stored.topic.ledgerId === ownLedgerId);
      if (topic !== undefined) return { topic, created: true };
    }
    throw contention(name, "create");
  }

  /**
   * Deletes the current incarnation of `name` (its stream included) and returns its DELETED tombstone, or
   * undefined when there is none. The tombstone stays, so the next creation is a new incarnation.
   */
  async delete(name: TopicName, signal?: AbortSignal): Promise<PulsarTopic | undefined> {
    for (let step = 0; step < MAX_TRANSITIONS; step += 1) {
      const stored = await this.#read(name, signal);
      if (stored === undefined || stored.topic.state === "DELETED") return undefined;
      if (stored.topic.state === "DELETING") return this.#finishDeletion(name, stored, signal);
      await this.#replace(name, stored, { ...stored.topic, state: "DELETING" }, [], signal);
    }
    throw contention(name, "delete");
  }

  /** The ACTIVE incarnations of a namespace, in key order (one scan; no half-done transition is finished). */
  async list(tenant: string, namespace: string, signal?: AbortSignal): Promise<PulsarTopic[]> {
    const prefix = this.keyspace.namespaceTopicsPrefix(tenant, namespace);
    const topics: PulsarTopic[] = [];
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#metadata.scan(prefix, { limit: 500, startAfter, signal });
      for (const item of page.items) {
        const topic = this.#codec.decode(item.value, item.key);
        if (topic.state === "ACTIVE") topics.push(topic);
      }
      if (!page.more || page.items.length === 0) return topics;
      startAfter = page.items[page.items.length - 1]?.key;
    }
  }

  async #read(name: TopicName, signal: AbortSignal | undefined): Promise<StoredTopic | undefined> {
    const item: KeyValue | undefined = await this.#metadata.get(this.keyspace.topicKey(name), { signal });
    if (item === undefined) return undefined;
    return { topic: this.#codec.decode(item.value, item.key), modRevision: item.modRevision };
  }

  /**
   * Writes the CREATING record of the next incarnation over a tombstone (or nothing), with a new ledger id; returns
   * that ledger id (whether or not the CAS won: the caller re-reads and follows the record).
   */
  async #beginCreation(
    name: TopicName,
    stored: StoredTopic | undefined,
    profile: StorageProfile,
    signal: AbortSignal | undefined,
  ): Promise<bigint> {
    const incarnation = (stored?.topic.incarnation ?? 0) + 1;
    const ledgerId = await this.#ledgerIds.allocate(signal);
    const streamName = topicStreamName(name.fullName, incarnation);
    const topic: PulsarTopic = {
      name: name.fullName,
      incarnation,
      state: "CREATING",
      streamName,
      streamId: topicStreamId(name.fullName, incarnation),
      ledgerId,
      profile,
      createdAtMillis: this.#clock(),
    };
    await this.#replace(name, stored, topic, [], signal);
    return ledgerId;
  }

  /**
   * Creates the stream a CREATING record names and moves the record to ACTIVE; undefined when the CAS lost. When
   * the runtime cannot run the record's profile, a creation this call began (`own`) is abandoned as a tombstone, so
   * a later creation may choose again; another creator's is left to it.
   */
  async #finishCreation(
    name: TopicName,
    stored: StoredTopic,
    signal: AbortSignal | undefined,
    own: boolean,
  ): Promise<PulsarTopic | undefined> {
    const { topic } = stored;
    try {
      await this.#streams.createStream(topic.streamName, {
        profile: topic.profile,
        attributes: TOPIC_STREAM_ATTRIBUTES,
        signal,
      });
    } catch (error) {
      if (own && NereusError.hasCode(error, ErrorCode.UNSUPPORTED_STORAGE_PROFILE)) {
        await this.#replace(name, stored, { ...topic, state: "DELETED" }, [], signal);
      }
      throw error;
    }
    const active: PulsarTopic = { ...topic, state: "ACTIVE" };
    return (await this.#replace(name, stored, active, [], signal)) ? active : undefined;
  }

  /** Deletes a DELETING record's stream and leaves the tombstone; returns it (if its CAS lost, the caller re-reads). */
  async #finishDeletion(name: TopicName, stored: StoredTopic, signal: AbortSignal | undefined): Promise<PulsarTopic> {
    const { topic } = stored;
    try {
      await this.#streams.delete(topic.streamId, { signal });
    } catch (error) {
      // A creation that never reached its stream leaves nothing to delete.
      if (!NereusError.hasCode(error, ErrorCode.STREAM_NOT_FOUND)) throw error;
    }
    const dedup: WriteOp = { type: "delete", key: this.keyspace.dedupKey(topic.streamId) };
    const tombstone: PulsarTopic = { ...topic, state: "DELETED" };
    await this.#replace(name, stored, tombstone, [dedup], signal);
    return tombstone;
  }

  /**
   * CAS of the record from `stored` (absent: put-if-absent) to `next`, with `extra` writes. Returns whether it
   * applied; a lost response counts as not applied (the caller re-reads and follows what it finds).
   */
  async #replace(
    name: TopicName,
    stored: StoredTopic | undefined,
    next: PulsarTopic,
    extra: readonly WriteOp[],
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    const key = this.keyspace.topicKey(name);
    try {
      const result = await this.#metadata.txn(
        {
          compares: [{ key, modRevision: stored?.modRevision ?? 0 }],
          writes: [{ type: "put", key, value: this.#codec.encode(next) }, ...extra],
        },
        { signal },
      );
      return result.succeeded;
    } catch (error) {
      if (MetadataAmbiguousError.isAmbiguous(error)) return false;
      throw error;
    }
  }
}

function contention(name: TopicName, what: string): NereusError {
  return new NereusError(
    ErrorCode.METADATA_CONDITION_FAILED,
    `topic ${name.fullName}: could not ${what} it (its record kept changing)`,
    { retryable: true },
  );
}
