// Clusters, tenants and namespaces through the admin API: the one cluster this broker belongs to, the tenants
// (`public` built in) and their namespaces (`public/default` built in), created and deleted through
// NamespaceRegistry. Deleting a namespace that holds topics is refused (409), as is deleting a tenant that holds
// namespaces; a deleted namespace's policies go with it.
import type { AdminContext } from "./admin-context.js";
import { asJson } from "./permission-operations.js";
import { type AdminResponse, NO_CONTENT, conflict, notFound, ok, preconditionFailed } from "./admin-exchange.js";
import { stringListBody } from "./admin-bodies.js";
import type { JsonValue } from "./json-text.js";
import type { DeleteOutcome } from "./namespace-registry.js";

/** GET clusters. */
export function listClusters(context: AdminContext): AdminResponse {
  return ok([context.cluster]);
}

/** GET clusters/{cluster}: its service URLs; 404 for any other cluster. */
export function getCluster(context: AdminContext, cluster: string): AdminResponse {
  if (cluster !== context.cluster) throw notFound("Cluster does not exist");
  return ok({ serviceUrl: context.serviceUrl, brokerServiceUrl: context.brokerServiceUrl });
}

/** GET tenants. */
export async function listTenants(context: AdminContext, signal?: AbortSignal): Promise<AdminResponse> {
  return ok(await context.namespaces.listTenants(signal));
}

/** GET tenants/{tenant}: its TenantInfo. */
export async function getTenant(context: AdminContext, tenant: string, signal?: AbortSignal): Promise<AdminResponse> {
  const found = await context.namespaces.getTenant(tenant, signal);
  if (found === undefined) throw notFound("Tenant does not exist");
  return ok({ adminRoles: found.adminRoles, allowedClusters: found.allowedClusters });
}

/** PUT tenants/{tenant} with a TenantInfo body (allowed clusters: this one; default it). */
export async function createTenant(
  context: AdminContext,
  tenant: string,
  body: JsonValue | undefined,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const info = typeof body === "object" && body !== null && !Array.isArray(body) ? body : {};
  const roles = stringListBody((info as Record<string, JsonValue>)["adminRoles"], "adminRoles");
  const clusters = stringListBody((info as Record<string, JsonValue>)["allowedClusters"], "allowedClusters");
  const unknown = clusters.filter((cluster) => cluster !== context.cluster);
  if (unknown.length > 0) throw preconditionFailed(`Clusters do not exist: ${unknown.join(", ")}`);
  const outcome = await context.namespaces.createTenant(
    tenant,
    roles,
    clusters.length === 0 ? [context.cluster] : clusters,
    signal,
  );
  if (outcome === "exists") throw conflict("Tenant already exists");
  return NO_CONTENT;
}

/** DELETE tenants/{tenant}. */
export async function deleteTenant(
  context: AdminContext,
  tenant: string,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  return answerDeletion(
    await context.namespaces.deleteTenant(tenant, signal),
    "Tenant",
    "The tenant still has namespaces",
  );
}

/** GET namespaces/{tenant}. */
export async function listNamespaces(
  context: AdminContext,
  tenant: string,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  if ((await context.namespaces.getTenant(tenant, signal)) === undefined) throw notFound("Tenant does not exist");
  return ok(await context.namespaces.listNamespaces(tenant, signal));
}

/** PUT namespaces/{tenant}/{namespace} (the Policies body, if any, is not kept). */
export async function createNamespace(
  context: AdminContext,
  tenant: string,
  namespace: string,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const outcome = await context.namespaces.createNamespace(tenant, namespace, signal);
  if (outcome === "no-tenant") throw notFound("Tenant does not exist");
  if (outcome === "exists") throw conflict("Namespace already exists");
  return NO_CONTENT;
}

/**
 * GET namespaces/{tenant}/{namespace}: its Policies — the deduplication, auto-topic-creation and storage-profile
 * policies it sets, this cluster as the replication cluster, Pulsar's defaults for the rest.
 */
export async function getNamespacePolicies(
  context: AdminContext,
  tenant: string,
  namespace: string,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  if ((await context.namespaces.getNamespace(tenant, namespace, signal)) === undefined) {
    throw notFound("Namespace does not exist");
  }
  const name = { name: `${tenant}/${namespace}`, tenant, namespace };
  const permissions = context.topics.broker.auth.permissions;
  const [policies, grants, subscriptionAuthMode] = await Promise.all([
    context.topics.broker.policies.store.namespacePolicies(name, { signal }),
    permissions.namespacePermissions(name, { signal }),
    permissions.subscriptionAuthMode(name, { signal }),
  ]);
  const auto = policies.autoTopicCreation;
  return ok({
    auth_policies: { namespace_auth: asJson([grants]), destination_auth: {}, subscription_auth_roles: {} },
    replication_clusters: [context.cluster],
    bundles: { boundaries: ["0x00000000", "0xffffffff"], numBundles: 1 },
    subscription_auth_mode: subscriptionAuthMode,
    deduplicationEnabled: policies.deduplicationEnabled,
    autoTopicCreationOverride:
      auto === undefined
        ? undefined
        : {
            allowAutoTopicCreation: auto.allowed,
            topicType: auto.type,
            defaultNumPartitions: auto.type === "partitioned" ? auto.defaultPartitions : undefined,
          },
    storageProfile: policies.storageProfile,
    deleted: false,
  });
}

/** DELETE namespaces/{tenant}/{namespace}: refused (409) while it holds topics. */
export async function deleteNamespace(
  context: AdminContext,
  tenant: string,
  namespace: string,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const ledgers = context.topics.broker.ledgers;
  if ((await context.namespaces.getNamespace(tenant, namespace, signal)) === undefined) {
    throw notFound("Namespace does not exist");
  }
  if ((await ledgers.topics.list(tenant, namespace, signal)).length > 0) {
    throw conflict("Cannot delete non empty namespace");
  }
  const outcome = await context.namespaces.deleteNamespace(tenant, namespace, signal);
  if (outcome === "deleted") {
    const name = { name: `${tenant}/${namespace}`, tenant, namespace };
    await context.topics.broker.policies.store.removeNamespacePolicies(name, signal);
    await context.topics.broker.auth.permissions.removeNamespace(name, signal);
  }
  return answerDeletion(outcome, "Namespace", "Cannot delete non empty namespace");
}

function answerDeletion(outcome: DeleteOutcome, what: string, notEmpty: string): AdminResponse {
  if (outcome === "absent") throw notFound(`${what} does not exist`);
  if (outcome === "built-in") throw preconditionFailed(`The built-in ${what.toLowerCase()} cannot be deleted`);
  if (outcome === "not-empty") throw conflict(notEmpty);
  return NO_CONTENT;
}
