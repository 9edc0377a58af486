// Metadata (3): one broker (this node) that leads every partition with leader epoch 0, topic ids from v10, and
// auto-creation of requested topics when both the broker and the request allow it (before v4 requests always
// allow it). v0 with an empty topic list and v1+ with a null list mean every topic.
import { ZERO_UUID } from "../../protocol/primitives/uuid.js";
import { AUTHORIZED_OPERATIONS_OMITTED, type MetadataResponseTopic } from "../../protocol/apis/metadata/metadata-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { KafkaTopic } from "../../topics/kafka-topic.js";
import { topicNameProblem } from "../../topics/topic-name.js";
import { PARTITION_LEADER_EPOCH } from "../../log/stored-batch.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";

export function createMetadataHandler(services: BrokerServices): KafkaApiHandler<3> {
  const { identity } = services;
  const describe = (topic: KafkaTopic): MetadataResponseTopic => ({
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
  });
  const failed = (name: string | null, errorCode: number, topicId = ZERO_UUID): MetadataResponseTopic => ({
    errorCode,
    name,
    topicId,
    isInternal: false,
    partitions: [],
    topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  });

  async function resolve(name: string, autoCreate: boolean, signal: AbortSignal): Promise<MetadataResponseTopic> {
    if (topicNameProblem(name) !== undefined) return failed(name, KafkaErrorCode.INVALID_TOPIC_EXCEPTION);
    try {
      const existing = await services.registry.lookup(name, signal);
      if (existing !== undefined) return describe(existing);
      if (!autoCreate) return failed(name, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      const outcome = await services.registry.create(
        { name, partitionCount: services.settings.defaultPartitions, profile: services.settings.defaultProfile, configs: {} },
        signal,
      );
      if (outcome.ok) {
        services.logger.info("topic auto-created", { topic: name, topicId: outcome.topic.topicId, partitions: outcome.topic.partitionCount });
        return describe(outcome.topic);
      }
      if (outcome.reason === "exists") {
        const created = await services.registry.lookup(name, signal);
        return created === undefined ? failed(name, KafkaErrorCode.LEADER_NOT_AVAILABLE) : describe(created);
      }
      if (outcome.reason === "collision") return failed(name, KafkaErrorCode.INVALID_TOPIC_EXCEPTION);
      if (outcome.reason === "unsupported-profile") services.logger.error("cannot auto-create topic", { topic: name, reason: outcome.message });
      return failed(name, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    } catch (error) {
      services.logger.warn("metadata lookup failed", { topic: name, error: String(error) });
      return failed(name, KafkaErrorCode.LEADER_NOT_AVAILABLE);
    }
  }

  return {
    async handle(context, request) {
      const { body, apiVersion } = request;
      const all = body.topics === null || (apiVersion === 0 && body.topics.length === 0);
      const autoCreate = services.settings.autoCreateTopics && (apiVersion < 4 || body.allowAutoTopicCreation);
      let topics: MetadataResponseTopic[];
      if (all) {
        try {
          topics = (await services.registry.list(context.signal)).map(describe);
        } catch (error) {
          services.logger.warn("listing topics failed", { error: String(error) });
          topics = [];
        }
      } else {
        topics = await Promise.all(
          (body.topics ?? []).map(async (requested) => {
            if (requested.name !== null) return resolve(requested.name, autoCreate, context.signal);
            // The response name is nullable only from v12.
            const noName = apiVersion >= 12 ? null : "";
            if (requested.topicId === ZERO_UUID) return failed(noName, KafkaErrorCode.INVALID_REQUEST);
            try {
              const topic = await services.registry.lookupById(requested.topicId, context.signal);
              return topic === undefined ? failed(noName, KafkaErrorCode.UNKNOWN_TOPIC_ID, requested.topicId) : describe(topic);
            } catch {
              return failed(noName, KafkaErrorCode.LEADER_NOT_AVAILABLE, requested.topicId);
            }
          }),
        );
      }
      return {
        throttleTimeMs: 0,
        brokers: [{ nodeId: identity.nodeId, host: identity.host, port: identity.port, rack: null }],
        clusterId: identity.clusterId,
        controllerId: identity.nodeId,
        topics,
        clusterAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
      };
    },
  };
}
