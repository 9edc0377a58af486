// InitProducerId (22) for idempotent producers: a fresh durable producer id with epoch 0 for every request, as
// Kafka does when the transactional id is null (an epoch bump request from a v3+ client gets a new id too).
// Transactions are not supported: a transactional id is refused with TRANSACTIONAL_ID_AUTHORIZATION_FAILED. With
// authorization on, an idempotent producer needs IDEMPOTENT_WRITE on the cluster or WRITE on some topic (Kafka 2.8+),
// else CLUSTER_AUTHORIZATION_FAILED.
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { AclOperation, CLUSTER_RESOURCE, ResourceType } from "../../security/acl/acl-types.js";

export function createInitProducerIdHandler(services: BrokerServices): KafkaApiHandler<22> {
  return {
    async handle(context, request) {
      if (request.body.transactionalId !== null) {
        return {
          throttleTimeMs: 0,
          errorCode: KafkaErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
          producerId: -1n,
          producerEpoch: -1,
        };
      }
      const access = await services.authorizer.access(context);
      if (
        !access.permits(AclOperation.IDEMPOTENT_WRITE, CLUSTER_RESOURCE) &&
        !access.allowsAny(AclOperation.WRITE, ResourceType.TOPIC)
      ) {
        return {
          throttleTimeMs: 0,
          errorCode: KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED,
          producerId: -1n,
          producerEpoch: -1,
        };
      }
      try {
        const producerId = await services.producerIds.allocate(context.signal);
        return { throttleTimeMs: 0, errorCode: KafkaErrorCode.NONE, producerId, producerEpoch: 0 };
      } catch (error) {
        services.logger.warn("producer id allocation failed", { error: String(error) });
        return {
          throttleTimeMs: 0,
          errorCode: KafkaErrorCode.COORDINATOR_NOT_AVAILABLE,
          producerId: -1n,
          producerEpoch: -1,
        };
      }
    },
  };
}
