// The committed state of a loaded partition and how it is rebuilt from its stream: producer state from the last
// checkpoint plus the batches replayed after it, the time index, the log start and end. Reads only; the partition
// log (partition-log.ts) owns the state once loaded.
import { ErrorCode, NereusError, streamIdFromName } from "@nereus/core";
import type { ProducerCheckpoint } from "../producers/producer-checkpoint-codec.js";
import { type ProducerEntry, expireProducers, replayBatch } from "../producers/producer-state.js";
import { type KafkaTopic, partitionStreamName } from "../topics/kafka-topic.js";
import type { PartitionLogContext, PartitionView } from "./partition-log-context.js";
import { type BatchSummary, summarizeBatch } from "./stored-batch.js";
import { TimeIndex } from "./time-index.js";

/** The committed state of a loaded partition: a cache of what is committed (any doubt drops it). */
export interface PartitionState extends PartitionView {
  readonly topicId: string;
  logStartOffset: number;
  highWatermark: number;
  readonly producers: Map<bigint, ProducerEntry>;
  readonly timeIndex: TimeIndex;
  batchesSinceCheckpoint: number;
  /** Set while uncertain appends are being recovered: produce is refused. */
  fence: Promise<void> | undefined;
}

/**
 * Loads the committed state of the partition from its stream: the head (log start, log end), producer state from
 * the checkpoint when it lies inside the log, then every batch after it replayed into producer state and the time
 * index. Throws storage errors; STREAM_NOT_ACTIVE when the stream is not active.
 */
export async function loadPartitionState(
  context: PartitionLogContext,
  topic: KafkaTopic,
  topicName: string,
  partition: number,
): Promise<PartitionState> {
  const streamId = streamIdFromName(partitionStreamName(topic.topicId, partition));
  const head = await context.store.getHead(streamId, { signal: context.closing });
  if (head.state !== "ACTIVE") {
    throw new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `partition ${topicName}-${String(partition)} is ${head.state}`, {
      retryable: false,
    });
  }
  const end = head.committedEndOffset;
  const producers = new Map<bigint, ProducerEntry>();
  let replayFrom = head.trimOffset;
  const checkpoint = await readProducerCheckpoint(context, streamId);
  if (checkpoint !== undefined && checkpoint.endOffset >= head.trimOffset && checkpoint.endOffset <= end) {
    for (const producer of checkpoint.producers) producers.set(producer.producerId, producer);
    replayFrom = checkpoint.endOffset;
  }
  const timeIndex = new TimeIndex(replayFrom, context.timeIndexIntervalBytes);
  let replayed = 0;
  for await (const batch of scanBatches(context, streamId, replayFrom, end)) {
    if (batch.producer !== undefined) replayBatch(producers, batch.producer, batch.baseOffset);
    timeIndex.observe(batch);
    replayed += 1;
  }
  expireProducers(producers, context.clock(), context.producerIdExpirationMs);
  context.events.loaded(replayed);
  context.logger.debug("partition loaded", { topic: topicName, partition, streamId, end, replayFrom, replayed });
  return {
    topicId: topic.topicId,
    streamId,
    logStartOffset: head.trimOffset,
    highWatermark: end,
    producers,
    timeIndex,
    batchesSinceCheckpoint: replayed,
    fence: undefined,
  };
}

/** The stored producer-state checkpoint of `streamId`; undefined when there is none or it cannot be read. */
async function readProducerCheckpoint(
  context: PartitionLogContext,
  streamId: string,
): Promise<ProducerCheckpoint | undefined> {
  const key = context.keyspace.producerStateKey(streamId);
  const stored = await context.metadata.get(key, { signal: context.closing });
  if (stored === undefined) return undefined;
  try {
    return context.checkpointCodec.decode(stored.value, stored.key);
  } catch (error) {
    context.logger.warn("ignoring an unreadable producer-state checkpoint", { streamId, error: String(error) });
    return undefined;
  }
}

/** Reads the stored batches of [from, until) in order (whole entries; the first may start before `from`). */
export async function* scanBatches(
  context: PartitionLogContext,
  streamId: string,
  from: number,
  until: number,
): AsyncIterable<BatchSummary> {
  let offset = from;
  while (offset < until) {
    const result = await context.store.read(streamId, offset, {
      maxBytes: context.replayReadBytes,
      maxRecords: 0x7fff_ffff,
      signal: context.closing,
    });
    if (result.entries.length === 0) return;
    for (const entry of result.entries) {
      if (entry.offset >= until) return;
      yield summarizeBatch(entry.payload, entry.offset, entry.recordCount);
    }
    offset = result.nextOffset;
  }
}
