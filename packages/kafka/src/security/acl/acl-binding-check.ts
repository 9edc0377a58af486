// What a binding must satisfy to be stored (Kafka's rules for CreateAcls): a concrete resource type, a LITERAL or
// PREFIXED pattern over a non-empty name (the cluster's is "kafka-cluster"), a "User:name" principal, a host, a
// concrete operation and ALLOW or DENY.
import {
  type AclBinding,
  AclOperation,
  AclPermission,
  CLUSTER_RESOURCE_NAME,
  PatternType,
  ResourceType,
} from "./acl-types.js";

const PRINCIPAL = /^User:.+$/s;

/** Why `binding` cannot be created, or undefined when it can. */
export function bindingProblem(binding: AclBinding): string | undefined {
  const { pattern, entry } = binding;
  const types: number[] = Object.values(ResourceType);
  if (!types.includes(pattern.resourceType) || pattern.resourceType <= ResourceType.ANY)
    return `resource type ${String(pattern.resourceType)} cannot be stored`;
  if (pattern.patternType !== PatternType.LITERAL && pattern.patternType !== PatternType.PREFIXED)
    return `pattern type ${String(pattern.patternType)} cannot be stored (LITERAL or PREFIXED)`;
  if (pattern.name.length === 0) return "the resource name must not be empty";
  if (pattern.resourceType === ResourceType.CLUSTER && pattern.name !== CLUSTER_RESOURCE_NAME)
    return `the only valid name for the CLUSTER resource is ${CLUSTER_RESOURCE_NAME}`;
  if (!PRINCIPAL.test(entry.principal)) return `principal ${JSON.stringify(entry.principal)} is not "User:name"`;
  if (entry.host.length === 0) return "the host must not be empty (an address or *)";
  const operations: number[] = Object.values(AclOperation);
  if (!operations.includes(entry.operation) || entry.operation <= AclOperation.ANY)
    return `operation ${String(entry.operation)} cannot be stored`;
  if (entry.permission !== AclPermission.ALLOW && entry.permission !== AclPermission.DENY)
    return `permission type ${String(entry.permission)} cannot be stored (ALLOW or DENY)`;
  return undefined;
}
