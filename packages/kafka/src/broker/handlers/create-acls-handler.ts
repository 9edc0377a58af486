// CreateAcls (30): stores the requested bindings (ALTER on the cluster required, else every result is
// CLUSTER_AUTHORIZATION_FAILED). A binding Kafka would refuse (ANY/UNKNOWN codes, MATCH pattern, bad principal, a
// cluster name other than kafka-cluster) is INVALID_REQUEST and the others are still created. Without authorization
// configured every result is SECURITY_DISABLED.
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { mapStorageError } from "../../log/map-storage-error.js";
import { AclOperation, CLUSTER_RESOURCE } from "../../security/acl/acl-types.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { bindingOf } from "./acl-request-filter.js";

export function createCreateAclsHandler(services: BrokerServices): KafkaApiHandler<30> {
  return {
    async handle(context, request) {
      const { creations } = request.body;
      const everyone = (
        errorCode: number,
        errorMessage: string,
      ): { throttleTimeMs: number; results: Array<{ errorCode: number; errorMessage: string | null }> } => ({
        throttleTimeMs: 0,
        results: creations.map(() => ({ errorCode, errorMessage })),
      });
      const admin = services.authorizer.admin;
      if (admin === undefined) return everyone(KafkaErrorCode.SECURITY_DISABLED, "No Authorizer is configured.");
      const access = await services.authorizer.access(context);
      if (!access.allows(AclOperation.ALTER, CLUSTER_RESOURCE))
        return everyone(KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Authorization failed.");
      const outcomes = await admin.create(creations.map(bindingOf), context.signal);
      const results = outcomes.map((outcome) => {
        if (outcome === undefined) return { errorCode: KafkaErrorCode.NONE, errorMessage: null };
        if ("invalid" in outcome) return { errorCode: KafkaErrorCode.INVALID_REQUEST, errorMessage: outcome.invalid };
        const mapped = mapStorageError(outcome.failed);
        services.logger.warn("storing an ACL failed", { error: mapped.message });
        return { errorCode: mapped.errorCode, errorMessage: mapped.message };
      });
      return { throttleTimeMs: 0, results };
    },
  };
}
