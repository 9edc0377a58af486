// Metadata (3): the live brokers (this one alone without partition ownership) and each partition's leader, with
// leader epoch 0 (metadata-topic-answers.ts),
// topic ids from v10, and auto-creation of requested topics when both the broker and the request allow it (before v4
// requests always allow it; resolve-metadata-topic.ts). v0 with an empty topic list and v1+ with a null list mean
// every topic. A name (or id) requested twice is answered once, as Kafka does. Guard rails against a request naming
// very many topics: the distinct names are resolved a few at a time (map-bounded.ts); names above
// `maxTopicsPerMetadataRequest` are answered POLICY_VIOLATION unresolved; auto-creations refused by the broker's
// token bucket or partition limit are logged once per request. With authorization on, a listing of every topic leaves
// out the topics the client may not DESCRIBE, a named topic it may not DESCRIBE is TOPIC_AUTHORIZATION_FAILED, and
// auto-creation also needs CREATE on the cluster or on the topic (an absent topic it may not create is
// TOPIC_AUTHORIZATION_FAILED).
import { ZERO_UUID } from "../../protocol/primitives/uuid.js";
import {
  AUTHORIZED_OPERATIONS_OMITTED,
  type MetadataResponseTopic,
} from "../../protocol/apis/metadata/metadata-response.js";
import { describedTopic, failedTopic } from "./metadata-topic-answers.js";
import { type Refusals, resolveMetadataTopic } from "./resolve-metadata-topic.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { KafkaTopic } from "../../topics/kafka-topic.js";
import type { BrokerServices } from "../broker-services.js";
import { AclOperation, CLUSTER_RESOURCE, topicResource } from "../../security/acl/acl-types.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { TOPICS_IN_FLIGHT_PER_REQUEST, mapBounded } from "../map-bounded.js";
import type { RequestBody } from "../../protocol/supported-apis.js";

type RequestedTopic = NonNullable<RequestBody<3>["topics"]>[number];

export function createMetadataHandler(services: BrokerServices): KafkaApiHandler<3> {
  const { ownership } = services;
  const describe = (topic: KafkaTopic): MetadataResponseTopic => describedTopic(services, topic);

  return {
    async handle(context, request) {
      const { body, apiVersion } = request;
      const all = body.topics === null || (apiVersion === 0 && body.topics.length === 0);
      const autoCreate = services.settings.autoCreateTopics && (apiVersion < 4 || body.allowAutoTopicCreation);
      const access = await services.authorizer.access(context);
      const mayCreate = (name: string): boolean =>
        access.permits(AclOperation.CREATE, CLUSTER_RESOURCE) ||
        access.allows(AclOperation.CREATE, topicResource(name));
      let topics: MetadataResponseTopic[];
      if (all) {
        try {
          topics = (await services.registry.list(context.signal))
            .filter((topic) => access.permits(AclOperation.DESCRIBE, topicResource(topic.name)))
            .map(describe);
        } catch (error) {
          services.logger.warn("listing topics failed", { error: String(error) });
          topics = [];
        }
      } else {
        // The response name is nullable only from v12.
        const noName = apiVersion >= 12 ? null : "";
        const distinct = distinctTopics(body.topics ?? []);
        const cap = services.settings.maxTopicsPerMetadataRequest;
        const refusals: Refusals = { overCap: 0, paced: 0 };
        topics = await mapBounded(distinct.slice(0, cap), TOPICS_IN_FLIGHT_PER_REQUEST, async (requested) => {
          if (requested.name !== null) {
            if (!access.allows(AclOperation.DESCRIBE, topicResource(requested.name)))
              return failedTopic(requested.name, KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED);
            const name = requested.name;
            return resolveMetadataTopic(services, name, autoCreate, () => mayCreate(name), refusals, context.signal);
          }
          if (requested.topicId === ZERO_UUID) return failedTopic(noName, KafkaErrorCode.INVALID_REQUEST);
          try {
            const topic = await services.registry.lookupById(requested.topicId, context.signal);
            if (topic === undefined) return failedTopic(noName, KafkaErrorCode.UNKNOWN_TOPIC_ID, requested.topicId);
            return access.allows(AclOperation.DESCRIBE, topicResource(topic.name))
              ? describe(topic)
              : failedTopic(noName, KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED, requested.topicId);
          } catch {
            return failedTopic(noName, KafkaErrorCode.LEADER_NOT_AVAILABLE, requested.topicId);
          }
        });
        for (let index = cap; index < distinct.length; index += 1) {
          const requested = distinct[index] as RequestedTopic;
          topics.push(
            failedTopic(
              requested.name ?? noName,
              KafkaErrorCode.POLICY_VIOLATION,
              requested.name === null ? requested.topicId : ZERO_UUID,
            ),
          );
        }
        if (distinct.length > cap || refusals.paced > 0 || refusals.overCap > 0) {
          services.logger.warn("Metadata request limited", {
            peer: context.peer,
            topics: distinct.length,
            aboveRequestCap: Math.max(0, distinct.length - cap),
            autoCreationsDeferred: refusals.paced,
            aboveBrokerPartitionLimit: refusals.overCap,
          });
        }
      }
      return {
        throttleTimeMs: 0,
        brokers: (ownership?.liveBrokers(context.transport.listenerName) ?? [context.broker]).map(
          ({ nodeId, host, port }) => ({
            nodeId,
            host,
            port,
            rack: null,
          }),
        ),
        clusterId: context.broker.clusterId,
        controllerId: ownership?.controllerId() ?? context.broker.nodeId,
        topics,
        clusterAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
      };
    },
  };
}

/** The requested topics without repeats (by name, or by id for entries without a name), in request order. */
function distinctTopics(requested: readonly RequestedTopic[]): RequestedTopic[] {
  const seen = new Set<string>();
  const distinct: RequestedTopic[] = [];
  for (const topic of requested) {
    const key = topic.name === null ? `id:${topic.topicId}` : `name:${topic.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    distinct.push(topic);
  }
  return distinct;
}
