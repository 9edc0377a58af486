// ACL binding filters as DescribeAcls and DeleteAcls carry them, and Kafka's matching rule: null strings and ANY
// codes match everything; a MATCH pattern filter with a name selects the bindings that would apply to a resource of
// that name (the LITERAL binding of the name, the LITERAL wildcard "*", every PREFIXED binding the name starts with).
import { type AclBinding, AclOperation, AclPermission, PatternType, ResourceType, WILDCARD } from "./acl-types.js";

/** A filter over bindings (codes as in acl-types.ts; UNKNOWN is never valid, see {@link filterProblem}). */
export interface AclBindingFilter {
  readonly resourceType: number;
  /** Null matches any name. */
  readonly name: string | null;
  readonly patternType: number;
  /** Null matches any principal. */
  readonly principal: string | null;
  /** Null matches any host. */
  readonly host: string | null;
  readonly operation: number;
  readonly permission: number;
}

function known(table: Readonly<Record<string, number>>, code: number): boolean {
  return code !== 0 && Object.values(table).includes(code);
}

/** Why Kafka refuses `filter` (an UNKNOWN or out-of-range code), or undefined when it is usable. */
export function filterProblem(filter: AclBindingFilter): string | undefined {
  if (!known(ResourceType, filter.resourceType)) return `unknown resource type ${String(filter.resourceType)}`;
  if (!known(PatternType, filter.patternType)) return `unknown pattern type ${String(filter.patternType)}`;
  if (!known(AclOperation, filter.operation)) return `unknown operation ${String(filter.operation)}`;
  if (!known(AclPermission, filter.permission)) return `unknown permission type ${String(filter.permission)}`;
  return undefined;
}

function patternMatches(filter: AclBindingFilter, binding: AclBinding): boolean {
  const pattern = binding.pattern;
  if (filter.resourceType !== ResourceType.ANY && filter.resourceType !== pattern.resourceType) return false;
  const anyPattern = filter.patternType === PatternType.ANY || filter.patternType === PatternType.MATCH;
  if (!anyPattern && filter.patternType !== pattern.patternType) return false;
  if (filter.name === null) return true;
  if (filter.patternType !== PatternType.MATCH) return filter.name === pattern.name;
  if (pattern.patternType === PatternType.PREFIXED) return filter.name.startsWith(pattern.name);
  return filter.name === pattern.name || pattern.name === WILDCARD;
}

/** True when `filter` selects `binding`. */
export function filterMatches(filter: AclBindingFilter, binding: AclBinding): boolean {
  const entry = binding.entry;
  return (
    patternMatches(filter, binding) &&
    (filter.principal === null || filter.principal === entry.principal) &&
    (filter.host === null || filter.host === entry.host) &&
    (filter.operation === AclOperation.ANY || filter.operation === entry.operation) &&
    (filter.permission === AclPermission.ANY || filter.permission === entry.permission)
  );
}
