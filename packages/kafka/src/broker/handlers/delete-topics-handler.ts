// DeleteTopics (20), v1+: by name (v1-5) or by name or topic id (v6). Each topic is marked DELETING, its partition
// streams are deleted and its record removed before the answer; the partition logs drop their state first, so
// waiting fetches re-evaluate and report the topic unknown. Unknown names ⇒ UNKNOWN_TOPIC_OR_PARTITION, unknown
// ids ⇒ UNKNOWN_TOPIC_ID.
import { NereusError } from "@nereus/core";
import type { DeleteTopicsResponseTopic } from "../../protocol/apis/delete-topics/delete-topics-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { ZERO_UUID } from "../../protocol/primitives/uuid.js";
import { AclOperation, topicResource } from "../../security/acl/acl-types.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";

export function createDeleteTopicsHandler(services: BrokerServices): KafkaApiHandler<20> {
  return {
    async handle(context, request) {
      const { body, apiVersion } = request;
      const access = await services.authorizer.access(context);
      const requested = apiVersion >= 6 ? body.topics : body.topicNames.map((name) => ({ name, topicId: ZERO_UUID }));
      const responses = await Promise.all(
        requested.map(async ({ name, topicId }): Promise<DeleteTopicsResponseTopic> => {
          const answer = (
            errorCode: number,
            resolvedName: string | null,
            id: string,
            errorMessage: string | null = null,
          ): DeleteTopicsResponseTopic => ({
            name: resolvedName ?? (apiVersion >= 6 ? null : ""),
            topicId: id,
            errorCode,
            errorMessage,
          });
          try {
            let topicName = name;
            if (topicName === null) {
              const byId =
                topicId === ZERO_UUID ? undefined : await services.registry.lookupById(topicId, context.signal);
              if (byId === undefined)
                return answer(
                  KafkaErrorCode.UNKNOWN_TOPIC_ID,
                  null,
                  topicId,
                  "This server does not host this topic ID.",
                );
              topicName = byId.name;
            }
            if (!access.allows(AclOperation.DELETE, topicResource(topicName)))
              return answer(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED, name, topicId, "Authorization failed.");
            const current = await services.registry.lookup(topicName, context.signal);
            if (current === undefined || (topicId !== ZERO_UUID && current.topicId !== topicId)) {
              return topicId !== ZERO_UUID && name === null
                ? answer(KafkaErrorCode.UNKNOWN_TOPIC_ID, null, topicId, "This server does not host this topic ID.")
                : answer(
                    KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                    topicName,
                    topicId,
                    "This server does not host this topic-partition.",
                  );
            }
            services.logs.invalidateTopic(current);
            const outcome = await services.registry.delete(topicName, context.signal);
            if (!outcome.ok)
              return answer(
                KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                topicName,
                topicId,
                "This server does not host this topic-partition.",
              );
            services.logs.invalidateTopic(current);
            return answer(KafkaErrorCode.NONE, topicName, outcome.topic.topicId);
          } catch (error) {
            services.logger.warn("topic deletion failed", { topic: name, topicId, error: String(error) });
            return answer(
              KafkaErrorCode.KAFKA_STORAGE_ERROR,
              name,
              topicId,
              NereusError.is(error) ? error.message : String(error),
            );
          }
        }),
      );
      return { throttleTimeMs: 0, responses };
    },
  };
}
