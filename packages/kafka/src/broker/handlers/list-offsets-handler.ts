// ListOffsets (2), v1+: earliest (-2, and earliest-local -4) = the log start (trim offset); latest (-1) = the high
// watermark (= last stable offset, so read_committed gets the same); max timestamp (-3) = the batch with the
// largest timestamp; a timestamp t >= 0 = the first batch whose max timestamp is >= t, narrowed to the exact
// record when the batch can be decoded here (uncompressed or gzip); none ⇒ offset -1. latest-tiered (-5) has no
// tiered storage to report: offset -1.
import { gunzipSync } from "node:zlib";
import { ListOffsetsTimestamp } from "../../protocol/apis/list-offsets/list-offsets-request.js";
import type { ListOffsetsResponsePartition } from "../../protocol/apis/list-offsets/list-offsets-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { type DecodedRecordBatch, decodeRecordBatch } from "../../protocol/records/decode-record-batch.js";
import { CompressionCodec } from "../../protocol/records/record-batch-header.js";
import type { PartitionLog } from "../../log/partition-log.js";
import { type BatchSummary, PARTITION_LEADER_EPOCH } from "../../log/stored-batch.js";
import type { KafkaTopic } from "../../topics/kafka-topic.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { lookupAuthorizedTopic } from "../lookup-authorized-topic.js";
import { AclOperation } from "../../security/acl/acl-types.js";
import { mapStorageError } from "../../log/map-storage-error.js";

/** Decodes a stored batch when this broker can (no compression, or gzip via node:zlib). */
function decodeStored(payload: Uint8Array): DecodedRecordBatch | undefined {
  try {
    return decodeRecordBatch(payload, {
      verifyCrc: false,
      decompress: (codec, data) => {
        if (codec !== CompressionCodec.gzip) throw new TypeError("not decodable here");
        return gunzipSync(data);
      },
    });
  } catch {
    return undefined;
  }
}

export function createListOffsetsHandler(services: BrokerServices): KafkaApiHandler<2> {
  /** Reads the stored batch `batch` back (one entry). */
  const readBatch = async (
    log: PartitionLog,
    topic: KafkaTopic,
    batch: BatchSummary,
  ): Promise<Uint8Array | undefined> => {
    const view = await log.view(topic);
    const [entry] = await log.read(view, batch.baseOffset, 1);
    return entry?.offset === batch.baseOffset ? entry.payload : undefined;
  };

  const lookup = async (
    topic: KafkaTopic,
    partitionIndex: number,
    timestamp: number,
  ): Promise<Omit<ListOffsetsResponsePartition, "partitionIndex">> => {
    const found = (offset: number, at: number) => ({
      errorCode: KafkaErrorCode.NONE,
      oldStyleOffsets: [],
      timestamp: at,
      offset,
      leaderEpoch: PARTITION_LEADER_EPOCH,
    });
    const none = { errorCode: KafkaErrorCode.NONE, oldStyleOffsets: [], timestamp: -1, offset: -1, leaderEpoch: -1 };
    const log = services.logs.get(topic.name, partitionIndex);
    const view = await log.view(topic);
    switch (timestamp) {
      case ListOffsetsTimestamp.earliest:
      case ListOffsetsTimestamp.earliestLocal:
        return found(view.logStartOffset, -1);
      case ListOffsetsTimestamp.latest:
        return found(view.highWatermark, -1);
      case ListOffsetsTimestamp.latestTiered:
        return none;
      case ListOffsetsTimestamp.maxTimestamp: {
        const max = await log.maxTimestamp(topic);
        if (!Number.isFinite(max)) return none;
        const batch = await log.findByTimestamp(topic, max);
        if (batch === undefined) return none;
        const payload = await readBatch(log, topic, batch);
        const decoded = payload === undefined ? undefined : decodeStored(payload);
        const record = decoded?.records.reduce<(typeof decoded.records)[number] | undefined>(
          (best, next) => (best === undefined || next.timestamp > best.timestamp ? next : best),
          undefined,
        );
        return record === undefined
          ? found(batch.baseOffset + batch.recordCount - 1, max)
          : found(record.offset, record.timestamp);
      }
      default: {
        const batch = await log.findByTimestamp(topic, timestamp);
        if (batch === undefined) return none;
        const payload = await readBatch(log, topic, batch);
        const decoded = payload === undefined ? undefined : decodeStored(payload);
        const record = decoded?.records.find((candidate) => candidate.timestamp >= timestamp);
        return record === undefined
          ? found(batch.baseOffset, batch.maxTimestamp)
          : found(record.offset, record.timestamp);
      }
    }
  };

  return {
    async handle(context, request) {
      const access = await services.authorizer.access(context);
      const topics = await Promise.all(
        request.body.topics.map(async (requested) => {
          const resolved = await lookupAuthorizedTopic(
            services,
            access,
            AclOperation.DESCRIBE,
            { name: requested.name },
            context.signal,
          );
          const topic = resolved.kind === "found" ? resolved.topic : undefined;
          const partitions = await Promise.all(
            requested.partitions.map(async (partition): Promise<ListOffsetsResponsePartition> => {
              const failed = (errorCode: number): ListOffsetsResponsePartition => ({
                partitionIndex: partition.partitionIndex,
                errorCode,
                oldStyleOffsets: [],
                timestamp: -1,
                offset: -1,
                leaderEpoch: -1,
              });
              if (resolved.kind === "failed") return failed(resolved.errorCode);
              if (
                topic === undefined ||
                partition.partitionIndex < 0 ||
                partition.partitionIndex >= topic.partitionCount
              ) {
                return failed(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
              }
              if (partition.currentLeaderEpoch > PARTITION_LEADER_EPOCH)
                return failed(KafkaErrorCode.UNKNOWN_LEADER_EPOCH);
              const ownership = services.ownership;
              if (ownership !== undefined && !(await ownership.claimPartition(topic.topicId, partition.partitionIndex)))
                return failed(KafkaErrorCode.NOT_LEADER_OR_FOLLOWER);
              try {
                return {
                  partitionIndex: partition.partitionIndex,
                  ...(await lookup(topic, partition.partitionIndex, partition.timestamp)),
                };
              } catch (error) {
                const mapped = mapStorageError(error);
                services.logger.debug("list offsets failed", {
                  topic: topic.name,
                  partition: partition.partitionIndex,
                  error: mapped.message,
                });
                return failed(mapped.errorCode);
              }
            }),
          );
          return { name: requested.name, partitions };
        }),
      );
      return { throttleTimeMs: 0, topics };
    },
  };
}
