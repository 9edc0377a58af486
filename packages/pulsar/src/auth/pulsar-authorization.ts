// Authorization of authenticated roles, as Apache Pulsar's default authorization provider decides: a super user may
// do anything; a tenant's admin roles may do anything within the tenant; any other role needs the action granted on
// the topic's namespace or on the topic itself (a partition: its partitioned topic) — `produce` to publish,
// `consume` to subscribe, either one to look a topic up or list a namespace's topics — and with the namespace's
// subscription auth mode `Prefix`, every role but a super user names its subscriptions starting with the role. Grants and tenant records are
// read through bounded-age caches, so a change made on another broker is seen within `cacheMs`; one made through the
// same PermissionStore at once.
import type { NamespaceName, TopicName } from "../topics/topic-name.js";
import type { AuthAction } from "./auth-actions.js";
import type { PermissionGrant } from "./permission-record-codec.js";
import type { PermissionStore } from "./permission-store.js";
import type { TenantAdmins } from "./tenant-admins.js";

/** What a client asks to do with a topic. */
export type TopicOperation = "produce" | "consume" | "lookup";

/** How long permission and tenant reads may be reused by the checks, by default (milliseconds). */
const DEFAULT_AUTHORIZATION_CACHE_MS = 1_000;

export interface PulsarAuthorizationOptions {
  /** Roles that may do anything (Pulsar's `superUserRoles`). */
  readonly superUserRoles: readonly string[];
  readonly permissions: PermissionStore;
  readonly tenantAdmins: TenantAdmins;
  /** How long a read may be reused (default 1 s). */
  readonly cacheMs?: number;
}

/** The authorization checks of one broker (see the module comment). */
export class PulsarAuthorization {
  readonly permissions: PermissionStore;
  readonly #superUsers: ReadonlySet<string>;
  readonly #tenantAdmins: TenantAdmins;
  readonly #cacheMs: number;

  constructor(options: PulsarAuthorizationOptions) {
    this.permissions = options.permissions;
    this.#superUsers = new Set(options.superUserRoles);
    this.#tenantAdmins = options.tenantAdmins;
    this.#cacheMs = options.cacheMs ?? DEFAULT_AUTHORIZATION_CACHE_MS;
  }

  /** True when `role` is a super user. */
  isSuperUser(role: string): boolean {
    return this.#superUsers.has(role);
  }

  /** True when `role` is a super user or one of `tenant`'s admin roles. */
  async isTenantAdmin(role: string, tenant: string, signal?: AbortSignal): Promise<boolean> {
    if (this.isSuperUser(role)) return true;
    return (await this.#tenantAdmins.rolesOf(tenant, this.#cacheMs, signal)).includes(role);
  }

  /** True when `role` may do `operation` on `topic`. */
  async allowTopicOperation(
    role: string,
    topic: TopicName,
    operation: TopicOperation,
    signal?: AbortSignal,
  ): Promise<boolean> {
    if (this.isSuperUser(role)) return true;
    const options = { signal, maxAgeMs: this.#cacheMs };
    const namespace = { name: `${topic.tenant}/${topic.namespace}`, tenant: topic.tenant, namespace: topic.namespace };
    const [onNamespace, onTopic] = await Promise.all([
      this.permissions.namespacePermissions(namespace, options),
      this.permissions.topicPermissions(topic, options),
    ]);
    const granted = [...actionsOf(onNamespace, role), ...actionsOf(onTopic, role)];
    if (permits(granted, operation)) return true;
    return this.isTenantAdmin(role, topic.tenant, signal);
  }

  /**
   * Why `role` may not consume through `subscription` on `topic` under its namespace's subscription auth mode
   * (Prefix: the name must start with the role), or undefined when it may. Super users are not bound by it.
   */
  async subscriptionRefusal(
    role: string,
    topic: TopicName,
    subscription: string,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    if (this.isSuperUser(role)) return undefined;
    const namespace = { name: `${topic.tenant}/${topic.namespace}`, tenant: topic.tenant, namespace: topic.namespace };
    const mode = await this.permissions.subscriptionAuthMode(namespace, { signal, maxAgeMs: this.#cacheMs });
    if (mode !== "Prefix" || subscription.startsWith(role)) return undefined;
    return `The subscription name needs to be prefixed by the authentication role, like ${role}-xxxx`;
  }

  /** True when `role` may list the topics of `namespace` (produce or consume granted on it, or tenant admin). */
  async allowNamespaceLookup(role: string, namespace: NamespaceName, signal?: AbortSignal): Promise<boolean> {
    if (this.isSuperUser(role)) return true;
    const grants = await this.permissions.namespacePermissions(namespace, { signal, maxAgeMs: this.#cacheMs });
    if (permits(actionsOf(grants, role), "lookup")) return true;
    return this.isTenantAdmin(role, namespace.tenant, signal);
  }
}

function actionsOf(grants: readonly PermissionGrant[], role: string): readonly AuthAction[] {
  return grants.find((grant) => grant.role === role)?.actions ?? [];
}

function permits(granted: readonly AuthAction[], operation: TopicOperation): boolean {
  if (operation === "lookup") return granted.includes("produce") || granted.includes("consume");
  return granted.includes(operation);
}
