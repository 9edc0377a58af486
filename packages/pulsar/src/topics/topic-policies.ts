// Policies of Pulsar namespaces and topics, and how they combine: a topic's effective value of a policy is the
// topic's own policy, else its namespace's, else the broker's default. A topic policy set on a partitioned topic
// applies to every partition. Auto topic creation is a namespace policy only (a topic that exists was created).
// Pure types and functions; the durable store is policy-store.ts.
import { ErrorCode, NereusError, type StorageProfile, type StorageProfileName } from "@nereus/core";
import { canonicalizeProfile } from "@nereus/core/internal";
import { MAX_PARTITION_COUNT } from "./partitioned-topic.js";

/** What an automatically created topic is. */
export type AutoTopicType = "non-partitioned" | "partitioned";

/** Whether a topic that does not exist is created when a client uses it, and as what. */
export interface AutoTopicCreation {
  readonly allowed: boolean;
  readonly type: AutoTopicType;
  /** Partitions of an automatically created partitioned topic, in [1, 2^31 - 1]. */
  readonly defaultPartitions: number;
}

/** Policies of one topic (a partitioned topic's hold for its partitions); an absent field defers to the namespace. */
export interface TopicPolicies {
  /** Broker-side deduplication of producers' sequence ids. */
  readonly deduplicationEnabled?: boolean;
  /** The storage profile of a new incarnation of the topic (fixed for the incarnation once created). */
  readonly storageProfile?: StorageProfile;
}

/** Policies of one namespace; an absent field defers to the broker's default. */
export interface NamespacePolicies extends TopicPolicies {
  readonly autoTopicCreation?: AutoTopicCreation;
}

/** A value for every policy: the broker's defaults, or a topic's effective policies. */
export interface EffectivePolicies {
  readonly deduplicationEnabled: boolean;
  readonly storageProfile: StorageProfile;
  readonly autoTopicCreation: AutoTopicCreation;
}

/** Apache Pulsar's defaults for automatic topic creation: allowed, non-partitioned, 1 partition when partitioned. */
export const DEFAULT_AUTO_TOPIC_CREATION: AutoTopicCreation = Object.freeze({
  allowed: true,
  type: "non-partitioned",
  defaultPartitions: 1,
});

/** A change to a topic's stored policies: a value sets the policy, null removes it, an absent one stays. */
export interface TopicPolicyPatch {
  readonly deduplicationEnabled?: boolean | null;
  /** A profile name (aliases such as OBJECT_WAL are stored as their canonical profile). */
  readonly storageProfile?: StorageProfileName | null;
}

/** A change to a namespace's stored policies (as {@link TopicPolicyPatch}). */
export interface NamespacePolicyPatch extends TopicPolicyPatch {
  readonly autoTopicCreation?: AutoTopicCreation | null;
}

/** The effective policies of a topic: the topic's own, else its namespace's, else the defaults. */
export function effectivePolicies(
  defaults: EffectivePolicies,
  namespace: NamespacePolicies,
  topic: TopicPolicies,
): EffectivePolicies {
  return {
    deduplicationEnabled: topic.deduplicationEnabled ?? namespace.deduplicationEnabled ?? defaults.deduplicationEnabled,
    storageProfile: topic.storageProfile ?? namespace.storageProfile ?? defaults.storageProfile,
    autoTopicCreation: namespace.autoTopicCreation ?? defaults.autoTopicCreation,
  };
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}

/** `value` checked as an auto-topic-creation policy (INVALID_ARGUMENT naming the field otherwise). */
export function checkAutoTopicCreation(value: AutoTopicCreation): AutoTopicCreation {
  if (typeof value !== "object" || value === null) throw invalid("autoTopicCreation must be an object");
  const { allowed, type, defaultPartitions } = value;
  if (typeof allowed !== "boolean") throw invalid("autoTopicCreation.allowed must be true or false");
  if (type !== "non-partitioned" && type !== "partitioned") {
    throw invalid(`autoTopicCreation.type must be "non-partitioned" or "partitioned", got ${String(type)}`);
  }
  if (!Number.isInteger(defaultPartitions) || defaultPartitions < 1 || defaultPartitions > MAX_PARTITION_COUNT) {
    throw invalid(
      `autoTopicCreation.defaultPartitions must be an integer in [1, 2^31-1], got ${String(defaultPartitions)}`,
    );
  }
  return { allowed, type, defaultPartitions };
}

/** The policies a topic may set (a namespace may set these and autoTopicCreation). */
const TOPIC_POLICY_FIELDS: ReadonlySet<string> = new Set(["deduplicationEnabled", "storageProfile"]);

/**
 * Applies `patch` to `current`, checking every value it sets (INVALID_ARGUMENT before any I/O, also for a policy
 * the scope cannot hold; an unknown storage profile is UNSUPPORTED_STORAGE_PROFILE).
 */
export function applyPolicyPatch(
  scope: "namespace" | "topic",
  current: NamespacePolicies,
  patch: NamespacePolicyPatch,
): NamespacePolicies {
  if (typeof patch !== "object" || patch === null) throw invalid("a policy change must be an object");
  const next: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [field, value] of Object.entries(patch) as [string, unknown][]) {
    if (value === undefined) continue;
    if (scope === "topic" && !TOPIC_POLICY_FIELDS.has(field)) {
      throw invalid(`${JSON.stringify(field)} is not a topic policy`);
    }
    if (value === null) {
      delete next[field];
      continue;
    }
    next[field] = checkedPolicy(field, value);
  }
  return next;
}

function checkedPolicy(field: string, value: unknown): unknown {
  switch (field) {
    case "deduplicationEnabled":
      if (typeof value !== "boolean") throw invalid("deduplicationEnabled must be true or false");
      return value;
    case "storageProfile":
      if (typeof value !== "string") throw invalid("storageProfile must be a storage profile name");
      return canonicalizeProfile(value as StorageProfileName);
    case "autoTopicCreation":
      return checkAutoTopicCreation(value as AutoTopicCreation);
    default:
      throw invalid(`unknown policy ${JSON.stringify(field)}`);
  }
}
