// Opens the managed ledgers of one broker: resolves a topic name to its incarnation (creating it when asked, with
// the storage profile an explicit choice, the topic or namespace policy, or the broker default names), claims the
// incarnation's cursors for this process and keeps one open ledger per topic, shared by concurrent opens. A failed
// or closed ledger is replaced on the next open. Deleting a topic closes its ledger first. It owns the ledgers and
// the cursor store it opened; not the metadata, object or stream stores.
import {
  ErrorCode,
  type MetadataStore,
  NereusError,
  type ObjectStore,
  type StorageProfile,
  type StorageProfileName,
  type StreamStore,
} from "@nereus/core";
import { canonicalizeProfile } from "@nereus/core/internal";
import { type CursorLimits, type CursorStore, createCursorStore } from "@nereus/cursor";
import { PartitionedTopicRegistry } from "../topics/partitioned-topic-registry.js";
import type { PulsarTopic } from "../topics/pulsar-topic.js";
import { type TopicName, parseTopicName } from "../topics/topic-name.js";
import { TopicRegistry } from "../topics/topic-registry.js";
import { AppendSlots } from "./append-slots.js";
import { topicNotFound } from "./ledger-errors.js";
import { ManagedLedger } from "./managed-ledger.js";
import type { ManagedLedgerLimits } from "./managed-ledger-options.js";

export interface ManagedLedgerFactoryOptions {
  readonly metadata: MetadataStore;
  /** Holds cursor snapshots. */
  readonly objects: ObjectStore;
  readonly streams: StreamStore;
  readonly cluster: string;
  /** Profile of a new topic when neither the caller nor the policy names one. */
  readonly defaultProfile: StorageProfileName;
  /** Topic or namespace policy: the profile a new topic gets, or undefined for the default. */
  readonly profilePolicy?: (topic: TopicName) => StorageProfileName | undefined;
  readonly cursorLimits?: Partial<CursorLimits>;
  readonly ledgerLimits?: Partial<ManagedLedgerLimits>;
  /** Appends the factory's ledgers have in the store at once; the others wait (default 512). */
  readonly maxAppendsInFlight?: number;
  /** Wall clock in milliseconds (tests pass a manual one). */
  readonly clock?: () => number;
}

export interface OpenLedgerOptions {
  /** Create the topic when it does not exist (default true); false fails with TOPIC_NOT_FOUND instead. */
  readonly create?: boolean;
  /** The profile a topic created by this call gets, overriding policy and default. */
  readonly profile?: StorageProfileName;
  readonly signal?: AbortSignal;
}

/** The open managed ledgers of one broker. */
export class ManagedLedgerFactory implements AsyncDisposable {
  readonly topics: TopicRegistry;
  readonly partitionedTopics: PartitionedTopicRegistry;
  readonly cursorStore: CursorStore;
  readonly #streams: StreamStore;
  readonly #defaultProfile: StorageProfile;
  readonly #profilePolicy: ((topic: TopicName) => StorageProfileName | undefined) | undefined;
  readonly #ledgerLimits: Partial<ManagedLedgerLimits> | undefined;
  readonly #appendSlots: AppendSlots;
  readonly #opening = new Map<string, Promise<ManagedLedger>>();
  #closed = false;

  /** Checks the options (INVALID_ARGUMENT, UNSUPPORTED_STORAGE_PROFILE for an unknown default); no I/O. */
  constructor(options: ManagedLedgerFactoryOptions) {
    this.#defaultProfile = canonicalizeProfile(options.defaultProfile);
    this.#profilePolicy = options.profilePolicy;
    this.#streams = options.streams;
    this.#ledgerLimits = options.ledgerLimits;
    this.#appendSlots = new AppendSlots(options.maxAppendsInFlight);
    this.topics = new TopicRegistry({
      metadata: options.metadata,
      streams: options.streams,
      cluster: options.cluster,
      clock: options.clock,
    });
    this.partitionedTopics = new PartitionedTopicRegistry(options.metadata, this.topics.keyspace, options.clock);
    this.cursorStore = createCursorStore({
      metadata: options.metadata,
      objects: options.objects,
      streams: options.streams,
      cluster: options.cluster,
      limits: options.cursorLimits,
      now: options.clock,
    });
  }

  /** The profile a topic created now would get: `explicit`, else the policy's, else the default. */
  profileFor(topic: TopicName, explicit?: StorageProfileName): StorageProfile {
    return canonicalizeProfile(explicit ?? this.#profilePolicy?.(topic) ?? this.#defaultProfile);
  }

  /**
   * The open ledger of `name` (a topic name as clients send it, or a parsed one), opening it when needed: its
   * incarnation is looked up or created, its cursors claimed for this process (which fences any other process's
   * cursor writes on it). Concurrent opens of one topic share one ledger.
   */
  async open(name: string | TopicName, options: OpenLedgerOptions = {}): Promise<ManagedLedger> {
    this.#checkOpen();
    const topic = typeof name === "string" ? parseTopicName(name) : name;
    const pending = this.#opening.get(topic.fullName);
    if (pending !== undefined) {
      const ledger = await pending.catch(() => undefined);
      if (ledger !== undefined && ledger.state !== "CLOSED" && ledger.state !== "FAILED") return ledger;
      if (this.#opening.get(topic.fullName) === pending) {
        this.#opening.delete(topic.fullName);
        await ledger?.close();
      }
      return this.open(topic, options);
    }
    const opening = this.#openLedger(topic, options);
    this.#opening.set(topic.fullName, opening);
    opening.catch(() => {
      if (this.#opening.get(topic.fullName) === opening) this.#opening.delete(topic.fullName);
    });
    return opening;
  }

  /** The open ledger of `name`, if this factory has one (no I/O). */
  async opened(name: string | TopicName): Promise<ManagedLedger | undefined> {
    const topic = typeof name === "string" ? parseTopicName(name) : name;
    return this.#opening.get(topic.fullName)?.catch(() => undefined);
  }

  /** Closes the open ledger of `name`, if any (its incarnation stays). */
  async closeLedger(name: string | TopicName): Promise<void> {
    const topic = typeof name === "string" ? parseTopicName(name) : name;
    const pending = this.#opening.get(topic.fullName);
    this.#opening.delete(topic.fullName);
    const ledger = await pending?.catch(() => undefined);
    await ledger?.close();
  }

  /**
   * Deletes the topic `name`: closes its open ledger, then deletes its incarnation (stream included). Returns the
   * deleted incarnation, or undefined when the topic did not exist. MessageIds of it fail on their ledger id from
   * then on, also after the topic is created again.
   */
  async delete(name: string | TopicName, signal?: AbortSignal): Promise<PulsarTopic | undefined> {
    this.#checkOpen();
    const topic = typeof name === "string" ? parseTopicName(name) : name;
    await this.closeLedger(topic);
    return this.topics.delete(topic, signal);
  }

  /** Closes every open ledger and the cursor store. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const pending = [...this.#opening.values()];
    this.#opening.clear();
    await Promise.all(pending.map(async (opening) => (await opening.catch(() => undefined))?.close()));
    await this.cursorStore.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #openLedger(name: TopicName, options: OpenLedgerOptions): Promise<ManagedLedger> {
    const { signal } = options;
    const topic =
      options.create === false
        ? await this.topics.get(name, signal)
        : (await this.topics.createOrGet(name, this.profileFor(name, options.profile), signal)).topic;
    if (topic === undefined) throw topicNotFound(name.fullName);
    const head = await this.#streams.getHead(topic.streamId, { signal });
    const cursors = await this.cursorStore.openStream(topic.streamId, { signal });
    const ledger = new ManagedLedger({
      topic,
      streams: this.#streams,
      cursors,
      head,
      limits: this.#ledgerLimits,
      appendSlots: this.#appendSlots,
    });
    if (this.#closed) {
      await ledger.close();
      throw closedError();
    }
    return ledger;
  }

  #checkOpen(): void {
    if (this.#closed) throw closedError();
  }
}

function closedError(): NereusError {
  return new NereusError(ErrorCode.STORAGE_CLOSED, "the managed ledger factory is closed", { retryable: false });
}
