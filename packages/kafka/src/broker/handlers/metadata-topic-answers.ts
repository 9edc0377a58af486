// The topic entries of a Metadata (3) response: a found topic described (each partition led by its owner among the
// live brokers, or by this broker when it is alone, with leader epoch 0), or a name or id answered with an error and no partitions. Builders only; which applies is decided
// by the Metadata handler.
import { ZERO_UUID } from "../../protocol/primitives/uuid.js";
import {
  AUTHORIZED_OPERATIONS_OMITTED,
  type MetadataResponseTopic,
} from "../../protocol/apis/metadata/metadata-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { KafkaTopic } from "../../topics/kafka-topic.js";
import { PARTITION_LEADER_EPOCH } from "../../log/stored-batch.js";
import type { BrokerServices } from "../broker-services.js";

/**
 * `topic` with every partition led by its owner (the only replica and the whole ISR): this broker without partition
 * ownership; with it, the owner among the live brokers, or none (LEADER_NOT_AVAILABLE) while no broker is live.
 */
export function describedTopic(
  services: Pick<BrokerServices, "identity" | "ownership">,
  topic: KafkaTopic,
): MetadataResponseTopic {
  const leaderOf = (partition: number): number =>
    services.ownership === undefined
      ? services.identity.nodeId
      : services.ownership.partitionLeader(topic.topicId, partition);
  return {
    errorCode: KafkaErrorCode.NONE,
    name: topic.name,
    topicId: topic.topicId,
    isInternal: false,
    partitions: Array.from({ length: topic.partitionCount }, (_, partitionIndex) => {
      const leaderId = leaderOf(partitionIndex);
      const replicas = leaderId < 0 ? [] : [leaderId];
      return {
        errorCode: leaderId < 0 ? KafkaErrorCode.LEADER_NOT_AVAILABLE : KafkaErrorCode.NONE,
        partitionIndex,
        leaderId,
        leaderEpoch: PARTITION_LEADER_EPOCH,
        replicaNodes: replicas,
        isrNodes: replicas,
        offlineReplicas: [],
      };
    }),
    topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  };
}

/** A requested name (or id) answered with `errorCode`. */
export function failedTopic(name: string | null, errorCode: number, topicId = ZERO_UUID): MetadataResponseTopic {
  return {
    errorCode,
    name,
    topicId,
    isInternal: false,
    partitions: [],
    topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  };
}
