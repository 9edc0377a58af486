// Consumer-group lag: for each partition a group committed an offset for, the partition's end offset (its stream
// head) minus the committed offset. Shared by the admin API and the `nereus_kafka_consumer_group_lag` metric. One
// reading lists the topics once and reads each partition's head at most once, whatever the number of groups.
// Bounded: at most `maxPartitions` group-partitions get an end offset per reading, taken in group id order, then
// topic and partition order; the rest are counted as omitted (their lag is not computed).
import type { CommittedOffset, GroupListing } from "@nereus/kafka";
import type { AdminContext } from "./admin-context.js";
import { mapBounded } from "./bounded-map.js";
import { partitionStreamId, readHead } from "./partition-views.js";

/** Group-partitions one reading computes lag for, unless told otherwise. */
export const MAX_LAG_PARTITIONS = 10_000;
const HEAD_READS_IN_FLIGHT = 16;
const GROUP_READS_IN_FLIGHT = 8;

/** One committed offset of a group, with its partition's end offset (undefined: the partition does not exist). */
export interface GroupPartitionLag {
  readonly committed: CommittedOffset;
  readonly endOffset: number | undefined;
}

/** A group with its committed offsets; `partitions` is undefined when the bound left the group out. */
export interface GroupLag {
  readonly group: GroupListing;
  readonly committedPartitions: number;
  readonly partitions: readonly GroupPartitionLag[] | undefined;
}

/** A reading over several groups. */
export interface GroupLagReading {
  readonly groups: readonly GroupLag[];
  /** Group-partitions whose lag was not computed because of the bound. */
  readonly omittedPartitions: number;
}

/** endOffset − committed offset, or undefined when the end is unknown. */
export function lagOf(partition: GroupPartitionLag): number | undefined {
  return partition.endOffset === undefined ? undefined : partition.endOffset - partition.committed.committedOffset;
}

function sortedOffsets(offsets: ReadonlyMap<string, ReadonlyMap<number, CommittedOffset>>): CommittedOffset[] {
  return [...offsets.values()]
    .flatMap((partitions) => [...partitions.values()])
    .sort((left, right) =>
      left.topic !== right.topic ? (left.topic < right.topic ? -1 : 1) : left.partition - right.partition,
    );
}

/** Reads end offsets of partitions named by topic, each head at most once. */
class EndOffsets {
  readonly #context: AdminContext;
  readonly #signal: AbortSignal | undefined;
  #topics: Promise<Map<string, { topicId: string; partitionCount: number }>> | undefined;
  readonly #ends = new Map<string, Promise<number | undefined>>();

  constructor(context: AdminContext, signal: AbortSignal | undefined) {
    this.#context = context;
    this.#signal = signal;
  }

  endOffset(topic: string, partition: number): Promise<number | undefined> {
    const key = `${topic}\u0000${String(partition)}`;
    let end = this.#ends.get(key);
    if (end === undefined) {
      end = this.#read(topic, partition);
      this.#ends.set(key, end);
    }
    return end;
  }

  async #read(topicName: string, partition: number): Promise<number | undefined> {
    this.#topics ??= this.#context.kafka.topics
      .list(this.#signal)
      .then((topics) => new Map(topics.map((topic) => [topic.name, topic])));
    const topic = (await this.#topics).get(topicName);
    if (topic === undefined || partition >= topic.partitionCount) return undefined;
    const head = await readHead(this.#context.storage.store, partitionStreamId(topic.topicId, partition), this.#signal);
    return head?.committedEndOffset;
  }
}

/**
 * The lag of `groups` (in the order given), computing end offsets for at most `maxPartitions` group-partitions.
 * Throws storage errors.
 */
export async function readGroupLag(
  context: AdminContext,
  groups: readonly GroupListing[],
  options: { readonly maxPartitions?: number; readonly signal?: AbortSignal } = {},
): Promise<GroupLagReading> {
  const { signal } = options;
  const committed = await mapBounded(groups, GROUP_READS_IN_FLIGHT, async (group) =>
    sortedOffsets(await context.coordinator.committedOffsets(group.groupId, signal === undefined ? {} : { signal })),
  );
  const ends = new EndOffsets(context, signal);
  let budget = options.maxPartitions ?? MAX_LAG_PARTITIONS;
  let omittedPartitions = 0;
  const chosen = groups.map((group, index) => {
    const offsets = committed[index] ?? [];
    if (offsets.length > budget) {
      omittedPartitions += offsets.length;
      budget = 0;
      return { group, offsets, computed: false };
    }
    budget -= offsets.length;
    return { group, offsets, computed: true };
  });
  const result = await mapBounded(chosen, 1, async ({ group, offsets, computed }) => ({
    group,
    committedPartitions: offsets.length,
    partitions: computed
      ? await mapBounded(offsets, HEAD_READS_IN_FLIGHT, async (offset) => ({
          committed: offset,
          endOffset: await ends.endOffset(offset.topic, offset.partition),
        }))
      : undefined,
  }));
  return { groups: result, omittedPartitions };
}
