// Who may call the admin API, as Apache Pulsar's admin endpoints decide while its authentication and authorization
// are on: a caller without a valid token is a 401; with authorization on, a super user may call anything, a
// tenant's admin roles anything under that tenant (its namespaces, topics, policies and permissions, and reading
// the tenant) — creating, deleting or listing tenants is for super users — and any authenticated role may read the
// cluster list; everything else is a 403. With authorization off, any authenticated caller may call anything.
import type { BrokerAuth } from "../auth/broker-auth.js";
import { entityName } from "./admin-arguments.js";
import { AdminFailure, type AdminMethod, type AdminRequest, AdminStatus } from "./admin-exchange.js";

/** The route being called, by its method and pattern, with the segments it captured. */
export interface AdminCallTarget {
  readonly method: AdminMethod;
  readonly pattern: readonly string[];
  readonly params: Readonly<Record<string, string>>;
}

/** Resolves when the caller may make `call`; rejects with a 401 or 403 AdminFailure. */
export async function checkAdminAccess(auth: BrokerAuth, call: AdminCallTarget, request: AdminRequest): Promise<void> {
  if (auth.authentication === undefined) return;
  const { role } = request;
  if (role === undefined) throw new AdminFailure(AdminStatus.UNAUTHORIZED, "Authentication required");
  const authorization = auth.authorization;
  if (authorization === undefined || authorization.isSuperUser(role)) return;
  const { method, pattern } = call;
  if (method === "GET" && pattern[0] === "clusters") return;
  const tenantParam = call.params["tenant"];
  const tenantOperation = pattern[0] === "tenants" && method !== "GET";
  if (tenantParam === undefined || tenantOperation) {
    throw new AdminFailure(AdminStatus.FORBIDDEN, "This operation requires super-user access");
  }
  const tenant = entityName(tenantParam, "tenant");
  if (await authorization.isTenantAdmin(role, tenant, request.signal)) return;
  throw new AdminFailure(AdminStatus.FORBIDDEN, "Don't have permission to administrate resources on this tenant");
}
