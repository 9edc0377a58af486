// Writes a partition's producer-state checkpoint (the producers and the offset they are valid up to), so a later
// load replays only the batches after it. One metadata put; the caller schedules and serializes the writes.
import type { ProducerCheckpoint } from "../producers/producer-checkpoint-codec.js";
import { expireProducers } from "../producers/producer-state.js";
import type { PartitionLogContext } from "./partition-log-context.js";
import type { PartitionState } from "./partition-state.js";

/**
 * Writes the producer state of `state` as its stream's checkpoint (expired producers dropped first), unless the
 * partition is fenced; the batches counted since the last checkpoint go down by those it covers.
 */
export async function writeProducerCheckpoint(context: PartitionLogContext, state: PartitionState): Promise<void> {
  if (state.fence !== undefined) return;
  const endOffset = state.highWatermark;
  const written = state.batchesSinceCheckpoint;
  expireProducers(state.producers, context.clock(), context.producerIdExpirationMs);
  const producers = [...state.producers.values()].sort((left, right) =>
    left.producerId < right.producerId ? -1 : left.producerId > right.producerId ? 1 : 0,
  );
  const checkpoint: ProducerCheckpoint = { streamId: state.streamId, endOffset, producers };
  const key = context.keyspace.producerStateKey(state.streamId);
  await context.metadata.txn({
    compares: [],
    writes: [{ type: "put", key, value: context.checkpointCodec.encode(checkpoint) }],
  });
  state.batchesSinceCheckpoint = Math.max(0, state.batchesSinceCheckpoint - written);
}
