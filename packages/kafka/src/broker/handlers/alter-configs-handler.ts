// AlterConfigs (33, v0-2) and IncrementalAlterConfigs (44, v0-1): change a topic's configs. AlterConfigs replaces
// the topic's whole set (configs it does not name return to their defaults); IncrementalAlterConfigs sets, deletes,
// appends to or subtracts from single configs (topics/plan-config-change.ts). Each resource is planned in full
// before its one write (a CAS on the topic record), so a refused resource changes nothing; `validateOnly` plans and
// writes nothing. The change applies from the next request that reads the topic (Produce limits and timestamps) and
// the next retention sweep. As Kafka: an unknown topic is UNKNOWN_TOPIC_OR_PARTITION; broker configs are not
// dynamic here (INVALID_REQUEST), nor is any other resource type; a storage failure is mapped once.
import type { AlterConfigsResourceResult } from "../../protocol/apis/alter-configs/alter-configs-response.js";
import { ConfigResourceType } from "../../protocol/apis/describe-configs/describe-configs-request.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { type ConfigChange, planConfigChange } from "../../topics/plan-config-change.js";
import { AclOperation, CLUSTER_RESOURCE, topicResource } from "../../security/acl/acl-types.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler, RequestContext } from "../kafka-api-handler.js";
import { mapStorageError } from "../../log/map-storage-error.js";

interface ResourceChange {
  readonly resourceType: number;
  readonly resourceName: string;
  readonly change: ConfigChange;
}

export function createAlterConfigsHandler(services: BrokerServices): KafkaApiHandler<33> {
  return {
    async handle(context, request) {
      const { resources, validateOnly } = request.body;
      const changes = resources.map((resource) => ({
        ...resource,
        change: { kind: "replace", configs: resource.configs } as const,
      }));
      return { throttleTimeMs: 0, responses: await alterAll(services, context, changes, validateOnly) };
    },
  };
}

export function createIncrementalAlterConfigsHandler(services: BrokerServices): KafkaApiHandler<44> {
  return {
    async handle(context, request) {
      const { resources, validateOnly } = request.body;
      const changes = resources.map((resource) => ({
        ...resource,
        change: { kind: "incremental", operations: resource.configs } as const,
      }));
      return { throttleTimeMs: 0, responses: await alterAll(services, context, changes, validateOnly) };
    },
  };
}

/** One result per resource, in request order; resources are independent (one refused does not stop the others). */
async function alterAll(
  services: BrokerServices,
  context: RequestContext,
  changes: readonly ResourceChange[],
  validateOnly: boolean,
): Promise<AlterConfigsResourceResult[]> {
  const access = await services.authorizer.access(context);
  return Promise.all(
    changes.map(async ({ resourceType, resourceName, change }): Promise<AlterConfigsResourceResult> => {
      const result = (errorCode: number, errorMessage: string | null): AlterConfigsResourceResult => ({
        errorCode,
        errorMessage,
        resourceType,
        resourceName,
      });
      if (resourceType === ConfigResourceType.broker || resourceType === ConfigResourceType.brokerLogger) {
        if (!access.allows(AclOperation.ALTER_CONFIGS, CLUSTER_RESOURCE))
          return result(KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Authorization failed.");
        return result(
          KafkaErrorCode.INVALID_REQUEST,
          "this broker has no dynamic broker configs: set them in its configuration and restart it",
        );
      }
      if (resourceType !== ConfigResourceType.topic)
        return result(KafkaErrorCode.INVALID_REQUEST, `Unsupported resource type ${String(resourceType)}`);
      if (!access.allows(AclOperation.ALTER_CONFIGS, topicResource(resourceName)))
        return result(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED, "Authorization failed.");
      const unknown = result(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic ${resourceName} does not exist`);
      try {
        if (validateOnly) {
          const topic = await services.registry.lookup(resourceName, context.signal);
          if (topic === undefined) return unknown;
          const plan = planConfigChange(topic, change);
          return plan.ok ? result(KafkaErrorCode.NONE, null) : result(plan.errorCode, plan.message);
        }
        const outcome = await services.registry.alterConfigs(
          resourceName,
          (topic) => planConfigChange(topic, change),
          context.signal,
        );
        if (outcome === undefined) return unknown;
        return outcome.ok ? result(KafkaErrorCode.NONE, null) : result(outcome.errorCode, outcome.message);
      } catch (error) {
        const mapped = mapStorageError(error);
        services.logger.warn("altering topic configs failed", { topic: resourceName, error: mapped.message });
        return result(mapped.errorCode, mapped.message);
      }
    }),
  );
}
