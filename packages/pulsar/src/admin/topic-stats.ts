// Topic and subscription statistics in the shape of Pulsar's TopicStats / SubscriptionStats / ConsumerStats: what
// the ledger and the cursors know exactly (entries, backlogs, the consumers the broker has connected, cursor
// properties, acknowledgement holes) and byte sizes estimated from the average entry size where a trim hides the
// exact figure, the connected producers by name and the effective deduplication policy. The topic's message and
// byte counters and rates, in and out, are the broker's (since it started; TopicMessageCounters); per producer,
// consumer and subscription they are not tracked and read 0. A partitioned topic's stats add up its partitions'.
import type { CursorHandle } from "@nereus/cursor";
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import type { Subscription } from "../subscriptions/subscription.js";
import type { TopicName } from "../topics/topic-name.js";
import type { AdminContext } from "./admin-context.js";
import { type AdminResponse, notFound, ok } from "./admin-exchange.js";
import { mapBounded } from "./bounded-parallel.js";
import { partitionsOf } from "./topic-access.js";

const INTERNAL_PROPERTY_PREFIX = "#nereus.";

/** Pulsar's ConsumerStats of one connected consumer. */
interface ConsumerStats {
  readonly consumerName: string;
  readonly availablePermits: number;
  readonly unackedMessages: number;
  readonly priorityLevel: number;
  readonly blockedConsumerOnUnackedMsgs: false;
  readonly msgRateOut: 0;
  readonly msgThroughputOut: 0;
  readonly msgRateRedeliver: 0;
  readonly metadata: Record<string, string>;
}

/** Pulsar's PublisherStats of one connected producer (by name; rates are not tracked). */
interface PublisherStats {
  readonly producerName: string;
  readonly msgRateIn: 0;
  readonly msgThroughputIn: 0;
  readonly averageMsgSize: 0;
}

/** Pulsar's SubscriptionStats of one durable subscription. */
interface SubscriptionStats {
  msgBacklog: number;
  msgBacklogNoDelayed: number;
  backlogSize: number;
  unackedMessages: number;
  readonly type: string;
  readonly activeConsumerName?: string;
  consumers: ConsumerStats[];
  nonContiguousDeletedMessagesRanges: number;
  readonly subscriptionProperties: Record<string, string>;
  readonly isDurable: true;
  readonly durable: true;
  readonly isReplicated: false;
  readonly replicated: false;
  readonly msgRateOut: 0;
  readonly msgThroughputOut: 0;
  readonly msgRateRedeliver: 0;
  readonly msgOutCounter: 0;
  readonly bytesOutCounter: 0;
}

/** Pulsar's TopicStats of one topic or partition (the fields the broker knows; the rest read as absent). */
interface TopicStats {
  storageSize: number;
  backlogSize: number;
  averageMsgSize: number;
  msgRateIn: number;
  msgRateOut: number;
  msgThroughputIn: number;
  msgThroughputOut: number;
  msgInCounter: number;
  bytesInCounter: number;
  msgOutCounter: number;
  bytesOutCounter: number;
  readonly publishers: PublisherStats[];
  readonly waitingPublishers: 0;
  readonly subscriptions: Record<string, SubscriptionStats>;
  readonly replication: Record<string, never>;
  deduplicationStatus: "Enabled" | "Disabled";
  nonContiguousDeletedMessagesRanges: number;
  readonly topicCreationTimeStamp: number;
}

/** GET .../stats: the stats of a non-partitioned topic or one partition (404 for a partitioned topic's name). */
export async function topicStats(context: AdminContext, name: TopicName, signal?: AbortSignal): Promise<AdminResponse> {
  if ((await context.topics.partitioned(name, signal)) !== undefined) {
    throw notFound(`Topic ${name.fullName} is a partitioned topic: use partitioned-stats`);
  }
  return ok(await statsOf(context, name, signal));
}

/**
 * GET .../partitioned-stats: the sum over the partitions, with each partition's stats when `perPartition` (a
 * partition not created yet counts as empty).
 */
export async function partitionedTopicStats(
  context: AdminContext,
  name: TopicName,
  perPartition: boolean,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const partitioned = await context.topics.partitioned(name, signal);
  if (partitioned === undefined) throw notFound(`Partitioned topic ${name.fullName} not found`);
  const partitions = partitionsOf(name, partitioned.partitionCount);
  const stats = await mapBounded(partitions, async (partition) =>
    (await context.topics.ledgerIfExists(partition, signal)) === undefined
      ? emptyStats(partitioned.createdAtMillis)
      : statsOf(context, partition, signal),
  );
  const total = sumOf(stats, partitioned.createdAtMillis);
  const byName = perPartition
    ? Object.fromEntries(partitions.map((partition, index) => [partition.fullName, stats[index]]))
    : {};
  return ok({ ...total, metadata: { partitions: partitioned.partitionCount, deleted: false }, partitions: byName });
}

/** The stats of one existing topic or partition. */
async function statsOf(context: AdminContext, name: TopicName, signal: AbortSignal | undefined): Promise<TopicStats> {
  const ledger = await context.topics.ledger(name, signal);
  const opened = await context.topics.opened(name);
  const end = ledger.bounds().committedEndOffset;
  const entrySize = averageEntrySize(ledger);
  const subscriptions: Record<string, SubscriptionStats> = {};
  let slowest = 0;
  let holes = 0;
  for (const cursor of ledger.cursors.list()) {
    const stats = subscriptionStats(cursor, opened.get(cursor.name), end, entrySize);
    subscriptions[cursor.name] = stats;
    slowest = Math.max(slowest, stats.msgBacklog);
    holes += stats.nonContiguousDeletedMessagesRanges;
  }
  const { broker } = context.topics;
  const publishers = broker.producers
    .attachedNames(name.fullName)
    .map((producerName): PublisherStats => ({ producerName, msgRateIn: 0, msgThroughputIn: 0, averageMsgSize: 0 }));
  return {
    ...broker.messageCounters.trafficOf(name.fullName),
    storageSize: storageSizeOf(ledger),
    backlogSize: Math.round(slowest * entrySize),
    averageMsgSize: entrySize,
    publishers,
    waitingPublishers: 0,
    subscriptions,
    replication: {},
    deduplicationStatus: (await broker.deduplicationEnabled(name.fullName)) ? "Enabled" : "Disabled",
    nonContiguousDeletedMessagesRanges: holes,
    topicCreationTimeStamp: ledger.topic.createdAtMillis,
  };
}

function subscriptionStats(
  cursor: CursorHandle,
  open: Subscription | undefined,
  end: number,
  entrySize: number,
): SubscriptionStats {
  const backlog = cursor.backlog(end);
  const consumers = (open?.consumers() ?? []).map((consumer): ConsumerStats => ({
    consumerName: consumer.consumerName,
    availablePermits: consumer.permits,
    unackedMessages: consumer.unackedEntries,
    priorityLevel: consumer.priorityLevel,
    blockedConsumerOnUnackedMsgs: false,
    msgRateOut: 0,
    msgThroughputOut: 0,
    msgRateRedeliver: 0,
    metadata: {},
  }));
  const active = open?.activeConsumerId;
  return {
    msgBacklog: backlog,
    msgBacklogNoDelayed: backlog,
    backlogSize: Math.round(backlog * entrySize),
    unackedMessages: consumers.reduce((sum, consumer) => sum + consumer.unackedMessages, 0),
    type: open?.type ?? "None",
    activeConsumerName: open?.consumers().find((consumer) => consumer.consumerId === active)?.consumerName,
    consumers,
    nonContiguousDeletedMessagesRanges: ackHolesOf(cursor),
    subscriptionProperties: userPropertiesOf(cursor),
    isDurable: true,
    durable: true,
    isReplicated: false,
    replicated: false,
    msgRateOut: 0,
    msgThroughputOut: 0,
    msgRateRedeliver: 0,
    msgOutCounter: 0,
    bytesOutCounter: 0,
  };
}

/** The ranges acknowledged above the cursor's mark-delete position (Pulsar's non-contiguous deleted ranges). */
export function ackRangesOf(cursor: CursorHandle): Array<{ readonly start: number; readonly end: number }> {
  const { view } = cursor.state;
  return view.base.ranges.unionAbove(view.markDeleteOffset, view.inlineRanges).toRanges();
}

function ackHolesOf(cursor: CursorHandle): number {
  return ackRangesOf(cursor).length;
}

function userPropertiesOf(cursor: CursorHandle): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const [key, value] of cursor.cursorProperties) {
    if (!key.startsWith(INTERNAL_PROPERTY_PREFIX)) properties[key] = value;
  }
  return properties;
}

/** Average stored entry size in bytes (0 before the first entry). */
function averageEntrySize(ledger: ManagedLedger): number {
  const end = ledger.bounds().committedEndOffset;
  return end === 0 ? 0 : ledger.totalSize() / end;
}

/** Bytes of the entries still stored: exact until a trim, then estimated from the average entry size. */
export function storageSizeOf(ledger: ManagedLedger): number {
  const { trimOffset } = ledger.bounds();
  return trimOffset === 0 ? ledger.totalSize() : Math.round(ledger.numberOfEntries() * averageEntrySize(ledger));
}

/** The message counters and rates of a topic, which a partitioned topic's stats add up. */
const COUNTERS = [
  "msgRateIn",
  "msgRateOut",
  "msgThroughputIn",
  "msgThroughputOut",
  "msgInCounter",
  "bytesInCounter",
  "msgOutCounter",
  "bytesOutCounter",
] as const;

function zeroCounters(): Pick<TopicStats, (typeof COUNTERS)[number]> {
  return {
    msgRateIn: 0,
    msgRateOut: 0,
    msgThroughputIn: 0,
    msgThroughputOut: 0,
    msgInCounter: 0,
    bytesInCounter: 0,
    msgOutCounter: 0,
    bytesOutCounter: 0,
  };
}

/** The stats of a topic without entries, subscriptions or producers (a partition not created yet). */
function emptyStats(createdAtMillis: number): TopicStats {
  return {
    ...zeroCounters(),
    storageSize: 0,
    backlogSize: 0,
    averageMsgSize: 0,
    publishers: [],
    waitingPublishers: 0,
    subscriptions: {},
    replication: {},
    deduplicationStatus: "Disabled",
    nonContiguousDeletedMessagesRanges: 0,
    topicCreationTimeStamp: createdAtMillis,
  };
}

/** The partitions' stats added up: sizes and backlogs summed, subscriptions merged by name. */
function sumOf(partitions: readonly TopicStats[], createdAtMillis: number): TopicStats {
  const total = emptyStats(createdAtMillis);
  let bytes = 0;
  let entries = 0;
  for (const partition of partitions) {
    for (const counter of COUNTERS) total[counter] += partition[counter];
    total.storageSize += partition.storageSize;
    total.backlogSize += partition.backlogSize;
    total.nonContiguousDeletedMessagesRanges += partition.nonContiguousDeletedMessagesRanges;
    total.publishers.push(...partition.publishers);
    total.deduplicationStatus = partition.deduplicationStatus;
    if (partition.averageMsgSize > 0) {
      bytes += partition.storageSize;
      entries += partition.storageSize / partition.averageMsgSize;
    }
    for (const [name, stats] of Object.entries(partition.subscriptions)) {
      const sum = total.subscriptions[name];
      if (sum === undefined) {
        total.subscriptions[name] = { ...stats, consumers: [...stats.consumers] };
        continue;
      }
      sum.msgBacklog += stats.msgBacklog;
      sum.msgBacklogNoDelayed += stats.msgBacklogNoDelayed;
      sum.backlogSize += stats.backlogSize;
      sum.unackedMessages += stats.unackedMessages;
      sum.nonContiguousDeletedMessagesRanges += stats.nonContiguousDeletedMessagesRanges;
      sum.consumers.push(...stats.consumers);
    }
  }
  total.averageMsgSize = entries === 0 ? 0 : bytes / entries;
  return total;
}
