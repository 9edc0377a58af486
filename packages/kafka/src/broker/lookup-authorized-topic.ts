// The topic lookup of a partition-addressed request (Produce, Fetch, ListOffsets, DeleteRecords) with its ACL check
// in Kafka's order: a topic named by the request is checked before it is looked up (an unauthorized client learns
// nothing about its existence); a topic addressed by id is looked up first and its name checked. A denial is a
// failed lookup with TOPIC_AUTHORIZATION_FAILED, which each partition of the topic answers.
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { RequestAccess } from "../security/acl/kafka-authorizer.js";
import { type AclOperation, topicResource } from "../security/acl/acl-types.js";
import type { BrokerServices } from "./broker-services.js";
import { type TopicLookup, type TopicReference, lookupTopic } from "./lookup-topic.js";

/** The lookup outcome of a topic the request may not use. */
const TOPIC_DENIED: TopicLookup = Object.freeze({
  kind: "failed",
  errorCode: KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED,
});

/** Looks `reference` up when `access` allows `operation` on it; never throws. */
export async function lookupAuthorizedTopic(
  services: BrokerServices,
  access: RequestAccess,
  operation: AclOperation,
  reference: TopicReference,
  signal: AbortSignal,
): Promise<TopicLookup> {
  if ("name" in reference) {
    if (!access.allows(operation, topicResource(reference.name))) return TOPIC_DENIED;
    return lookupTopic(services, reference, signal);
  }
  const lookup = await lookupTopic(services, reference, signal);
  if (lookup.kind === "found" && !access.allows(operation, topicResource(lookup.topic.name))) return TOPIC_DENIED;
  return lookup;
}
