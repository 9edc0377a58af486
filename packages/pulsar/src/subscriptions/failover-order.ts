// Which consumer of an Exclusive or Failover subscription is the active one, as Apache Pulsar picks it: consumers
// ordered by priority level (lower first), then name, then join order; only those of the best priority level are
// candidates. On a partition of a partitioned topic the partition index picks among them, spreading the partitions'
// active consumers over the candidates. On another topic its name picks on a consistent-hash ring of the
// candidates' names (100 points each), spreading many topics' active consumers; without a name the first is
// active. Pure.
import type { ConsumerState } from "./consumer-state.js";
import { murmur3x86_32 } from "./sticky-key-hash.js";

/** Points of each candidate on the hash ring. */
const RING_POINTS = 100;
const utf8 = new TextEncoder();

/**
 * The active consumer of `consumers` (undefined when there is none). `partitionIndex` < 0 means the topic is not a
 * partition; `topicName` is its full name.
 */
export function chooseActiveConsumer(
  consumers: Iterable<ConsumerState>,
  partitionIndex: number,
  topicName?: string,
): ConsumerState | undefined {
  const ordered = [...consumers].sort(compareFailoverOrder);
  const first = ordered[0];
  if (first === undefined) return undefined;
  const candidates = ordered.filter((consumer) => consumer.priorityLevel === first.priorityLevel);
  if (partitionIndex >= 0) return candidates[partitionIndex % candidates.length];
  if (topicName === undefined) return first;
  return candidates[ringIndex(candidates, topicName)];
}

/** The candidate owning the first ring point at or after the topic name's hash (wrapping around). */
function ringIndex(candidates: readonly ConsumerState[], topicName: string): number {
  // A later point of equal hash replaces an earlier one, as in a sorted map.
  const points = new Map<number, number>();
  candidates.forEach((consumer, index) => {
    for (let point = 0; point < RING_POINTS; point++) points.set(hashOf(`${consumer.name}${String(point)}`), index);
  });
  const target = hashOf(topicName);
  let owner: number | undefined;
  let ownerHash = Infinity;
  let lowest = Infinity;
  let lowestOwner = 0;
  for (const [hash, index] of points) {
    if (hash >= target && hash < ownerHash) [owner, ownerHash] = [index, hash];
    if (hash < lowest) [lowestOwner, lowest] = [index, hash];
  }
  return owner ?? lowestOwner;
}

function hashOf(text: string): number {
  return murmur3x86_32(utf8.encode(text)) & 0x7fffffff;
}

function compareFailoverOrder(left: ConsumerState, right: ConsumerState): number {
  if (left.priorityLevel !== right.priorityLevel) return left.priorityLevel - right.priorityLevel;
  if (left.name !== right.name) return left.name < right.name ? -1 : 1;
  return left.joinSequence - right.joinSequence;
}
