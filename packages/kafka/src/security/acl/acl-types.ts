// The ACL model, in Kafka's terms and with Kafka's wire codes: a binding is a resource pattern (resource type, name,
// LITERAL or PREFIXED) plus one entry (principal, host, operation, ALLOW or DENY). Filters (DescribeAcls,
// DeleteAcls) may also use ANY, and MATCH for the pattern type; stored bindings never do.

/** Resource types by Kafka code. */
export const ResourceType = {
  UNKNOWN: 0,
  ANY: 1,
  TOPIC: 2,
  GROUP: 3,
  CLUSTER: 4,
  TRANSACTIONAL_ID: 5,
  DELEGATION_TOKEN: 6,
  USER: 7,
} as const;
export type ResourceType = (typeof ResourceType)[keyof typeof ResourceType];

/** Pattern types by Kafka code (ANY and MATCH only in filters). */
export const PatternType = {
  UNKNOWN: 0,
  ANY: 1,
  MATCH: 2,
  LITERAL: 3,
  PREFIXED: 4,
} as const;
export type PatternType = (typeof PatternType)[keyof typeof PatternType];

/** Operations by Kafka code (ANY only in filters; ALL grants or denies every operation). */
export const AclOperation = {
  UNKNOWN: 0,
  ANY: 1,
  ALL: 2,
  READ: 3,
  WRITE: 4,
  CREATE: 5,
  DELETE: 6,
  ALTER: 7,
  DESCRIBE: 8,
  CLUSTER_ACTION: 9,
  DESCRIBE_CONFIGS: 10,
  ALTER_CONFIGS: 11,
  IDEMPOTENT_WRITE: 12,
  CREATE_TOKENS: 13,
  DESCRIBE_TOKENS: 14,
} as const;
export type AclOperation = (typeof AclOperation)[keyof typeof AclOperation];

/** Permission types by Kafka code (ANY only in filters). */
export const AclPermission = {
  UNKNOWN: 0,
  ANY: 1,
  DENY: 2,
  ALLOW: 3,
} as const;
export type AclPermission = (typeof AclPermission)[keyof typeof AclPermission];

/** The name of the one CLUSTER resource. */
export const CLUSTER_RESOURCE_NAME = "kafka-cluster";
/** A LITERAL resource name matching every resource of its type; also the host and principal-name wildcard. */
export const WILDCARD = "*";

/** A concrete resource a request touches. */
export interface AclResource {
  readonly resourceType: ResourceType;
  readonly name: string;
}

/** The resources a binding applies to. Invariant: `patternType` is LITERAL or PREFIXED. */
export interface ResourcePattern {
  readonly resourceType: ResourceType;
  readonly name: string;
  readonly patternType: PatternType;
}

/** Who may (or may not) do what from where. */
export interface AclEntry {
  /** "User:name" or "User:*". */
  readonly principal: string;
  /** An IP address or "*". */
  readonly host: string;
  readonly operation: AclOperation;
  readonly permission: AclPermission;
}

/** One ACL: a pattern and an entry. */
export interface AclBinding {
  readonly pattern: ResourcePattern;
  readonly entry: AclEntry;
}

/** The cluster resource. */
export const CLUSTER_RESOURCE: AclResource = Object.freeze({
  resourceType: ResourceType.CLUSTER,
  name: CLUSTER_RESOURCE_NAME,
});

/** The topic `name` as a resource. */
export function topicResource(name: string): AclResource {
  return { resourceType: ResourceType.TOPIC, name };
}

/** The consumer group `groupId` as a resource. */
export function groupResource(groupId: string): AclResource {
  return { resourceType: ResourceType.GROUP, name: groupId };
}

/** Kafka's name of a code of `table` (for messages and logs). */
export function codeName(table: Readonly<Record<string, number>>, code: number): string {
  for (const [name, value] of Object.entries(table)) if (value === code) return name;
  return `UNKNOWN(${String(code)})`;
}
