// The broker's authorizer: decides, per request, whether its principal may perform an operation on a resource
// (Kafka's rule, access-decision.ts) against this broker's cached ACL snapshot (acl-cache.ts), counts and logs the
// denials, and owns the ACL administration. Disabled (the default), it allows everything and stores nothing; the
// ACL APIs then answer SECURITY_DISABLED.
import { ErrorCode, type MetadataStore, NereusError } from "@nereus/core";
import type { KafkaBrokerLogger } from "../../logging/broker-logger.js";
import { findSupportedApi } from "../../protocol/supported-apis.js";
import { formatPrincipal, type KafkaPrincipal } from "../kafka-principal.js";
import { type AccessPolicy, isAllowed, isAllowedOnAny, type Requester } from "./access-decision.js";
import { AclAdmin } from "./acl-admin.js";
import { AclCache } from "./acl-cache.js";
import type { AclIndex } from "./acl-index.js";
import { AclStore } from "./acl-store.js";
import { type AclResource, AclOperation, ResourceType, codeName } from "./acl-types.js";
import { DenialLog } from "./denial-log.js";
import { peerHost } from "./peer-host.js";

/** Authorization settings (Kafka's authorizer.class.name, super.users, allow.everyone.if.no.acl.found). */
export interface KafkaAuthorizationOptions {
  /** Check every request against the ACLs (default false: everything is allowed). */
  readonly enabled: boolean;
  /** Principals ("User:name") allowed everything. */
  readonly superUsers?: readonly string[];
  /** Allow an operation on a resource no ACL applies to (default false). */
  readonly allowEveryoneIfNoAclFound?: boolean;
  /** Backstop reload period of the ACL cache in ms (default 5,000; the watch normally reloads it at once). */
  readonly refreshIntervalMs?: number;
}

/** What a check needs of a request (the broker's RequestContext fits). */
export interface AuthorizationRequest {
  readonly principal: KafkaPrincipal;
  /** The client's address as the listener gave it, e.g. "127.0.0.1:53122". */
  readonly peer: string;
  readonly apiKey: number;
}

/** The checks of one request against one ACL snapshot. Denials are counted and logged. */
export interface RequestAccess {
  /** True when the request may perform `operation` on `resource`. */
  allows(operation: AclOperation, resource: AclResource): boolean;
  /** True when the request may perform `operation` on some resource of `resourceType` (Kafka's authorizeByResourceType). */
  allowsAny(operation: AclOperation, resourceType: ResourceType): boolean;
  /** `allows` without counting a denial (for answers that silently leave a resource out, e.g. Metadata of all topics). */
  permits(operation: AclOperation, resource: AclResource): boolean;
}

const ALLOW_ALL: RequestAccess = Object.freeze({
  allows: () => true,
  allowsAny: () => true,
  permits: () => true,
});
const ALLOW_ALL_PROMISE = Promise.resolve(ALLOW_ALL);

/** Dependencies of an enabled authorizer. */
export interface KafkaAuthorizerDependencies {
  readonly metadata: MetadataStore;
  readonly cluster: string;
  readonly logger: KafkaBrokerLogger;
  readonly clock: () => number;
  /** Called once per denied check with the API's name. */
  readonly onDenied: (api: string) => void;
}

interface Enabled {
  readonly policy: AccessPolicy;
  readonly cache: AclCache;
  readonly admin: AclAdmin;
  readonly denials: DenialLog;
  readonly onDenied: (api: string) => void;
}

/** See the module comment. Create with {@link createKafkaAuthorizer}. */
export class KafkaAuthorizer {
  readonly #enabled: Enabled | undefined;

  constructor(enabled: Enabled | undefined) {
    this.#enabled = enabled;
  }

  /** True when requests are checked. */
  get enabled(): boolean {
    return this.#enabled !== undefined;
  }

  /** The ACL administration; undefined when authorization is disabled. */
  get admin(): AclAdmin | undefined {
    return this.#enabled?.admin;
  }

  /** The checks of `request` (waits for the first ACL load; resolves at once when disabled). */
  access(request: AuthorizationRequest): Promise<RequestAccess> {
    const enabled = this.#enabled;
    if (enabled === undefined) return ALLOW_ALL_PROMISE;
    return enabled.cache.current().then((index) => this.#accessOf(enabled, index, request));
  }

  /** One check: may `request`'s principal perform `operation` on `resource`? (Counts and logs a denial.) */
  async authorize(request: AuthorizationRequest, operation: AclOperation, resource: AclResource): Promise<boolean> {
    return (await this.access(request)).allows(operation, resource);
  }

  /** Starts following ACL changes (no-op when disabled). */
  start(): void {
    this.#enabled?.cache.start();
  }

  /** Stops following ACL changes. Idempotent. */
  async close(): Promise<void> {
    await this.#enabled?.cache.close();
  }

  #accessOf(enabled: Enabled, index: AclIndex, request: AuthorizationRequest): RequestAccess {
    const requester: Requester = { principal: formatPrincipal(request.principal), host: peerHost(request.peer) };
    const denied = (operation: number, resource: string): false => {
      const api = findSupportedApi(request.apiKey)?.name ?? String(request.apiKey);
      enabled.onDenied(api);
      enabled.denials.denied({ ...requester, api, operation: codeName(AclOperation, operation), resource });
      return false;
    };
    const permits = (operation: AclOperation, resource: AclResource): boolean =>
      isAllowed(index, enabled.policy, requester, operation, resource);
    return {
      permits,
      allows: (operation, resource) =>
        permits(operation, resource) ||
        denied(operation, `${codeName(ResourceType, resource.resourceType)}:${resource.name}`),
      allowsAny: (operation, resourceType) =>
        isAllowedOnAny(index, enabled.policy, requester, operation, resourceType) ||
        denied(operation, `${codeName(ResourceType, resourceType)}:(any)`),
    };
  }
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `authorization: ${message}`, { retryable: false });
}

/**
 * The authorizer of `options` (undefined or disabled: allows everything). Throws INVALID_ARGUMENT for a super user
 * that is not a "User:name" principal or a refresh interval that is not a non-negative integer.
 */
export function createKafkaAuthorizer(
  options: KafkaAuthorizationOptions | undefined,
  dependencies: KafkaAuthorizerDependencies,
): KafkaAuthorizer {
  if (options?.enabled !== true) return new KafkaAuthorizer(undefined);
  for (const superUser of options.superUsers ?? []) {
    if (!/^User:.+$/s.test(superUser)) throw invalid(`super user ${JSON.stringify(superUser)} is not "User:name"`);
  }
  const refreshIntervalMs = options.refreshIntervalMs ?? 5_000;
  if (!Number.isSafeInteger(refreshIntervalMs) || refreshIntervalMs < 0)
    throw invalid(`refreshIntervalMs must be a non-negative integer, got ${String(refreshIntervalMs)}`);
  const store = new AclStore(dependencies.metadata, dependencies.cluster);
  const cache = new AclCache({
    store,
    metadata: dependencies.metadata,
    logger: dependencies.logger,
    refreshIntervalMs,
  });
  return new KafkaAuthorizer({
    policy: {
      superUsers: new Set(options.superUsers ?? []),
      allowEveryoneIfNoAclFound: options.allowEveryoneIfNoAclFound ?? false,
    },
    cache,
    admin: new AclAdmin(store, cache),
    denials: new DenialLog(dependencies.logger, dependencies.clock),
    onDenied: dependencies.onDenied,
  });
}
