// Which consumer of an Exclusive or Failover subscription is the active one: consumers ordered by priority level
// (lower first), then name, then join order. Without a partition index the first is active; on a partition of a
// partitioned topic the partition index picks among the consumers of the best priority level, spreading the
// partitions' active consumers over them. Pure.
import type { ConsumerState } from "./consumer-state.js";

/** The active consumer of `consumers` (undefined when there is none); `partitionIndex` < 0 means none. */
export function chooseActiveConsumer(
  consumers: Iterable<ConsumerState>,
  partitionIndex: number,
): ConsumerState | undefined {
  const ordered = [...consumers].sort(compareFailoverOrder);
  const first = ordered[0];
  if (first === undefined || partitionIndex < 0) return first;
  const bestLevel = ordered.filter((consumer) => consumer.priorityLevel === first.priorityLevel).length;
  return ordered[partitionIndex % bestLevel];
}

function compareFailoverOrder(left: ConsumerState, right: ConsumerState): number {
  if (left.priorityLevel !== right.priorityLevel) return left.priorityLevel - right.priorityLevel;
  if (left.name !== right.name) return left.name < right.name ? -1 : 1;
  return left.joinSequence - right.joinSequence;
}
