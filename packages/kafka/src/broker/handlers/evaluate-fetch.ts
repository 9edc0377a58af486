// One evaluation of a Fetch (1) request: every requested partition read in request order, whole stored batches
// within maxBytes across the response and partitionMaxBytes per partition, except that the first batch of the first
// non-empty partition is always returned whole (KIP-74). A partition whose read fails answers its mapped error (and
// drops the partition's cached state unless the error says nothing about it). No waiting here: the Fetch handler
// repeats evaluations while it long-polls.
import type { FetchResponsePartition } from "../../protocol/apis/fetch/fetch-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { RecordParts } from "../../protocol/primitives/record-parts.js";
import type { RequestBody } from "../../protocol/supported-apis.js";
import type { KafkaTopic } from "../../topics/kafka-topic.js";
import type { BrokerServices } from "../broker-services.js";
import type { TopicLookup } from "../lookup-topic.js";
import { mapStorageError } from "../../log/map-storage-error.js";

const EMPTY = new Uint8Array(0);

/** One Fetch request, its topics resolved: what every evaluation of it reads. */
export interface FetchRequestPlan {
  readonly services: BrokerServices;
  readonly signal: AbortSignal;
  readonly readCommitted: boolean;
  /** The error of a topic the broker does not know (by id: UNKNOWN_TOPIC_ID; by name: UNKNOWN_TOPIC_OR_PARTITION). */
  readonly unknownTopicError: number;
  readonly maxBytes: number;
  readonly requested: RequestBody<1>["topics"];
  /** One per requested topic entry. */
  readonly lookups: readonly TopicLookup[];
  /** One per requested topic entry: the found topic, else undefined. */
  readonly topics: ReadonlyArray<KafkaTopic | undefined>;
}

/** What one evaluation read. */
export interface FetchEvaluation {
  responses: Array<{ topic: string; topicId: string; partitions: FetchResponsePartition[] }>;
  bytes: number;
  /** Records and bytes returned per requested topic entry that returned any (for the per-topic metrics). */
  traffic: Array<{ topic: string; records: number; bytes: number }>;
  error: boolean;
}

interface PartitionResult {
  readonly data: FetchResponsePartition;
  readonly bytes: number;
  /** Records of the batches returned. */
  readonly records: number;
  readonly error: boolean;
}

function partitionData(
  partitionIndex: number,
  errorCode: number,
  highWatermark: number,
  logStartOffset: number,
  records: Uint8Array | RecordParts,
  readCommitted: boolean,
): FetchResponsePartition {
  return {
    partitionIndex,
    errorCode,
    highWatermark,
    lastStableOffset: highWatermark,
    logStartOffset,
    divergingEpoch: { epoch: -1, endOffset: -1 },
    currentLeader: { leaderId: -1, leaderEpoch: -1 },
    snapshotId: { endOffset: -1, epoch: -1 },
    abortedTransactions: readCommitted ? [] : null,
    preferredReadReplica: -1,
    records,
  };
}

/** Reads every requested partition once. */
export async function evaluateFetch(plan: FetchRequestPlan): Promise<FetchEvaluation> {
  let budget = Math.max(1, plan.maxBytes);
  let bytes = 0;
  let error = false;
  const responses = [];
  const traffic = [];
  for (const [index, requested] of plan.requested.entries()) {
    const topic = plan.topics[index];
    const partitions: FetchResponsePartition[] = [];
    let topicRecords = 0;
    let topicBytes = 0;
    for (const partition of requested.partitions) {
      const result = await fetchPartition(
        plan,
        plan.lookups[index],
        topic,
        partition.partition,
        partition.fetchOffset,
        partition.currentLeaderEpoch,
        Math.max(0, partition.partitionMaxBytes),
        budget,
        bytes === 0,
      );
      partitions.push(result.data);
      topicRecords += result.records;
      topicBytes += result.bytes;
      bytes += result.bytes;
      budget = Math.max(0, budget - result.bytes);
      error ||= result.error;
    }
    responses.push({ topic: requested.topic, topicId: requested.topicId, partitions });
    if (topic !== undefined && topicBytes > 0)
      traffic.push({ topic: topic.name, records: topicRecords, bytes: topicBytes });
  }
  return { responses, bytes, traffic, error };
}

/** Reads one requested partition. */
async function fetchPartition(
  plan: FetchRequestPlan,
  lookup: TopicLookup | undefined,
  topic: KafkaTopic | undefined,
  partitionIndex: number,
  fetchOffset: number,
  currentLeaderEpoch: number,
  partitionMaxBytes: number,
  budget: number,
  first: boolean,
): Promise<PartitionResult> {
  const fail = (errorCode: number, highWatermark = -1, logStartOffset = -1): PartitionResult => ({
    data: partitionData(partitionIndex, errorCode, highWatermark, logStartOffset, EMPTY, plan.readCommitted),
    bytes: 0,
    records: 0,
    error: true,
  });
  if (lookup?.kind === "failed") return fail(lookup.errorCode);
  if (topic === undefined) return fail(plan.unknownTopicError);
  if (partitionIndex < 0 || partitionIndex >= topic.partitionCount)
    return fail(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  if (currentLeaderEpoch > 0) return fail(KafkaErrorCode.UNKNOWN_LEADER_EPOCH);
  const ownership = plan.services.ownership;
  if (ownership !== undefined && !(await ownership.claimPartition(topic.topicId, partitionIndex)))
    return fail(KafkaErrorCode.NOT_LEADER_OR_FOLLOWER);
  const log = plan.services.logs.get(topic.name, partitionIndex);
  try {
    const view = await log.view(topic);
    const { highWatermark, logStartOffset } = view;
    if (fetchOffset < logStartOffset || fetchOffset > highWatermark)
      return fail(KafkaErrorCode.OFFSET_OUT_OF_RANGE, highWatermark, logStartOffset);
    const limit = Math.min(partitionMaxBytes, budget);
    if (fetchOffset === highWatermark || (limit === 0 && !first)) {
      return {
        data: partitionData(
          partitionIndex,
          KafkaErrorCode.NONE,
          highWatermark,
          logStartOffset,
          EMPTY,
          plan.readCommitted,
        ),
        bytes: 0,
        records: 0,
        error: false,
      };
    }
    const entries = await log.read(view, fetchOffset, Math.max(1, limit), plan.signal);
    const chunks: Uint8Array[] = [];
    let total = 0;
    let records = 0;
    for (const entry of entries) {
      const size = entry.payload.byteLength;
      if (total + size > limit && !(first && chunks.length === 0)) break;
      chunks.push(entry.payload);
      total += size;
      records += entry.recordCount;
    }
    // The stored batches go into the response as they are (written part by part, never joined into a copy).
    return {
      data: partitionData(
        partitionIndex,
        KafkaErrorCode.NONE,
        highWatermark,
        logStartOffset,
        new RecordParts(chunks),
        plan.readCommitted,
      ),
      bytes: total,
      records,
      error: false,
    };
  } catch (error) {
    const mapped = mapStorageError(error);
    if (mapped.action !== "none" && mapped.action !== "recover") log.invalidate();
    plan.services.logger.debug("fetch failed", {
      topic: topic.name,
      partition: partitionIndex,
      error: mapped.message,
    });
    return fail(mapped.errorCode);
  }
}
