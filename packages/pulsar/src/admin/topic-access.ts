// How admin operations reach a topic and its subscriptions through the broker's shared state: whether a name is a
// partitioned topic (and its partitions), the open ledger of an existing topic (404 when it has no incarnation),
// the cursor of a subscription (404 when there is none), and the broker's open Subscription for operations that
// must go through dispatch (a reset disconnects the consumers as a client seek does). Opening a ledger claims the
// topic's cursors for this broker, as serving a client does.
import { ErrorCode, NereusError, type StorageProfile } from "@nereus/core";
import type { CursorHandle } from "@nereus/cursor";
import type { PulsarBrokerContext } from "../broker/pulsar-broker.js";
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import type { Subscription } from "../subscriptions/subscription.js";
import type { PulsarPartitionedTopic } from "../topics/partitioned-topic.js";
import { namespaceOf } from "../topics/policy-resolver.js";
import { type TopicName, parseTopicName, partitionTopicName } from "../topics/topic-name.js";
import { notFound, preconditionFailed } from "./admin-exchange.js";

/** The topics an operation on a name covers: the partitions of a partitioned topic, else the topic itself. */
export interface TopicTargets {
  readonly partitioned: PulsarPartitionedTopic | undefined;
  readonly topics: readonly TopicName[];
}

/** Topic and subscription lookups of the admin operations over one broker's ledgers and subscriptions. */
export class TopicAccess {
  readonly broker: PulsarBrokerContext;

  constructor(broker: PulsarBrokerContext) {
    this.broker = broker;
  }

  /** The partitioned-topic record of `name` (undefined for a partition or a non-partitioned topic). */
  async partitioned(name: TopicName, signal?: AbortSignal): Promise<PulsarPartitionedTopic | undefined> {
    if (name.partitionIndex >= 0) return undefined;
    return this.broker.ledgers.partitionedTopics.get(name, signal);
  }

  /** The partitions of `name` when it is a partitioned topic, else `name` alone. */
  async targets(name: TopicName, signal?: AbortSignal): Promise<TopicTargets> {
    const partitioned = await this.partitioned(name, signal);
    if (partitioned === undefined) return { partitioned, topics: [name] };
    return { partitioned, topics: partitionsOf(name, partitioned.partitionCount) };
  }

  /** The open ledger of the existing topic `name`; 404 when it has no incarnation. */
  async ledger(name: TopicName, signal?: AbortSignal): Promise<ManagedLedger> {
    try {
      return await this.broker.ledgers.open(name, { create: false, signal });
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.STREAM_NOT_FOUND)) throw notFound(`Topic ${name.fullName} not found`);
      throw error;
    }
  }

  /** The storage profile a topic created now gets (its effective policy, else the broker's default). */
  async profileFor(name: TopicName, signal?: AbortSignal): Promise<StorageProfile> {
    return (await this.broker.policies.effective(name, signal)).storageProfile;
  }

  /**
   * The open ledger of `name`, creating the topic when it does not exist and it is a partition of an existing
   * partitioned topic or its namespace's automatic topic creation allows it, as a subscribe would (412 otherwise).
   */
  async ledgerCreating(name: TopicName, signal?: AbortSignal): Promise<ManagedLedger> {
    const { ledgers, policies } = this.broker;
    if ((await ledgers.topics.get(name, signal)) === undefined) {
      const partitionOfExisting = name.partitionIndex >= 0 && (await this.#isPartitionOfExisting(name, signal));
      const auto = partitionOfExisting ? undefined : await policies.autoTopicCreation(namespaceOf(name), signal);
      if (auto?.allowed === false) throw preconditionFailed("Topic does not exist and cannot be auto-created");
      await ledgers.topics.createOrGet(name, await this.profileFor(name, signal), signal);
    }
    return this.ledger(name, signal);
  }

  /** The open ledger of `name`, or undefined when the topic has no incarnation (yet). */
  async ledgerIfExists(name: TopicName, signal?: AbortSignal): Promise<ManagedLedger | undefined> {
    if ((await this.broker.ledgers.topics.get(name, signal)) === undefined) return undefined;
    return this.ledger(name, signal);
  }

  /** True when `partition` is below the partition count of its existing partitioned topic. */
  async #isPartitionOfExisting(partition: TopicName, signal: AbortSignal | undefined): Promise<boolean> {
    const parent = await this.broker.ledgers.partitionedTopics.get(
      parseTopicName(partition.partitionedTopicName),
      signal,
    );
    return parent !== undefined && partition.partitionIndex < parent.partitionCount;
  }

  /** The cursor of subscription `subscription` of `ledger`; 404 when there is none. */
  cursor(ledger: ManagedLedger, subscription: string): CursorHandle {
    const handle = ledger.cursors.get(subscription);
    if (handle === undefined) throw notFound(`Subscription ${subscription} not found`);
    return handle;
  }

  /** The broker's Subscription `subscription` of `ledger` (opened over its existing cursor); 404 without one. */
  async subscription(ledger: ManagedLedger, subscription: string): Promise<Subscription> {
    this.cursor(ledger, subscription);
    return this.broker.subscriptions.open(ledger, subscription, "latest");
  }

  /** The Subscriptions of topic `name` the broker has open, by subscription name. */
  opened(name: TopicName): Promise<Map<string, Subscription>> {
    return this.broker.subscriptions.openedOn(name.fullName);
  }
}

/** Partitions 0 .. count - 1 of the partitioned topic `name`. */
export function partitionsOf(name: TopicName, count: number): TopicName[] {
  return Array.from({ length: count }, (_, index) => partitionTopicName(name, index));
}
