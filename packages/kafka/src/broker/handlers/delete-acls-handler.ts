// DeleteAcls (31): deletes, per filter, every stored binding it selects and reports them (ALTER on the cluster
// required, else every filter answers CLUSTER_AUTHORIZATION_FAILED). A filter with UNKNOWN codes is INVALID_REQUEST
// and the others still apply; without authorization configured every filter answers SECURITY_DISABLED.
import type { DeleteAclsFilterResult } from "../../protocol/apis/delete-acls/delete-acls-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { mapStorageError } from "../../log/map-storage-error.js";
import { filterProblem } from "../../security/acl/acl-binding-filter.js";
import { AclOperation, CLUSTER_RESOURCE } from "../../security/acl/acl-types.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { bindingFields, bindingFilterOf } from "./acl-request-filter.js";

function failed(errorCode: number, errorMessage: string): DeleteAclsFilterResult {
  return { errorCode, errorMessage, matchingAcls: [] };
}

export function createDeleteAclsHandler(services: BrokerServices): KafkaApiHandler<31> {
  return {
    async handle(context, request) {
      const { filters } = request.body;
      const everyone = (
        errorCode: number,
        message: string,
      ): { throttleTimeMs: number; filterResults: DeleteAclsFilterResult[] } => ({
        throttleTimeMs: 0,
        filterResults: filters.map(() => failed(errorCode, message)),
      });
      const admin = services.authorizer.admin;
      if (admin === undefined) return everyone(KafkaErrorCode.SECURITY_DISABLED, "No Authorizer is configured.");
      const access = await services.authorizer.access(context);
      if (!access.allows(AclOperation.ALTER, CLUSTER_RESOURCE))
        return everyone(KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Authorization failed.");
      const converted = filters.map(bindingFilterOf);
      const problems = converted.map(filterProblem);
      const valid = converted.filter((_, index) => problems[index] === undefined);
      let deleted: Awaited<ReturnType<typeof admin.delete>>;
      try {
        deleted = await admin.delete(valid, context.signal);
      } catch (error) {
        const mapped = mapStorageError(error);
        services.logger.warn("deleting ACLs failed", { error: mapped.message });
        return everyone(mapped.errorCode, mapped.message);
      }
      let next = 0;
      const filterResults = problems.map((problem): DeleteAclsFilterResult => {
        if (problem !== undefined) return failed(KafkaErrorCode.INVALID_REQUEST, problem);
        const matching = deleted[next++] ?? [];
        return {
          errorCode: KafkaErrorCode.NONE,
          errorMessage: null,
          matchingAcls: matching.map((binding) => ({
            errorCode: KafkaErrorCode.NONE,
            errorMessage: null,
            ...bindingFields(binding),
          })),
        };
      });
      return { throttleTimeMs: 0, filterResults };
    },
  };
}
