// GET /admin/v1/topics and /admin/v1/topics/{name}: the Kafka topics from the broker's topic catalog, each partition
// from its stream head (one metadata read per partition), and for one topic each partition's storage details
// (partition-storage.ts). Listings are pages in name order, at most MAX_TOPICS_PER_PAGE topics each.
import { materializationMode } from "../config/broker-config.js";
import type { AdminContext } from "./admin-context.js";
import type { PartitionView, TopicDetail, TopicList, TopicView } from "./admin-views.js";
import { mapBounded } from "./bounded-map.js";
import { describePartitionStorage, materializes } from "./partition-storage.js";
import { type PartitionHead, partitionView, readPartitionHeads } from "./partition-views.js";

/** Default and largest page of GET /admin/v1/topics. */
export const DEFAULT_TOPICS_PER_PAGE = 100;
export const MAX_TOPICS_PER_PAGE = 1_000;
/** Partitions whose storage one describe details at once. */
const DESCRIBES_IN_FLIGHT = 4;

type CatalogTopic = Awaited<ReturnType<AdminContext["kafka"]["topics"]["list"]>>[number];

function topicView(topic: CatalogTopic, partitions: readonly PartitionView[]): TopicView {
  let records = 0;
  let appendedBytes = 0;
  for (const partition of partitions) {
    records += partition.records ?? 0;
    appendedBytes += partition.appendedBytes ?? 0;
  }
  return {
    name: topic.name,
    topicId: topic.topicId,
    partitionCount: topic.partitionCount,
    profile: topic.profile,
    configs: topic.configs,
    records,
    appendedBytes,
    partitions,
  };
}

async function headsOf(context: AdminContext, topic: CatalogTopic, signal?: AbortSignal): Promise<PartitionHead[]> {
  return readPartitionHeads(context.storage.store, topic.topicId, topic.partitionCount, signal);
}

/** A page of topics: names after `after` (exclusive), at most `limit` (1 … MAX_TOPICS_PER_PAGE). */
export async function listTopics(
  context: AdminContext,
  page: { readonly limit: number; readonly after: string | undefined },
  signal?: AbortSignal,
): Promise<TopicList> {
  const all = (await context.kafka.topics.list(signal))
    .filter((topic) => page.after === undefined || topic.name > page.after)
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  const chosen = all.slice(0, page.limit);
  const topics = await mapBounded(chosen, 4, async (topic) => {
    const heads = await headsOf(context, topic, signal);
    return topicView(
      topic,
      heads.map(({ partition, streamId, head }) => partitionView(partition, streamId, head)),
    );
  });
  return { topics, next: all.length > chosen.length ? (chosen.at(-1)?.name ?? null) : null };
}

/** The topic `name` with each partition's storage details, or undefined when there is no such topic. */
export async function describeTopic(
  context: AdminContext,
  name: string,
  signal?: AbortSignal,
): Promise<TopicDetail | undefined> {
  const topic = await context.kafka.topics.lookup(name, signal);
  if (topic === undefined) return undefined;
  const mode = materializationMode(context.config);
  const { metadata } = context.storage;
  const heads = await headsOf(context, topic, signal);
  const partitions = await mapBounded(heads, DESCRIBES_IN_FLIGHT, async ({ partition, streamId, head }) => ({
    ...partitionView(partition, streamId, head),
    storage:
      head === undefined
        ? null
        : await describePartitionStorage(
            metadata,
            context.config.cluster,
            head,
            materializes(mode, head.profile),
            signal,
          ),
  }));
  return { ...topicView(topic, partitions), partitions };
}
