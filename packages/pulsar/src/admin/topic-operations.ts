// Topic lifecycle through the admin API: listing a namespace's topics (each partition of a partitioned topic is
// one) and partitioned topics, creating a non-partitioned topic or a partitioned one with its partitions, the
// partitioned metadata, and deleting either (with the topic's policies). A deletion without `force` is refused (412)
// while producers or consumers are connected; the subscriptions the broker has open on a deleted topic are closed,
// their consumers disconnected; a producer still connected fails its next send. New topics get their effective
// storage-profile policy.
import { type TopicName, parseTopicName } from "../topics/topic-name.js";
import type { AdminContext } from "./admin-context.js";
import { type AdminResponse, NO_CONTENT, conflict, notFound, ok, preconditionFailed } from "./admin-exchange.js";
import { mapBounded } from "./bounded-parallel.js";
import { partitionsOf } from "./topic-access.js";

/** Most partitions a partitioned topic created through the admin API may have (each is created at once). */
const MAX_ADMIN_PARTITIONS = 4096;
const SCAN_PAGE = 500;

/** The topics of a namespace (partitions included), by full name. */
export async function listTopics(
  context: AdminContext,
  tenant: string,
  namespace: string,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const topics = await context.topics.broker.ledgers.topics.list(tenant, namespace, signal);
  return ok(topics.map((topic) => topic.name));
}

/** The partitioned topics of a namespace, by full name. */
export async function listPartitionedTopics(
  context: AdminContext,
  tenant: string,
  namespace: string,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const keyspace = context.topics.broker.ledgers.topics.keyspace;
  const prefix = keyspace.namespacePartitionedTopicsPrefix(tenant, namespace);
  const names: string[] = [];
  let startAfter: string | undefined;
  for (;;) {
    const page = await context.metadata.scan(prefix, { limit: SCAN_PAGE, startAfter, signal });
    for (const item of page.items) names.push(keyspace.parsePartitionedTopicKey(item.key));
    if (!page.more || page.items.length === 0) return ok(names);
    startAfter = page.items[page.items.length - 1]?.key;
  }
}

/** Creates the non-partitioned topic `name`; 409 when it (or a partitioned topic of that name) exists. */
export async function createTopic(
  context: AdminContext,
  name: TopicName,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const { topics } = context;
  if ((await topics.partitioned(name, signal)) !== undefined) throw conflict("This topic already exists");
  if (name.partitionIndex >= 0) {
    const parent = await topics.broker.ledgers.partitionedTopics.get(parseTopicName(name.partitionedTopicName), signal);
    if (parent !== undefined && name.partitionIndex < parent.partitionCount) {
      throw conflict(`${name.fullName} is a partition of the partitioned topic ${parent.name}`);
    }
  }
  const { created } = await topics.broker.ledgers.topics.createOrGet(
    name,
    await topics.profileFor(name, signal),
    signal,
  );
  if (!created) throw conflict("This topic already exists");
  return NO_CONTENT;
}

/** Creates the partitioned topic `name` with `count` partitions (each partition's incarnation included). */
export async function createPartitionedTopic(
  context: AdminContext,
  name: TopicName,
  count: number,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  if (name.partitionIndex >= 0) {
    throw preconditionFailed(`${name.fullName} is a partition name; a partitioned topic cannot have one`);
  }
  if (count > MAX_ADMIN_PARTITIONS) {
    throw preconditionFailed(`Number of partitions must be at most ${String(MAX_ADMIN_PARTITIONS)}`);
  }
  const ledgers = context.topics.broker.ledgers;
  if ((await ledgers.topics.get(name, signal)) !== undefined) throw conflict("This topic already exists");
  const change = await ledgers.partitionedTopics.create(name, count, signal);
  if (!change.ok) throw conflict("This topic already exists");
  const profile = await context.topics.profileFor(name, signal);
  await mapBounded(partitionsOf(name, count), (partition) => ledgers.topics.createOrGet(partition, profile, signal));
  return NO_CONTENT;
}

/** `{"partitions": N}` of `name` (0 for a topic that is not partitioned, as Pulsar answers). */
export async function partitionedMetadata(
  context: AdminContext,
  name: TopicName,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const partitioned = await context.topics.partitioned(name, signal);
  return ok({ partitions: partitioned?.partitionCount ?? 0, deleted: false });
}

/** Deletes the non-partitioned topic (or partition) `name`; 404 when absent, 412 when consumers are connected. */
export async function deleteTopic(
  context: AdminContext,
  name: TopicName,
  force: boolean,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const { topics } = context;
  if ((await topics.partitioned(name, signal)) !== undefined) {
    throw preconditionFailed(`${name.fullName} is a partitioned topic: delete it through /partitions`);
  }
  if ((await topics.broker.ledgers.topics.get(name, signal)) === undefined) {
    throw notFound(`Topic ${name.fullName} not found`);
  }
  await closeSubscriptions(context, [name], force);
  await topics.broker.ledgers.delete(name, signal);
  if (name.partitionIndex < 0) {
    await topics.broker.policies.store.removeTopicPolicies(name, signal);
    await topics.broker.auth.permissions.removeTopic(name, signal);
  }
  return NO_CONTENT;
}

/** Deletes the partitioned topic `name`: its partitions, then its metadata; 404 when it is not partitioned. */
export async function deletePartitionedTopic(
  context: AdminContext,
  name: TopicName,
  force: boolean,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const { topics } = context;
  const partitioned = await topics.partitioned(name, signal);
  if (partitioned === undefined) throw notFound(`Partitioned topic ${name.fullName} not found`);
  const partitions = partitionsOf(name, partitioned.partitionCount);
  await closeSubscriptions(context, partitions, force);
  await mapBounded(partitions, (partition) => topics.broker.ledgers.delete(partition, signal));
  await topics.broker.ledgers.partitionedTopics.delete(name, signal);
  await topics.broker.policies.store.removeTopicPolicies(name, signal);
  await topics.broker.auth.permissions.removeTopic(name, signal);
  return NO_CONTENT;
}

/**
 * Closes the broker's open subscriptions of `names` (disconnecting their consumers) and forgets them. Without
 * `force`, 412 before anything is closed when any of them has a consumer.
 */
async function closeSubscriptions(context: AdminContext, names: readonly TopicName[], force: boolean): Promise<void> {
  const opened = await Promise.all(
    names.map(async (name) => ({ name, subscriptions: await context.topics.opened(name) })),
  );
  if (!force) {
    if (names.some((name) => context.topics.broker.producers.attachedNames(name.fullName).length > 0)) {
      throw preconditionFailed("Topic has active producers/subscriptions");
    }
    for (const { subscriptions } of opened) {
      for (const subscription of subscriptions.values()) {
        if (subscription.consumers().length > 0) throw preconditionFailed("Topic has active producers/subscriptions");
      }
    }
  }
  for (const { name, subscriptions } of opened) {
    for (const [subscriptionName, subscription] of subscriptions) {
      context.topics.broker.subscriptions.forget(name.fullName, subscriptionName, subscription);
      await subscription.close();
    }
  }
}
