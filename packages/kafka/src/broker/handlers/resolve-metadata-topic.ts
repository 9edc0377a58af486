// One topic name of a Metadata (3) request: looked up, and auto-created when absent and the request allows it (and,
// with authorization on, the client may CREATE it: otherwise the absent topic is TOPIC_AUTHORIZATION_FAILED, as
// Kafka answers). An invalid name is INVALID_TOPIC_EXCEPTION; an auto-creation that finds the broker's token bucket empty is answered
// LEADER_NOT_AVAILABLE (the client retries), one above the broker's partition limit POLICY_VIOLATION; both are
// counted in the request's refusals. An absent name leaves nothing behind. Lookup failures answer
// LEADER_NOT_AVAILABLE; nothing here throws.
import type { MetadataResponseTopic } from "../../protocol/apis/metadata/metadata-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { topicNameProblem } from "../../topics/topic-name.js";
import type { BrokerServices } from "../broker-services.js";
import { describedTopic, failedTopic } from "./metadata-topic-answers.js";

/** What one request's auto-creations came to, for one log line per request rather than one per name. */
export interface Refusals {
  overCap: number;
  paced: number;
}

/** The response entry for `name`. */
export async function resolveMetadataTopic(
  services: BrokerServices,
  name: string,
  autoCreate: boolean,
  mayCreate: () => boolean,
  refusals: Refusals,
  signal: AbortSignal,
): Promise<MetadataResponseTopic> {
  if (topicNameProblem(name) !== undefined) return failedTopic(name, KafkaErrorCode.INVALID_TOPIC_EXCEPTION);
  try {
    const existing = await services.registry.lookup(name, signal);
    if (existing !== undefined) return describedTopic(services, existing);
    if (!autoCreate) return failedTopic(name, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    if (!mayCreate()) return failedTopic(name, KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED);
    if (!services.autoCreations.tryTake()) {
      refusals.paced += 1;
      return failedTopic(name, KafkaErrorCode.LEADER_NOT_AVAILABLE);
    }
    const outcome = await services.registry.create(
      {
        name,
        partitionCount: services.settings.defaultPartitions,
        profile: services.settings.defaultProfile,
        configs: {},
      },
      signal,
    );
    if (outcome.ok) {
      services.logger.info("topic auto-created", {
        topic: name,
        topicId: outcome.topic.topicId,
        partitions: outcome.topic.partitionCount,
      });
      return describedTopic(services, outcome.topic);
    }
    if (outcome.reason === "exists") {
      const created = await services.registry.lookup(name, signal);
      return created === undefined
        ? failedTopic(name, KafkaErrorCode.LEADER_NOT_AVAILABLE)
        : describedTopic(services, created);
    }
    if (outcome.reason === "collision") return failedTopic(name, KafkaErrorCode.INVALID_TOPIC_EXCEPTION);
    if (outcome.reason === "partition-limit") {
      refusals.overCap += 1;
      return failedTopic(name, KafkaErrorCode.POLICY_VIOLATION);
    }
    if (outcome.reason === "unsupported-profile")
      services.logger.error("cannot auto-create topic", { topic: name, reason: outcome.message });
    return failedTopic(name, KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  } catch (error) {
    services.logger.warn("metadata lookup failed", { topic: name, error: String(error) });
    return failedTopic(name, KafkaErrorCode.LEADER_NOT_AVAILABLE);
  }
}
