// Each partition of a Kafka topic is one stream (`kafka/{topicId}/{partition}`); its head — one metadata read — tells
// the state, profile, start (trim) and end offsets and bytes appended. A stream that does not exist (a topic still
// being created) is reported as MISSING; other storage errors propagate.
import { ErrorCode, NereusError, type StreamHead, type StreamStore, streamIdFromName } from "@nereus/core";
import { partitionStreamName } from "@nereus/kafka";
import type { PartitionView } from "./admin-views.js";
import { mapBounded } from "./bounded-map.js";

/** Stream heads read at once per request. */
const HEAD_READS_IN_FLIGHT = 16;

/** The stream id of partition `partition` of the topic with id `topicId`. */
export function partitionStreamId(topicId: string, partition: number): string {
  return streamIdFromName(partitionStreamName(topicId, partition));
}

/** The head of `streamId`, or undefined when the stream does not exist. */
export async function readHead(
  store: StreamStore,
  streamId: string,
  signal?: AbortSignal,
): Promise<StreamHead | undefined> {
  try {
    return await store.getHead(streamId, signal === undefined ? {} : { signal });
  } catch (error) {
    if (NereusError.is(error) && error.code === ErrorCode.STREAM_NOT_FOUND) return undefined;
    throw error;
  }
}

/** The view of one partition from its head (undefined: the stream is missing). */
export function partitionView(partition: number, streamId: string, head: StreamHead | undefined): PartitionView {
  if (head === undefined) {
    return {
      partition,
      streamId,
      state: "MISSING",
      profile: null,
      startOffset: null,
      endOffset: null,
      records: null,
      appendedBytes: null,
    };
  }
  return {
    partition,
    streamId,
    state: head.state,
    profile: head.profile,
    startOffset: head.trimOffset,
    endOffset: head.committedEndOffset,
    records: head.committedEndOffset - head.trimOffset,
    appendedBytes: head.cumulativeSize,
  };
}

/** Partition `partition` of a topic with its head (undefined when the stream is missing). */
export interface PartitionHead {
  readonly partition: number;
  readonly streamId: string;
  readonly head: StreamHead | undefined;
}

/** The heads of partitions 0 … `partitionCount` − 1 of the topic with id `topicId`, in partition order. */
export function readPartitionHeads(
  store: StreamStore,
  topicId: string,
  partitionCount: number,
  signal?: AbortSignal,
): Promise<PartitionHead[]> {
  const partitions = Array.from({ length: partitionCount }, (_, partition) => partition);
  return mapBounded(partitions, HEAD_READS_IN_FLIGHT, async (partition) => {
    const streamId = partitionStreamId(topicId, partition);
    return { partition, streamId, head: await readHead(store, streamId, signal) };
  });
}
