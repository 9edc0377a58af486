// CreateTopics (19), v2+: validates like Kafka (legal names, no duplicates in one request, partitions > 0 or -1
// for the broker default, replication factor 1 or -1 on this single logical broker, manual assignments only onto
// this node, known configs with values of the right type) and creates each topic with one stream per partition.
// `nereus.storage.profile` picks the partitions' storage profile (default: the broker's). validate_only checks
// everything including existence and creates nothing. Guard rails: the entries above `maxTopicsPerCreateTopicsRequest`
// are answered POLICY_VIOLATION without being created, the others are created a few at a time (map-bounded.ts), and
// a creation above the broker's partition limit is answered POLICY_VIOLATION.
import { NereusError, type StorageProfile } from "@nereus/core";
import { canonicalizeProfile } from "@nereus/core/internal";
import type { CreateTopicsRequestTopic } from "../../protocol/apis/create-topics/create-topics-request.js";
import type { CreateTopicsResponseTopic } from "../../protocol/apis/create-topics/create-topics-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { ZERO_UUID } from "../../protocol/primitives/uuid.js";
import { describeTopicConfigs } from "../../topics/describe-topic-configs.js";
import { STORAGE_PROFILE_CONFIG, topicConfigProblem } from "../../topics/topic-configs.js";
import { topicNameProblem } from "../../topics/topic-name.js";
import { AclOperation, CLUSTER_RESOURCE, topicResource } from "../../security/acl/acl-types.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { TOPICS_IN_FLIGHT_PER_REQUEST, mapBounded } from "../map-bounded.js";

interface ValidTopic {
  readonly ok: true;
  readonly name: string;
  readonly partitionCount: number;
  readonly profile: StorageProfile;
  readonly configs: Record<string, string>;
}

type Validation = ValidTopic | { readonly ok: false; readonly errorCode: number; readonly message: string };

function invalid(errorCode: number, message: string): Validation {
  return { ok: false, errorCode, message };
}

/** Kafka's CreateTopics checks of one topic entry, without touching storage. */
function validateCreatableTopic(
  topic: CreateTopicsRequestTopic,
  services: Pick<BrokerServices, "settings" | "identity">,
): Validation {
  const { settings, identity } = services;
  const nameProblem = topicNameProblem(topic.name);
  if (nameProblem !== undefined) return invalid(KafkaErrorCode.INVALID_TOPIC_EXCEPTION, nameProblem);
  let partitionCount: number;
  if (topic.assignments.length > 0) {
    if (topic.numPartitions !== -1 || topic.replicationFactor !== -1) {
      return invalid(
        KafkaErrorCode.INVALID_REQUEST,
        "Both numPartitions or replicationFactor and replicasAssignments were set. Both cannot be used at the same time.",
      );
    }
    const indexes = new Set(topic.assignments.map((assignment) => assignment.partitionIndex));
    if (
      indexes.size !== topic.assignments.length ||
      [...indexes].some((index) => index < 0 || index >= topic.assignments.length)
    ) {
      return invalid(
        KafkaErrorCode.INVALID_REPLICA_ASSIGNMENT,
        "Partitions should be a consecutive 0-based integer sequence",
      );
    }
    const elsewhere = topic.assignments.find(
      (assignment) => assignment.brokerIds.length !== 1 || assignment.brokerIds[0] !== identity.nodeId,
    );
    if (elsewhere !== undefined) {
      return invalid(
        KafkaErrorCode.INVALID_REPLICA_ASSIGNMENT,
        `Replica assignment of partition ${String(elsewhere.partitionIndex)} must be exactly [${String(identity.nodeId)}]`,
      );
    }
    partitionCount = topic.assignments.length;
  } else {
    partitionCount = topic.numPartitions === -1 ? settings.defaultPartitions : topic.numPartitions;
    if (partitionCount <= 0)
      return invalid(KafkaErrorCode.INVALID_PARTITIONS, "Number of partitions must be larger than 0.");
    const replicationFactor = topic.replicationFactor === -1 ? 1 : topic.replicationFactor;
    if (replicationFactor <= 0)
      return invalid(KafkaErrorCode.INVALID_REPLICATION_FACTOR, "Replication factor must be larger than 0.");
    if (replicationFactor > 1) {
      return invalid(
        KafkaErrorCode.INVALID_REPLICATION_FACTOR,
        `Replication factor: ${String(replicationFactor)} larger than available brokers: 1.`,
      );
    }
  }
  if (partitionCount > settings.maxPartitionsPerTopic) {
    return invalid(
      KafkaErrorCode.INVALID_PARTITIONS,
      `Number of partitions ${String(partitionCount)} exceeds this broker's limit of ${String(settings.maxPartitionsPerTopic)}.`,
    );
  }
  const configs: Record<string, string> = {};
  let profile = settings.defaultProfile;
  for (const config of topic.configs) {
    if (config.value === null)
      return invalid(KafkaErrorCode.INVALID_REQUEST, `Null value not supported for topic configs: ${config.name}`);
    const problem = topicConfigProblem(config.name, config.value);
    if (problem !== undefined) return invalid(KafkaErrorCode.INVALID_CONFIG, problem);
    if (config.name === STORAGE_PROFILE_CONFIG) profile = canonicalizeProfile(config.value);
    else
      Object.defineProperty(configs, config.name, {
        value: config.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return { ok: true, name: topic.name, partitionCount, profile, configs };
}

export function createCreateTopicsHandler(services: BrokerServices): KafkaApiHandler<19> {
  return {
    async handle(context, request) {
      const { body } = request;
      const access = await services.authorizer.access(context);
      const clusterCreate = access.permits(AclOperation.CREATE, CLUSTER_RESOURCE);
      const counts = new Map<string, number>();
      for (const topic of body.topics) counts.set(topic.name, (counts.get(topic.name) ?? 0) + 1);
      const cap = services.settings.maxTopicsPerCreateTopicsRequest;
      const topics = await mapBounded(
        body.topics,
        TOPICS_IN_FLIGHT_PER_REQUEST,
        async (requested, index): Promise<CreateTopicsResponseTopic> => {
          const failed = (errorCode: number, message: string): CreateTopicsResponseTopic => ({
            name: requested.name,
            topicId: ZERO_UUID,
            errorCode,
            errorMessage: message,
            topicConfigErrorCode: errorCode === KafkaErrorCode.INVALID_CONFIG ? errorCode : KafkaErrorCode.NONE,
            numPartitions: -1,
            replicationFactor: -1,
            configs: null,
          });
          if (index >= cap) {
            return failed(
              KafkaErrorCode.POLICY_VIOLATION,
              `This request names ${String(body.topics.length)} topics; this broker creates at most ${String(cap)} per request. Send the rest in another request.`,
            );
          }
          if ((counts.get(requested.name) ?? 0) > 1) {
            return failed(
              KafkaErrorCode.INVALID_REQUEST,
              `Create topics request from client contains multiple entries for the topic ${requested.name}`,
            );
          }
          if (!clusterCreate && !access.allows(AclOperation.CREATE, topicResource(requested.name)))
            return failed(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED, "Authorization failed.");
          const valid = validateCreatableTopic(requested, services);
          if (!valid.ok) return failed(valid.errorCode, valid.message);
          const succeeded = (topicId: string): CreateTopicsResponseTopic => ({
            name: valid.name,
            topicId,
            errorCode: KafkaErrorCode.NONE,
            errorMessage: null,
            topicConfigErrorCode: KafkaErrorCode.NONE,
            numPartitions: valid.partitionCount,
            replicationFactor: 1,
            configs: describeTopicConfigs(valid).map((config) => ({
              name: config.name,
              value: config.value,
              readOnly: config.readOnly,
              configSource: config.source,
              isSensitive: false,
            })),
          });
          try {
            if (body.validateOnly) {
              const existing = await services.registry.lookup(valid.name, context.signal);
              return existing === undefined
                ? succeeded(ZERO_UUID)
                : failed(KafkaErrorCode.TOPIC_ALREADY_EXISTS, `Topic '${valid.name}' already exists.`);
            }
            const outcome = await services.registry.create(valid, context.signal);
            if (outcome.ok) {
              services.logger.info("topic created", {
                topic: valid.name,
                topicId: outcome.topic.topicId,
                partitions: valid.partitionCount,
                profile: valid.profile,
              });
              return succeeded(outcome.topic.topicId);
            }
            switch (outcome.reason) {
              case "exists":
              case "deleting":
                return failed(KafkaErrorCode.TOPIC_ALREADY_EXISTS, outcome.message);
              case "collision":
                return failed(KafkaErrorCode.INVALID_TOPIC_EXCEPTION, outcome.message);
              case "unsupported-profile":
                return failed(KafkaErrorCode.INVALID_CONFIG, outcome.message);
              case "partition-limit":
                return failed(KafkaErrorCode.POLICY_VIOLATION, outcome.message);
            }
          } catch (error) {
            services.logger.warn("topic creation failed", { topic: valid.name, error: String(error) });
            return failed(KafkaErrorCode.KAFKA_STORAGE_ERROR, NereusError.is(error) ? error.message : String(error));
          }
        },
      );
      return { throttleTimeMs: 0, topics };
    },
  };
}
