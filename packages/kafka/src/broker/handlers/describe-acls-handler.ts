// DescribeAcls (29): the stored bindings the request's filter selects, grouped by resource pattern (DESCRIBE on the
// cluster required, else CLUSTER_AUTHORIZATION_FAILED). A filter with UNKNOWN codes is INVALID_REQUEST; without
// authorization configured the answer is SECURITY_DISABLED.
import type { DescribeAclsResource } from "../../protocol/apis/describe-acls/describe-acls-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { mapStorageError } from "../../log/map-storage-error.js";
import { filterProblem } from "../../security/acl/acl-binding-filter.js";
import { type AclBinding, AclOperation, CLUSTER_RESOURCE } from "../../security/acl/acl-types.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { bindingFilterOf } from "./acl-request-filter.js";

function groupByPattern(bindings: readonly AclBinding[]): DescribeAclsResource[] {
  const resources = new Map<string, DescribeAclsResource>();
  for (const { pattern, entry } of bindings) {
    const key = `${String(pattern.resourceType)}/${String(pattern.patternType)}/${pattern.name}`;
    let resource = resources.get(key);
    if (resource === undefined) {
      resource = {
        resourceType: pattern.resourceType,
        resourceName: pattern.name,
        patternType: pattern.patternType,
        acls: [],
      };
      resources.set(key, resource);
    }
    resource.acls.push({
      principal: entry.principal,
      host: entry.host,
      operation: entry.operation,
      permissionType: entry.permission,
    });
  }
  return [...resources.values()];
}

export function createDescribeAclsHandler(services: BrokerServices): KafkaApiHandler<29> {
  return {
    async handle(context, request) {
      const failed = (errorCode: number, errorMessage: string): ReturnType<typeof answer> =>
        answer(errorCode, errorMessage, []);
      const admin = services.authorizer.admin;
      if (admin === undefined) return failed(KafkaErrorCode.SECURITY_DISABLED, "No Authorizer is configured.");
      const access = await services.authorizer.access(context);
      if (!access.allows(AclOperation.DESCRIBE, CLUSTER_RESOURCE))
        return failed(KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Authorization failed.");
      const filter = bindingFilterOf(request.body);
      const problem = filterProblem(filter);
      if (problem !== undefined) return failed(KafkaErrorCode.INVALID_REQUEST, problem);
      try {
        return answer(KafkaErrorCode.NONE, null, groupByPattern(await admin.describe(filter)));
      } catch (error) {
        const mapped = mapStorageError(error);
        services.logger.warn("describing ACLs failed", { error: mapped.message });
        return failed(mapped.errorCode, mapped.message);
      }
    },
  };
}

function answer(
  errorCode: number,
  errorMessage: string | null,
  resources: DescribeAclsResource[],
): { throttleTimeMs: number; errorCode: number; errorMessage: string | null; resources: DescribeAclsResource[] } {
  return { throttleTimeMs: 0, errorCode, errorMessage, resources };
}
