// The authentication and authorization a Pulsar broker applies, built from its options: token authentication when
// `authentication` is given, the default authorization provider when `authorization` is given (it needs
// authentication: a role to authorize), and the permission store either way (the admin API manages grants whether
// or not they are enforced yet).
import { ErrorCode, type MetadataStore, NereusError } from "@nereus/core";
import { PulsarAuthentication, type PulsarAuthenticationOptions } from "./pulsar-authentication.js";
import { PulsarAuthorization } from "./pulsar-authorization.js";
import { PermissionStore } from "./permission-store.js";
import { TenantAdmins } from "./tenant-admins.js";

export interface PulsarAuthOptions {
  /** Clients authenticate with a token (or get the anonymous role); absent: authentication is off. */
  readonly authentication?: PulsarAuthenticationOptions;
  /** Roles need permissions; absent: authorization is off. Requires `authentication`. */
  readonly authorization?: {
    /** Roles that may do anything. */
    readonly superUserRoles: readonly string[];
    /** How long permission and tenant reads may be reused (default 1 s). */
    readonly cacheMs?: number;
  };
}

/** What the connections and the admin API of one broker check clients with. */
export interface BrokerAuth {
  /** Undefined when authentication is off (every client is accepted without a role). */
  readonly authentication: PulsarAuthentication | undefined;
  /** Undefined when authorization is off (every client may do everything). */
  readonly authorization: PulsarAuthorization | undefined;
  readonly permissions: PermissionStore;
}

/** Builds the broker's auth from `options`; INVALID_ARGUMENT for authorization without authentication. No I/O. */
export function createBrokerAuth(
  options: PulsarAuthOptions | undefined,
  metadata: MetadataStore,
  pulsarRoot: string,
  clock?: () => number,
): BrokerAuth {
  const permissions = new PermissionStore(metadata, pulsarRoot, clock);
  if (options?.authorization !== undefined && options.authentication === undefined) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "Pulsar authorization needs authentication to be enabled", {
      retryable: false,
    });
  }
  const authentication =
    options?.authentication === undefined ? undefined : new PulsarAuthentication(options.authentication);
  const authorization =
    options?.authorization === undefined
      ? undefined
      : new PulsarAuthorization({
          superUserRoles: options.authorization.superUserRoles,
          permissions,
          tenantAdmins: new TenantAdmins(metadata, pulsarRoot, clock),
          cacheMs: options.authorization.cacheMs,
        });
  return { authentication, authorization, permissions };
}
