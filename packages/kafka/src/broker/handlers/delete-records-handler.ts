// DeleteRecords (21), v0-2: for each topic partition, every record below the given offset (-1 = the high
// watermark) is deleted by raising its stream's trim offset, which becomes the log start that ListOffsets
// (earliest), Fetch and Produce report. An offset at or below the log start changes nothing and answers the log
// start. As Kafka: unknown topics or partitions ⇒ UNKNOWN_TOPIC_OR_PARTITION, an offset above the high watermark
// (or negative other than -1) ⇒ OFFSET_OUT_OF_RANGE, a topic whose cleanup.policy does not include "delete" ⇒
// POLICY_VIOLATION; a storage failure (the topic lookup's too, lookup-topic.ts) is mapped once
// (map-storage-error.ts). The low watermark of a failed partition is -1. Deleting is logical: the bytes stay in
// storage until a collector reclaims them.
import type { DeleteRecordsResponsePartition } from "../../protocol/apis/delete-records/delete-records-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { allowsRecordDeletion } from "../../topics/topic-configs.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { lookupAuthorizedTopic } from "../lookup-authorized-topic.js";
import { AclOperation } from "../../security/acl/acl-types.js";
import { mapStorageError } from "../../log/map-storage-error.js";

export function createDeleteRecordsHandler(services: BrokerServices): KafkaApiHandler<21> {
  return {
    async handle(context, request) {
      const access = await services.authorizer.access(context);
      const topics = await Promise.all(
        request.body.topics.map(async (requested) => {
          const resolved = await lookupAuthorizedTopic(
            services,
            access,
            AclOperation.DELETE,
            { name: requested.name },
            context.signal,
          );
          const partitions = await Promise.all(
            requested.partitions.map(async ({ partitionIndex, offset }): Promise<DeleteRecordsResponsePartition> => {
              const failed = (errorCode: number): DeleteRecordsResponsePartition => ({
                partitionIndex,
                lowWatermark: -1,
                errorCode,
              });
              if (resolved.kind === "failed") return failed(resolved.errorCode);
              const topic = resolved.kind === "found" ? resolved.topic : undefined;
              if (topic === undefined || partitionIndex < 0 || partitionIndex >= topic.partitionCount)
                return failed(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
              if (!allowsRecordDeletion(topic.configs)) return failed(KafkaErrorCode.POLICY_VIOLATION);
              try {
                const outcome = await services.logs.get(topic.name, partitionIndex).deleteRecordsBefore(topic, offset);
                if (outcome.outOfRange) return failed(KafkaErrorCode.OFFSET_OUT_OF_RANGE);
                return { partitionIndex, lowWatermark: outcome.logStartOffset, errorCode: KafkaErrorCode.NONE };
              } catch (error) {
                const mapped = mapStorageError(error);
                services.logger.warn("delete records failed", {
                  topic: topic.name,
                  partition: partitionIndex,
                  offset,
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
