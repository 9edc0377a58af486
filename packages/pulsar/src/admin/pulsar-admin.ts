// The Pulsar admin REST API (v2 paths) over one broker's topics and subscriptions, without HTTP: a request (method,
// decoded path segments, query, parsed JSON body) is routed to its operation and answered with a status and a JSON
// body; failures are answered as Pulsar's REST errors (`{"reason": ...}`). An HTTP server mounts it under
// `/admin/v2/`, reading and bounding the body itself and naming the role its caller authenticated as; with the
// broker's authentication on, calls are checked against that role first (admin-access.ts).
import { ErrorCode, type MetadataStore, NereusError } from "@nereus/core";
import type { PulsarBrokerContext } from "../broker/pulsar-broker.js";
import { checkAdminAccess } from "./admin-access.js";
import type { AdminContext } from "./admin-context.js";
import { type AdminRequest, type AdminResponse, methodNotAllowed, notFound } from "./admin-exchange.js";
import { adminFailureOf } from "./admin-failures.js";
import { ADMIN_ROUTES, type AdminRoute } from "./admin-routes.js";
import { NamespaceRegistry } from "./namespace-registry.js";
import { TopicAccess } from "./topic-access.js";

export interface PulsarAdminOptions {
  /** The broker whose topics and subscriptions the API manages. */
  readonly broker: PulsarBrokerContext;
  /** The metadata store the broker's ledgers use (tenants, namespaces and listings live there too). */
  readonly metadata: MetadataStore;
  /** The broker's cluster name (the one the ledgers were opened for). */
  readonly cluster: string;
  /** `http://host:port` (or https) where the admin API is served. */
  readonly serviceUrl: string;
  /** Wall clock in milliseconds (creation times of tenants and namespaces). */
  readonly clock?: () => number;
}

/** The admin API of one broker. */
export interface PulsarAdmin {
  /** Answers one call; never rejects (a failure is an error response; 500 when unexpected). */
  handle(request: AdminRequest): Promise<AdminResponse>;
}

/** Creates the admin API over `options.broker`; checks the options, no I/O. */
export function createPulsarAdmin(options: PulsarAdminOptions): PulsarAdmin {
  if (!/^https?:\/\/[^/]+$/.test(options.serviceUrl)) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `serviceUrl must be http(s)://host:port, got ${options.serviceUrl}`,
      {
        retryable: false,
      },
    );
  }
  const topics = new TopicAccess(options.broker);
  const { auth } = options.broker;
  const context: AdminContext = {
    topics,
    namespaces: new NamespaceRegistry(
      options.metadata,
      options.broker.ledgers.topics.keyspace.root,
      options.cluster,
      options.clock,
    ),
    metadata: options.metadata,
    cluster: options.cluster,
    serviceUrl: options.serviceUrl,
    brokerServiceUrl: options.broker.advertisedUrl,
  };
  return {
    async handle(request) {
      try {
        const matched = match(request);
        await checkAdminAccess(auth, { ...matched.route, params: matched.params }, request);
        return await matched.route.run({ params: matched.params, request, context });
      } catch (error) {
        return adminFailureOf(error).toResponse();
      }
    },
  };
}

/** The route serving `request`: 404 when no pattern matches its path, 405 when none serves its method. */
function match(request: AdminRequest): { route: AdminRoute; params: Record<string, string> } {
  let pathMatched = false;
  for (const candidate of ADMIN_ROUTES) {
    const params = paramsOf(candidate.pattern, request.segments);
    if (params === undefined) continue;
    pathMatched = true;
    if (candidate.method === request.method) return { route: candidate, params };
  }
  if (pathMatched) throw methodNotAllowed(`${request.method} is not served on this path`);
  throw notFound(`No admin endpoint at /admin/v2/${request.segments.join("/")}`);
}

function paramsOf(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index]!;
    if (part.startsWith(":")) params[part.slice(1)] = segment;
    else if (part !== segment) return undefined;
  }
  return params;
}
