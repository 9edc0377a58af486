// CreatePartitions (37, v0-3): raises a topic's partition count (TopicRegistry.addPartitions: the new partitions'
// streams, then one CAS on the topic record). New partitions are empty and writable at once; existing ones keep
// their data (keys hash to other partitions from then on, as with Kafka). As Kafka: the count must exceed the current
// one (INVALID_PARTITIONS, with Kafka's messages) and stay within the broker's partition limit; assignments, when
// given, need one entry per new partition naming only this broker (INVALID_REPLICA_ASSIGNMENT; one node holds every
// partition); a topic named twice is INVALID_REQUEST; an unknown topic is UNKNOWN_TOPIC_OR_PARTITION;
// `validateOnly` checks and writes nothing; a storage failure is mapped once. Above the broker's partition limit:
// POLICY_VIOLATION. The topics are changed a few at a time (map-bounded.ts).
import type { CreatePartitionsRequestTopic } from "../../protocol/apis/create-partitions/create-partitions-request.js";
import type { CreatePartitionsResponseTopic } from "../../protocol/apis/create-partitions/create-partitions-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { KafkaTopic } from "../../topics/kafka-topic.js";
import type { TopicChangeRefusal } from "../../topics/topic-registry.js";
import { AclOperation, topicResource } from "../../security/acl/acl-types.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { TOPICS_IN_FLIGHT_PER_REQUEST, mapBounded } from "../map-bounded.js";
import { mapStorageError } from "../../log/map-storage-error.js";

export function createCreatePartitionsHandler(services: BrokerServices): KafkaApiHandler<37> {
  /** Why `topic` cannot grow as `requested` asks, or undefined. */
  const refusal = (topic: KafkaTopic, requested: CreatePartitionsRequestTopic): TopicChangeRefusal | undefined => {
    const refuse = (errorCode: number, message: string): TopicChangeRefusal => ({ ok: false, errorCode, message });
    const current = topic.partitionCount;
    if (requested.count < current) {
      return refuse(
        KafkaErrorCode.INVALID_PARTITIONS,
        `Topic currently has ${String(current)} partitions, which is higher than the requested ${String(requested.count)}.`,
      );
    }
    if (requested.count === current)
      return refuse(KafkaErrorCode.INVALID_PARTITIONS, `Topic already has ${String(current)} partitions.`);
    if (requested.count > services.settings.maxPartitionsPerTopic) {
      return refuse(
        KafkaErrorCode.INVALID_PARTITIONS,
        `Number of partitions ${String(requested.count)} exceeds this broker's limit of ${String(services.settings.maxPartitionsPerTopic)}.`,
      );
    }
    const { assignments } = requested;
    if (assignments !== null) {
      if (assignments.length !== requested.count - current) {
        return refuse(
          KafkaErrorCode.INVALID_REPLICA_ASSIGNMENT,
          `Increasing the number of partitions by ${String(requested.count - current)} but ${String(assignments.length)} assignments provided.`,
        );
      }
      const nodeId = services.identity.nodeId;
      if (assignments.some((assignment) => assignment.brokerIds.length !== 1 || assignment.brokerIds[0] !== nodeId)) {
        return refuse(
          KafkaErrorCode.INVALID_REPLICA_ASSIGNMENT,
          `Every new partition must be assigned to broker ${String(nodeId)} alone: this cluster has one node.`,
        );
      }
    }
    return undefined;
  };

  return {
    async handle(context, request) {
      const { topics, validateOnly } = request.body;
      const access = await services.authorizer.access(context);
      const counts = new Map<string, number>();
      for (const topic of topics) counts.set(topic.name, (counts.get(topic.name) ?? 0) + 1);
      const results = await mapBounded(
        topics,
        TOPICS_IN_FLIGHT_PER_REQUEST,
        async (requested): Promise<CreatePartitionsResponseTopic> => {
          const result = (errorCode: number, errorMessage: string | null): CreatePartitionsResponseTopic => ({
            name: requested.name,
            errorCode,
            errorMessage,
          });
          if ((counts.get(requested.name) ?? 0) > 1)
            return result(KafkaErrorCode.INVALID_REQUEST, "Duplicate topic in request.");
          if (!access.allows(AclOperation.ALTER, topicResource(requested.name)))
            return result(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED, "Authorization failed.");
          const unknown = result(
            KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
            `The topic '${requested.name}' does not exist.`,
          );
          try {
            if (validateOnly) {
              const topic = await services.registry.lookup(requested.name, context.signal);
              if (topic === undefined) return unknown;
              const refused = refusal(topic, requested);
              return refused === undefined
                ? result(KafkaErrorCode.NONE, null)
                : result(refused.errorCode, refused.message);
            }
            const outcome = await services.registry.addPartitions(
              requested.name,
              requested.count,
              (topic) => refusal(topic, requested),
              context.signal,
            );
            if (outcome === undefined) return unknown;
            return outcome.ok ? result(KafkaErrorCode.NONE, null) : result(outcome.errorCode, outcome.message);
          } catch (error) {
            const mapped = mapStorageError(error);
            services.logger.warn("adding partitions failed", {
              topic: requested.name,
              count: requested.count,
              error: mapped.message,
            });
            return result(mapped.errorCode, mapped.message);
          }
        },
      );
      return { throttleTimeMs: 0, results };
    },
  };
}
