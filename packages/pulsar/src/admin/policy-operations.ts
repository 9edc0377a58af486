// Namespace and topic policies through the admin API, over the broker's PolicyStore: deduplication (Pulsar's
// `namespaces/{t}/{ns}/deduplication` and `persistent/{t}/{ns}/{topic}/deduplicationEnabled`), automatic topic
// creation (`namespaces/{t}/{ns}/autoTopicCreation`, Pulsar's AutoTopicCreationOverride) and Nereus's storage
// profile of new topic incarnations (`.../storageProfile`, a JSON string). GET answers the policy set at that level
// (204 when none; `?applied=true` on a topic: the effective value), POST sets it, DELETE removes it. A namespace's
// policies need the namespace to exist; a topic's do not (a profile set first is the one the topic is created with).
// A topic policy set through a partition applies to its partitioned topic.
import { ErrorCode, NereusError, type StorageProfileName } from "@nereus/core";
import type { PolicyStore } from "../topics/policy-store.js";
import type { NamespaceName, TopicName } from "../topics/topic-name.js";
import type { AutoTopicCreation, NamespacePolicyPatch } from "../topics/topic-policies.js";
import type { AdminContext } from "./admin-context.js";
import { type AdminResponse, NO_CONTENT, badRequest, notFound, ok } from "./admin-exchange.js";
import type { JsonValue } from "./json-text.js";

/** A policy the admin API exposes, by its field in the policy store. */
export type PolicyField = "deduplicationEnabled" | "autoTopicCreation" | "storageProfile";

/** GET a namespace policy (204 when the namespace sets none). */
export async function getNamespacePolicy(
  context: AdminContext,
  namespace: NamespaceName,
  field: PolicyField,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  await requireNamespace(context, namespace, signal);
  const policies = await storeOf(context).namespacePolicies(namespace, { signal });
  return answer(field, policies[field]);
}

/** POST a namespace policy (`body` as Pulsar's client sends it). */
export async function setNamespacePolicy(
  context: AdminContext,
  namespace: NamespaceName,
  field: PolicyField,
  body: JsonValue | undefined,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const patch = patchOf(field, body);
  await requireNamespace(context, namespace, signal);
  await checked(() => storeOf(context).updateNamespacePolicies(namespace, patch, signal));
  return NO_CONTENT;
}

/** DELETE a namespace policy. */
export async function removeNamespacePolicy(
  context: AdminContext,
  namespace: NamespaceName,
  field: PolicyField,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  await requireNamespace(context, namespace, signal);
  await storeOf(context).updateNamespacePolicies(namespace, { [field]: null }, signal);
  return NO_CONTENT;
}

/** GET a topic policy: set on the topic (204 when none), or with `applied` the effective value. */
export async function getTopicPolicy(
  context: AdminContext,
  topic: TopicName,
  field: Exclude<PolicyField, "autoTopicCreation">,
  applied: boolean,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  if (applied) return answer(field, (await context.topics.broker.policies.effective(topic, signal))[field]);
  return answer(field, (await storeOf(context).topicPolicies(topic, { signal }))[field]);
}

/** POST a topic policy. */
export async function setTopicPolicy(
  context: AdminContext,
  topic: TopicName,
  field: Exclude<PolicyField, "autoTopicCreation">,
  body: JsonValue | undefined,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const patch = patchOf(field, body);
  await checked(() => storeOf(context).updateTopicPolicies(topic, patch, signal));
  return NO_CONTENT;
}

/** DELETE a topic policy. */
export async function removeTopicPolicy(
  context: AdminContext,
  topic: TopicName,
  field: Exclude<PolicyField, "autoTopicCreation">,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  await storeOf(context).updateTopicPolicies(topic, { [field]: null }, signal);
  return NO_CONTENT;
}

function storeOf(context: AdminContext): PolicyStore {
  return context.topics.broker.policies.store;
}

async function requireNamespace(context: AdminContext, name: NamespaceName, signal?: AbortSignal): Promise<void> {
  if ((await context.namespaces.getNamespace(name.tenant, name.namespace, signal)) === undefined) {
    throw notFound("Namespace does not exist");
  }
}

/** The answer carrying a policy value in Pulsar's form; 204 when it is not set. */
function answer(field: PolicyField, value: unknown): AdminResponse {
  if (value === undefined) return NO_CONTENT;
  if (field !== "autoTopicCreation") return ok(value);
  const auto = value as AutoTopicCreation;
  return ok({
    allowAutoTopicCreation: auto.allowed,
    topicType: auto.type,
    defaultNumPartitions: auto.type === "partitioned" ? auto.defaultPartitions : undefined,
  });
}

/** The store patch setting `field` from a request body; 400 for a body of the wrong shape. */
function patchOf(field: PolicyField, body: JsonValue | undefined): NamespacePolicyPatch {
  switch (field) {
    case "deduplicationEnabled":
      if (typeof body !== "boolean") throw badRequest("The body must be true or false");
      return { deduplicationEnabled: body };
    case "storageProfile":
      if (typeof body !== "string") throw badRequest('The body must be a storage profile name, e.g. "OBJECT_WAL"');
      return { storageProfile: body as StorageProfileName };
    case "autoTopicCreation":
      return { autoTopicCreation: autoTopicCreationOf(body) };
  }
}

/** Pulsar's AutoTopicCreationOverride as the store's policy. */
function autoTopicCreationOf(body: JsonValue | undefined): AutoTopicCreation {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("The body must be an AutoTopicCreationOverride object");
  }
  const override = body as Readonly<Record<string, JsonValue>>;
  const allowed = override["allowAutoTopicCreation"];
  const type = override["topicType"] ?? "non-partitioned";
  const partitions = override["defaultNumPartitions"] ?? 1;
  if (typeof allowed !== "boolean") throw badRequest("allowAutoTopicCreation must be true or false");
  if (type !== "partitioned" && type !== "non-partitioned") {
    throw badRequest('topicType must be "partitioned" or "non-partitioned"');
  }
  if (typeof partitions !== "number") throw badRequest("defaultNumPartitions must be an integer");
  return { allowed, type, defaultPartitions: partitions };
}

/** Runs a policy change; the store's refusals of a value (an unknown profile, a bad count) are 400s. */
async function checked(change: () => Promise<unknown>): Promise<void> {
  try {
    await change();
  } catch (error) {
    if (!NereusError.is(error)) throw error;
    if (error.code === ErrorCode.INVALID_ARGUMENT || error.code === ErrorCode.UNSUPPORTED_STORAGE_PROFILE) {
      throw badRequest(error.message);
    }
    throw error;
  }
}
