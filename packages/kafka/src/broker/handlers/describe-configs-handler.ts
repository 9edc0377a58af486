// DescribeConfigs (32), v1+: topic resources list every known topic config (explicit ones as
// DYNAMIC_TOPIC_CONFIG, the rest as DEFAULT_CONFIG, nereus.storage.profile read-only); the broker resource (this
// node's id, or "" for cluster defaults) lists a few read-only broker settings clients ask about. Other resource
// types are refused with INVALID_REQUEST. `configurationKeys` filters; synonyms repeat the value with its source.
import { ConfigResourceType } from "../../protocol/apis/describe-configs/describe-configs-request.js";
import type {
  DescribeConfigsResponseConfig,
  DescribeConfigsResponseResult,
} from "../../protocol/apis/describe-configs/describe-configs-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { type DescribedConfig, describeTopicConfigs } from "../../topics/describe-topic-configs.js";
import { ConfigSource, ConfigType, DEFAULT_MAX_MESSAGE_BYTES } from "../../topics/topic-configs.js";
import { AclOperation, CLUSTER_RESOURCE, topicResource } from "../../security/acl/acl-types.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";

function brokerConfigs(services: BrokerServices): DescribedConfig[] {
  const entry = (name: string, value: string, type: number): DescribedConfig => ({
    name,
    value,
    readOnly: true,
    source: ConfigSource.STATIC_BROKER_CONFIG,
    type,
  });
  return [
    entry("broker.id", String(services.identity.nodeId), ConfigType.INT),
    entry("node.id", String(services.identity.nodeId), ConfigType.INT),
    entry("auto.create.topics.enable", String(services.settings.autoCreateTopics), ConfigType.BOOLEAN),
    entry("num.partitions", String(services.settings.defaultPartitions), ConfigType.INT),
    entry("default.replication.factor", "1", ConfigType.SHORT),
    entry("min.insync.replicas", "1", ConfigType.INT),
    entry("message.max.bytes", String(DEFAULT_MAX_MESSAGE_BYTES), ConfigType.INT),
    entry("delete.topic.enable", "true", ConfigType.BOOLEAN),
    entry("nereus.storage.profile", services.settings.defaultProfile, ConfigType.STRING),
  ];
}

export function createDescribeConfigsHandler(services: BrokerServices): KafkaApiHandler<32> {
  return {
    async handle(context, request) {
      const { body } = request;
      const access = await services.authorizer.access(context);
      const results = await Promise.all(
        body.resources.map(async (resource): Promise<DescribeConfigsResponseResult> => {
          const result = (
            errorCode: number,
            errorMessage: string | null,
            configs: DescribedConfig[],
          ): DescribeConfigsResponseResult => ({
            errorCode,
            errorMessage,
            resourceType: resource.resourceType,
            resourceName: resource.resourceName,
            configs: configs
              .filter(
                (config) => resource.configurationKeys === null || resource.configurationKeys.includes(config.name),
              )
              .map((config): DescribeConfigsResponseConfig => ({
                name: config.name,
                value: config.value,
                readOnly: config.readOnly,
                isDefault: config.source === ConfigSource.DEFAULT_CONFIG,
                configSource: config.source,
                isSensitive: false,
                synonyms: body.includeSynonyms
                  ? [{ name: config.name, value: config.value, source: config.source }]
                  : [],
                configType: config.type,
                documentation: null,
              })),
          });
          if (resource.resourceType === ConfigResourceType.topic) {
            if (!access.allows(AclOperation.DESCRIBE_CONFIGS, topicResource(resource.resourceName)))
              return result(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED, "Authorization failed.", []);
            try {
              const topic = await services.registry.lookup(resource.resourceName, context.signal);
              if (topic === undefined)
                return result(
                  KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                  "This server does not host this topic-partition.",
                  [],
                );
              return result(KafkaErrorCode.NONE, null, describeTopicConfigs(topic));
            } catch (error) {
              return result(KafkaErrorCode.KAFKA_STORAGE_ERROR, String(error), []);
            }
          }
          if (resource.resourceType === ConfigResourceType.broker) {
            if (!access.allows(AclOperation.DESCRIBE_CONFIGS, CLUSTER_RESOURCE))
              return result(KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Authorization failed.", []);
            if (resource.resourceName !== "" && resource.resourceName !== String(services.identity.nodeId)) {
              return result(
                KafkaErrorCode.INVALID_REQUEST,
                `Unexpected broker id, expected ${String(services.identity.nodeId)} or empty string, but received ${resource.resourceName}`,
                [],
              );
            }
            return result(KafkaErrorCode.NONE, null, brokerConfigs(services));
          }
          return result(
            KafkaErrorCode.INVALID_REQUEST,
            `Unsupported resource type ${String(resource.resourceType)}`,
            [],
          );
        }),
      );
      return { throttleTimeMs: 0, results };
    },
  };
}
