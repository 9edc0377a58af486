// The topic entries of a Metadata (3) response: a found topic described (this broker leads every partition with
// leader epoch 0), or a name or id answered with an error and no partitions. Builders only; which applies is decided
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

/** `topic` with every partition led by this broker (the only replica and the whole ISR). */
export function describedTopic(identity: BrokerServices["identity"], topic: KafkaTopic): MetadataResponseTopic {
  return {
    errorCode: KafkaErrorCode.NONE,
    name: topic.name,
    topicId: topic.topicId,
    isInternal: false,
    partitions: Array.from({ length: topic.partitionCount }, (_, partitionIndex) => ({
      errorCode: KafkaErrorCode.NONE,
      partitionIndex,
      leaderId: identity.nodeId,
      leaderEpoch: PARTITION_LEADER_EPOCH,
      replicaNodes: [identity.nodeId],
      isrNodes: [identity.nodeId],
      offlineReplicas: [],
    })),
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
