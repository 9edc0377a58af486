// Permissions through the admin API, over the broker's PermissionStore — the calls of Java's PulsarAdmin
// `namespaces().getPermissions / grantPermissionOnNamespace / revokePermissionsOnNamespace` and `topics()
// .getPermissions / grantPermission / revokePermissions`: GET answers `{role: [actions]}` (a topic's: the grants on
// its namespace and on the topic merged), POST `.../permissions/{role}` with a JSON array of AuthActions sets the
// role's actions, DELETE takes them. A namespace's permissions need the namespace to exist; a topic's do not (as its
// policies). Revoking a topic-level grant the topic does not have is a 412, as in Pulsar. A namespace's subscription
// auth mode (`namespaces/{t}/{ns}/subscriptionAuthMode`, a JSON string "None" or "Prefix") is kept with its grants.
import { isWellFormedString } from "@nereus/core/internal";
import { type AuthAction, isAuthAction } from "../auth/auth-actions.js";
import { MAX_ROLE_BYTES, type PermissionGrant } from "../auth/permission-record-codec.js";
import type { PermissionStore } from "../auth/permission-store.js";
import { namespaceOf } from "../topics/policy-resolver.js";
import type { NamespaceName, TopicName } from "../topics/topic-name.js";
import type { AdminContext } from "./admin-context.js";
import { type AdminResponse, NO_CONTENT, badRequest, notFound, ok, preconditionFailed } from "./admin-exchange.js";
import type { JsonValue } from "./json-text.js";

/** A role named in a path: non-empty well-formed text of at most MAX_ROLE_BYTES UTF-8 bytes; 400 otherwise. */
export function roleName(value: string): string {
  if (value.length === 0 || !isWellFormedString(value) || Buffer.byteLength(value) > MAX_ROLE_BYTES) {
    throw badRequest(`Invalid role: expected 1 to ${String(MAX_ROLE_BYTES)} bytes of well-formed text`);
  }
  return value;
}

/** The AuthActions of a grant body (a non-empty JSON array of action names); 400 otherwise. */
function actionsBody(body: JsonValue | undefined): AuthAction[] {
  if (!Array.isArray(body) || body.length === 0) {
    throw badRequest('The body must be a non-empty array of actions, e.g. ["produce","consume"]');
  }
  const unknown = body.find((action) => !isAuthAction(action));
  if (unknown !== undefined) throw badRequest(`Unknown action ${JSON.stringify(unknown)}`);
  return body as AuthAction[];
}

/** GET namespaces/{tenant}/{namespace}/permissions. */
export async function getNamespacePermissions(
  context: AdminContext,
  namespace: NamespaceName,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  await requireNamespace(context, namespace, signal);
  return ok(asJson([await storeOf(context).namespacePermissions(namespace, { signal })]));
}

/** POST namespaces/{tenant}/{namespace}/permissions/{role}. */
export async function grantNamespacePermission(
  context: AdminContext,
  namespace: NamespaceName,
  role: string,
  body: JsonValue | undefined,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const actions = actionsBody(body);
  await requireNamespace(context, namespace, signal);
  await storeOf(context).grantOnNamespace(namespace, role, actions, signal);
  return NO_CONTENT;
}

/** DELETE namespaces/{tenant}/{namespace}/permissions/{role}. */
export async function revokeNamespacePermission(
  context: AdminContext,
  namespace: NamespaceName,
  role: string,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  await requireNamespace(context, namespace, signal);
  await storeOf(context).revokeOnNamespace(namespace, role, signal);
  return NO_CONTENT;
}

/** GET namespaces/{tenant}/{namespace}/subscriptionAuthMode ("None" when never set). */
export async function getSubscriptionAuthMode(
  context: AdminContext,
  namespace: NamespaceName,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  await requireNamespace(context, namespace, signal);
  return ok(await storeOf(context).subscriptionAuthMode(namespace, { signal }));
}

/** POST namespaces/{tenant}/{namespace}/subscriptionAuthMode with "None" or "Prefix". */
export async function setSubscriptionAuthMode(
  context: AdminContext,
  namespace: NamespaceName,
  body: JsonValue | undefined,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  if (body !== "None" && body !== "Prefix") throw badRequest('The body must be "None" or "Prefix"');
  await requireNamespace(context, namespace, signal);
  await storeOf(context).setSubscriptionAuthMode(namespace, body, signal);
  return NO_CONTENT;
}

/** GET persistent/{tenant}/{namespace}/{topic}/permissions: the namespace's grants and the topic's, merged. */
export async function getTopicPermissions(
  context: AdminContext,
  topic: TopicName,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const store = storeOf(context);
  const [onNamespace, onTopic] = await Promise.all([
    store.namespacePermissions(namespaceOf(topic), { signal }),
    store.topicPermissions(topic, { signal }),
  ]);
  return ok(asJson([onNamespace, onTopic]));
}

/** POST persistent/{tenant}/{namespace}/{topic}/permissions/{role}. */
export async function grantTopicPermission(
  context: AdminContext,
  topic: TopicName,
  role: string,
  body: JsonValue | undefined,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  await storeOf(context).grantOnTopic(topic, role, actionsBody(body), signal);
  return NO_CONTENT;
}

/** DELETE persistent/{tenant}/{namespace}/{topic}/permissions/{role}; 412 when the topic itself grants it nothing. */
export async function revokeTopicPermission(
  context: AdminContext,
  topic: TopicName,
  role: string,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  if (!(await storeOf(context).revokeOnTopic(topic, role, signal))) {
    throw preconditionFailed("Permissions are not set at the topic level");
  }
  return NO_CONTENT;
}

function storeOf(context: AdminContext): PermissionStore {
  return context.topics.broker.auth.permissions;
}

async function requireNamespace(context: AdminContext, name: NamespaceName, signal?: AbortSignal): Promise<void> {
  if ((await context.namespaces.getNamespace(name.tenant, name.namespace, signal)) === undefined) {
    throw notFound("Namespace does not exist");
  }
}

/** `{role: [actions]}` of grant lists, the actions of a role listed in several merged. */
export function asJson(lists: readonly (readonly PermissionGrant[])[]): Record<string, AuthAction[]> {
  const merged = new Map<string, Set<AuthAction>>();
  for (const grant of lists.flat()) {
    const actions = merged.get(grant.role) ?? new Set<AuthAction>();
    for (const action of grant.actions) actions.add(action);
    merged.set(grant.role, actions);
  }
  const json: Record<string, AuthAction[]> = Object.create(null) as Record<string, AuthAction[]>;
  for (const [role, actions] of [...merged].sort(([a], [b]) => (a < b ? -1 : 1))) json[role] = [...actions];
  return json;
}
