// Kafka's authorization rule over an ACL snapshot, as pure functions. Order: a super user may do anything; a resource
// no ACL applies to is open only with allowEveryoneIfNoAclFound; a matching DENY wins over every ALLOW; else a
// matching ALLOW is needed. An entry matches when its principal is the caller's or "User:*", its host the caller's
// or "*", and its operation the requested one or ALL — where an ALLOW of READ, WRITE, DELETE or ALTER also grants
// DESCRIBE, and an ALLOW of ALTER_CONFIGS grants DESCRIBE_CONFIGS (implications never extend a DENY).
import type { AclIndex } from "./acl-index.js";
import { type AclEntry, AclOperation, AclPermission, PatternType, type AclResource, WILDCARD } from "./acl-types.js";

/** The broker-wide settings of the rule. */
export interface AccessPolicy {
  /** Principals ("User:name") allowed everything. */
  readonly superUsers: ReadonlySet<string>;
  /** Kafka's allow.everyone.if.no.acl.found. */
  readonly allowEveryoneIfNoAclFound: boolean;
}

/** Who asks: principal "User:name" and client address. */
export interface Requester {
  readonly principal: string;
  readonly host: string;
}

const WILDCARD_PRINCIPAL = "User:*";

const IMPLIED_BY: ReadonlyMap<number, readonly number[]> = new Map([
  [AclOperation.DESCRIBE, [AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER]],
  [AclOperation.DESCRIBE_CONFIGS, [AclOperation.ALTER_CONFIGS]],
]);

function applies(entry: AclEntry, requester: Requester): boolean {
  return (
    (entry.principal === requester.principal || entry.principal === WILDCARD_PRINCIPAL) &&
    (entry.host === requester.host || entry.host === WILDCARD)
  );
}

function denies(entry: AclEntry, requester: Requester, operation: number): boolean {
  return (
    entry.permission === AclPermission.DENY &&
    (entry.operation === operation || entry.operation === AclOperation.ALL) &&
    applies(entry, requester)
  );
}

function allows(entry: AclEntry, requester: Requester, operation: number): boolean {
  if (entry.permission !== AclPermission.ALLOW || !applies(entry, requester)) return false;
  if (entry.operation === operation || entry.operation === AclOperation.ALL) return true;
  return IMPLIED_BY.get(operation)?.includes(entry.operation) ?? false;
}

/** True when `requester` may perform `operation` on `resource`. */
export function isAllowed(
  index: AclIndex,
  policy: AccessPolicy,
  requester: Requester,
  operation: number,
  resource: AclResource,
): boolean {
  if (policy.superUsers.has(requester.principal)) return true;
  const entries = index.entriesFor(resource);
  if (entries.length === 0) return policy.allowEveryoneIfNoAclFound;
  if (entries.some((entry) => denies(entry, requester, operation))) return false;
  return entries.some((entry) => allows(entry, requester, operation));
}

/**
 * True when `requester` may perform `operation` on at least one resource of `resourceType` (Kafka's
 * authorizeByResourceType, used for idempotent producers: WRITE on any topic): some ALLOW pattern grants it and no
 * DENY covers that whole pattern (a DENY on the LITERAL "*", or a DENY PREFIXED pattern the allowed name starts with,
 * or a DENY on the same LITERAL name).
 */
export function isAllowedOnAny(
  index: AclIndex,
  policy: AccessPolicy,
  requester: Requester,
  operation: number,
  resourceType: number,
): boolean {
  if (policy.superUsers.has(requester.principal)) return true;
  const patterns = index.patternsOf(resourceType);
  if (patterns.length === 0) return policy.allowEveryoneIfNoAclFound;
  const denied = patterns.filter(({ entries }) => entries.some((entry) => denies(entry, requester, operation)));
  const covered = (name: string, patternType: number): boolean =>
    denied.some(
      ({ pattern }) =>
        (pattern.patternType === PatternType.LITERAL &&
          (pattern.name === WILDCARD || (pattern.name === name && patternType === PatternType.LITERAL))) ||
        (pattern.patternType === PatternType.PREFIXED && name.startsWith(pattern.name)),
    );
  return patterns.some(
    ({ pattern, entries }) =>
      entries.some((entry) => allows(entry, requester, operation)) && !covered(pattern.name, pattern.patternType),
  );
}
