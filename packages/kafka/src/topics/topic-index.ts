// The durable index beside the topic records, so that creating and finding a topic costs the same however many
// topics exist: P/kafka/topic-claims/{collisionForm} names the topic holding a '.'→'_' form (Kafka refuses a name
// whose form another topic holds) and P/kafka/topic-ids/{topicId} names the topic with that id. Both are written in
// the metadata transaction that puts the CREATING record (compared absent, so two brokers creating colliding names
// cannot both win) and deleted in the one that removes the record, so they never outlive or predate it.
//
// Topics created before the index existed have no keys: the first creation or id lookup of a process finds the
// marker P/kafka/topic-index absent and backfills (one scan of the topic records, each record's keys written under
// a compare of its revision), then writes the marker; later ones read the marker once and never scan. Two colliding
// topics from before (possible only when two brokers raced under the old listing check) keep one claim: the first
// in key order. It does not own the metadata store; it reads and writes only the keys above.
import { ErrorCode, type KeyValue, type MetadataStore, NereusError, type TxnCompare, type WriteOp } from "@nereus/core";
import { type RecordCodec } from "@nereus/core/internal";
import type { KafkaBrokerLogger } from "../logging/broker-logger.js";
import type { KafkaKeyspace } from "./kafka-keys.js";
import type { KafkaTopic } from "./kafka-topic.js";
import { topicIndexMarkerCodec } from "./topic-index-marker-codec.js";
import { type TopicReference, topicReferenceCodec } from "./topic-reference-codec.js";

/** What {@link TopicIndex} needs. */
export interface TopicIndexOptions {
  readonly metadata: MetadataStore;
  readonly keyspace: KafkaKeyspace;
  /** The codec of the topic records (backfill decodes them). */
  readonly topicCodec: RecordCodec<KafkaTopic>;
  readonly logger: KafkaBrokerLogger;
  readonly clock: () => number;
}

/** Compares and writes to add to one metadata transaction. */
export interface IndexTxnPart {
  readonly compares: readonly TxnCompare[];
  readonly writes: readonly WriteOp[];
}

const SCAN_PAGE = 500;
const MAX_BACKFILL_ATTEMPTS = 10;

/** The claim and id keys of the topics of one cluster. Stateless but for the memo that the index is complete. */
export class TopicIndex {
  readonly #metadata: MetadataStore;
  readonly #keyspace: KafkaKeyspace;
  readonly #topicCodec: RecordCodec<KafkaTopic>;
  readonly #codec: RecordCodec<TopicReference>;
  readonly #logger: KafkaBrokerLogger;
  readonly #clock: () => number;
  #complete = false;
  #completing: Promise<void> | undefined;

  constructor(options: TopicIndexOptions) {
    this.#metadata = options.metadata;
    this.#keyspace = options.keyspace;
    this.#topicCodec = options.topicCodec;
    this.#codec = topicReferenceCodec(options.keyspace);
    this.#logger = options.logger;
    this.#clock = options.clock;
  }

  /** The claim key and id key of `topic`, both compared absent and put: the part of the txn that creates its record. */
  claim(topic: KafkaTopic): IndexTxnPart {
    const value = this.#codec.encode({ name: topic.name, topicId: topic.topicId });
    const claimKey = this.#keyspace.topicClaimKey(topic.name);
    const idKey = this.#keyspace.topicIdKey(topic.topicId);
    return {
      compares: [
        { key: claimKey, modRevision: 0 },
        { key: idKey, modRevision: 0 },
      ],
      writes: [
        { type: "put", key: claimKey, value },
        { type: "put", key: idKey, value },
      ],
    };
  }

  /**
   * The part of the txn that removes `topic`'s record: its claim compared to be its own and deleted, and its id key
   * deleted. When the claim is another topic's (see the module comment) the txn fails; `releaseId` is the fallback.
   */
  release(topic: KafkaTopic): IndexTxnPart {
    const claimKey = this.#keyspace.topicClaimKey(topic.name);
    return {
      compares: [{ key: claimKey, value: this.#codec.encode({ name: topic.name, topicId: topic.topicId }) }],
      writes: [{ type: "delete", key: claimKey }, ...this.releaseId(topic).writes],
    };
  }

  /** The part of the txn that removes `topic`'s record when its claim is not its own: its id key only. */
  releaseId(topic: KafkaTopic): IndexTxnPart {
    return { compares: [], writes: [{ type: "delete", key: this.#keyspace.topicIdKey(topic.topicId) }] };
  }

  /** The topic a claim or id key read from the store names. */
  decode(stored: KeyValue): TopicReference {
    return this.#codec.decode(stored.value, stored.key);
  }

  /** Deletes the claim `stored` if it is still at its revision (a claim whose topic record is gone). */
  async dropClaim(stored: KeyValue, signal?: AbortSignal): Promise<void> {
    await this.#metadata.txn(
      {
        compares: [{ key: stored.key, modRevision: stored.modRevision }],
        writes: [{ type: "delete", key: stored.key }],
      },
      { signal },
    );
  }

  /** The name of the topic with id `topicId` (one read), or undefined. Completes the index first when it must. */
  async nameOf(topicId: string, signal?: AbortSignal): Promise<string | undefined> {
    const key = this.#keyspace.topicIdKey(topicId);
    let stored = await this.#metadata.get(key, { signal });
    if (stored === undefined && !this.#complete) {
      await this.complete();
      stored = await this.#metadata.get(key, { signal });
    }
    return stored === undefined ? undefined : this.decode(stored).name;
  }

  /**
   * Resolves once every topic record of the cluster has its claim and id keys: at once when this process saw the
   * marker, else after one read of it, else after a backfill. Concurrent callers share one run; a failed run is
   * retried by the next caller.
   */
  complete(): Promise<void> {
    if (this.#complete) return Promise.resolve();
    this.#completing ??= this.#build().then(
      () => {
        this.#complete = true;
      },
      (error: unknown) => {
        this.#completing = undefined;
        throw error;
      },
    );
    return this.#completing;
  }

  async #build(): Promise<void> {
    const markerKey = this.#keyspace.topicIndexKey();
    const markerCodec = topicIndexMarkerCodec(this.#keyspace);
    const marker = await this.#metadata.get(markerKey);
    if (marker !== undefined) {
      markerCodec.decode(marker.value, marker.key);
      return;
    }
    let backfilled = 0;
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#metadata.scan(this.#keyspace.topicsPrefix(), { limit: SCAN_PAGE, startAfter });
      for (const item of page.items) if (await this.#backfill(item)) backfilled += 1;
      const last = page.items[page.items.length - 1];
      if (!page.more || last === undefined) break;
      startAfter = last.key;
    }
    await this.#metadata.txn({
      compares: [],
      writes: [{ type: "put", key: markerKey, value: markerCodec.encode({ completedAtMillis: this.#clock() }) }],
    });
    this.#logger.info("topic index completed", { backfilledTopics: backfilled });
  }

  /** Writes the missing claim and id keys of one topic record, compared on its revision; true when it wrote any. */
  async #backfill(stored: KeyValue): Promise<boolean> {
    let record = stored;
    let needClaim = true;
    let needId = true;
    for (let attempt = 0; attempt < MAX_BACKFILL_ATTEMPTS; attempt += 1) {
      const topic = this.#topicCodec.decode(record.value, record.key);
      const part = this.claim(topic);
      const claimKey = this.#keyspace.topicClaimKey(topic.name);
      const idKey = this.#keyspace.topicIdKey(topic.topicId);
      const keep = (key: string): boolean => (key === claimKey ? needClaim : needId);
      const writes = part.writes.filter((write) => keep(write.key));
      if (writes.length === 0) return false;
      const result = await this.#metadata.txn({
        compares: [
          { key: record.key, modRevision: record.modRevision },
          ...part.compares.filter((compare) => keep(compare.key)),
        ],
        writes,
        readOnFailure: [record.key, claimKey, idKey],
      });
      if (result.succeeded) return true;
      const current = result.current.get(record.key);
      if (current === undefined) return false;
      const claimant = result.current.get(claimKey);
      if (claimant !== undefined && needClaim) {
        needClaim = false;
        const holder = this.decode(claimant);
        if (holder.topicId !== topic.topicId)
          this.#logger.warn("topics collide by '.' versus '_'; the claim stays with the other", {
            topic: topic.name,
            claimedBy: holder.name,
          });
      }
      if (result.current.has(idKey)) needId = false;
      record = current;
    }
    throw new NereusError(
      ErrorCode.METADATA_CONDITION_FAILED,
      `topic record ${record.key} kept changing while the topic index was backfilled`,
      { retryable: true },
    );
  }
}
