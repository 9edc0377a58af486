// The admin API's route table: (method, path pattern) → operation, for the v2 paths Pulsar's PulsarAdmin client
// calls. A pattern segment `:name` captures one path segment; every captured segment, query parameter and body is
// checked (400) before the operation runs. Routes are tried in order, so a literal segment (`.../partitioned`) wins
// over a topic named the same only for the method it serves.
import type { NamespaceName, TopicName } from "../topics/topic-name.js";
import { booleanParameter, decimalInteger, entityName, subscriptionName, topicNameOf } from "./admin-arguments.js";
import { checkNoTopicProperties, messageIdBody, partitionCountBody } from "./admin-bodies.js";
import type { AdminContext } from "./admin-context.js";
import { type AdminMethod, type AdminRequest, type AdminResponse, ok } from "./admin-exchange.js";
import { internalStats } from "./internal-stats.js";
import { peekMessage } from "./peek-message.js";
import {
  getNamespacePermissions,
  getSubscriptionAuthMode,
  getTopicPermissions,
  grantNamespacePermission,
  grantTopicPermission,
  revokeNamespacePermission,
  revokeTopicPermission,
  roleName,
  setSubscriptionAuthMode,
} from "./permission-operations.js";
import {
  type PolicyField,
  getNamespacePolicy,
  getTopicPolicy,
  removeNamespacePolicy,
  removeTopicPolicy,
  setNamespacePolicy,
  setTopicPolicy,
} from "./policy-operations.js";
import {
  createNamespace,
  createTenant,
  deleteNamespace,
  deleteTenant,
  getCluster,
  getNamespacePolicies,
  getTenant,
  listClusters,
  listNamespaces,
  listTenants,
} from "./namespace-operations.js";
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  resetCursorByTime,
  resetCursorToMessageId,
  skipAllMessages,
  skipMessages,
} from "./subscription-operations.js";
import {
  createPartitionedTopic,
  createTopic,
  deletePartitionedTopic,
  deleteTopic,
  listPartitionedTopics,
  listTopics,
  partitionedMetadata,
} from "./topic-operations.js";
import { partitionedTopicStats, topicStats } from "./topic-stats.js";

/** One matched call: the captured segments by name, the request and the shared state. */
interface RouteCall {
  readonly params: Readonly<Record<string, string>>;
  readonly request: AdminRequest;
  readonly context: AdminContext;
}

/** One route: a method, a path pattern and the operation. */
export interface AdminRoute {
  readonly method: AdminMethod;
  readonly pattern: readonly string[];
  readonly run: (call: RouteCall) => AdminResponse | Promise<AdminResponse>;
}

const MAX_TIMESTAMP = Number.MAX_SAFE_INTEGER;
const MAX_SKIP = 0x7fff_ffff;

function route(method: AdminMethod, path: string, run: AdminRoute["run"]): AdminRoute {
  return { method, pattern: path.split("/"), run };
}

function tenantOf({ params }: RouteCall): string {
  return entityName(params["tenant"]!, "tenant");
}

function namespaceOf(call: RouteCall): [string, string] {
  return [tenantOf(call), entityName(call.params["namespace"]!, "namespace")];
}

function topicOf({ params }: RouteCall): TopicName {
  return topicNameOf(params["tenant"]!, params["namespace"]!, params["topic"]!);
}

function namespaceNameOf(call: RouteCall): NamespaceName {
  const [tenant, namespace] = namespaceOf(call);
  return { name: `${tenant}/${namespace}`, tenant, namespace };
}

function roleOf({ params }: RouteCall): string {
  return roleName(params["role"]!);
}

function subscriptionOf({ params }: RouteCall): string {
  return subscriptionName(params["subscription"]!);
}

function forceOf({ request }: RouteCall): boolean {
  return booleanParameter(request.query, "force", false);
}

const TOPIC = "persistent/:tenant/:namespace/:topic";
const SUBSCRIPTION = `${TOPIC}/subscription/:subscription`;

/** GET, POST and DELETE of one namespace policy at `namespaces/{tenant}/{namespace}/{path}`. */
function namespacePolicyRoutes(path: string, field: PolicyField): AdminRoute[] {
  const pattern = `namespaces/:tenant/:namespace/${path}`;
  const name = (call: RouteCall) => {
    const [tenant, namespace] = namespaceOf(call);
    return { name: `${tenant}/${namespace}`, tenant, namespace };
  };
  return [
    route("GET", pattern, (call) => getNamespacePolicy(call.context, name(call), field, call.request.signal)),
    route("POST", pattern, (call) =>
      setNamespacePolicy(call.context, name(call), field, call.request.body, call.request.signal),
    ),
    route("DELETE", pattern, (call) => removeNamespacePolicy(call.context, name(call), field, call.request.signal)),
  ];
}

/** GET (`?applied=true`: the effective value), POST and DELETE of one topic policy at `{topic}/{path}`. */
function topicPolicyRoutes(path: string, field: Exclude<PolicyField, "autoTopicCreation">): AdminRoute[] {
  const pattern = `${TOPIC}/${path}`;
  return [
    route("GET", pattern, (call) => {
      const topic = topicOf(call);
      const applied = booleanParameter(call.request.query, "applied", false);
      return getTopicPolicy(call.context, topic, field, applied, call.request.signal);
    }),
    route("POST", pattern, (call) =>
      setTopicPolicy(call.context, topicOf(call), field, call.request.body, call.request.signal),
    ),
    route("DELETE", pattern, (call) => removeTopicPolicy(call.context, topicOf(call), field, call.request.signal)),
  ];
}

/** Every route of the admin API, in match order. */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  route("GET", "clusters", ({ context }) => listClusters(context)),
  route("GET", "clusters/:cluster", ({ context, params }) => getCluster(context, params["cluster"]!)),
  route("GET", "tenants", ({ context, request }) => listTenants(context, request.signal)),
  route("GET", "tenants/:tenant", (call) => getTenant(call.context, tenantOf(call), call.request.signal)),
  route("PUT", "tenants/:tenant", (call) =>
    createTenant(call.context, tenantOf(call), call.request.body, call.request.signal),
  ),
  route("DELETE", "tenants/:tenant", (call) => deleteTenant(call.context, tenantOf(call), call.request.signal)),
  route("GET", "namespaces/:tenant", (call) => listNamespaces(call.context, tenantOf(call), call.request.signal)),
  route("GET", "namespaces/:tenant/:namespace", (call) =>
    getNamespacePolicies(call.context, ...namespaceOf(call), call.request.signal),
  ),
  route("PUT", "namespaces/:tenant/:namespace", (call) =>
    createNamespace(call.context, ...namespaceOf(call), call.request.signal),
  ),
  route("DELETE", "namespaces/:tenant/:namespace", (call) =>
    deleteNamespace(call.context, ...namespaceOf(call), call.request.signal),
  ),
  ...namespacePolicyRoutes("deduplication", "deduplicationEnabled"),
  ...namespacePolicyRoutes("autoTopicCreation", "autoTopicCreation"),
  ...namespacePolicyRoutes("storageProfile", "storageProfile"),
  route("GET", "namespaces/:tenant/:namespace/subscriptionAuthMode", (call) =>
    getSubscriptionAuthMode(call.context, namespaceNameOf(call), call.request.signal),
  ),
  route("POST", "namespaces/:tenant/:namespace/subscriptionAuthMode", (call) =>
    setSubscriptionAuthMode(call.context, namespaceNameOf(call), call.request.body, call.request.signal),
  ),
  route("GET", "namespaces/:tenant/:namespace/permissions", (call) =>
    getNamespacePermissions(call.context, namespaceNameOf(call), call.request.signal),
  ),
  route("POST", "namespaces/:tenant/:namespace/permissions/:role", (call) => {
    const [namespace, role] = [namespaceNameOf(call), roleOf(call)];
    return grantNamespacePermission(call.context, namespace, role, call.request.body, call.request.signal);
  }),
  route("DELETE", "namespaces/:tenant/:namespace/permissions/:role", (call) => {
    const [namespace, role] = [namespaceNameOf(call), roleOf(call)];
    return revokeNamespacePermission(call.context, namespace, role, call.request.signal);
  }),
  route("GET", "namespaces/:tenant/:namespace/topics", (call) =>
    listTopics(call.context, ...namespaceOf(call), call.request.signal),
  ),
  route("GET", "persistent/:tenant/:namespace", (call) =>
    listTopics(call.context, ...namespaceOf(call), call.request.signal),
  ),
  route("GET", "persistent/:tenant/:namespace/partitioned", (call) =>
    listPartitionedTopics(call.context, ...namespaceOf(call), call.request.signal),
  ),
  route("GET", "non-persistent/:tenant/:namespace", (call) => (namespaceOf(call), ok([]))),
  route("GET", "non-persistent/:tenant/:namespace/partitioned", (call) => (namespaceOf(call), ok([]))),
  route("PUT", TOPIC, (call) => {
    const name = topicOf(call);
    checkNoTopicProperties(call.request.body);
    return createTopic(call.context, name, call.request.signal);
  }),
  route("DELETE", TOPIC, (call) => deleteTopic(call.context, topicOf(call), forceOf(call), call.request.signal)),
  route("PUT", `${TOPIC}/partitions`, (call) => {
    const name = topicOf(call);
    return createPartitionedTopic(call.context, name, partitionCountBody(call.request.body), call.request.signal);
  }),
  route("GET", `${TOPIC}/partitions`, (call) => partitionedMetadata(call.context, topicOf(call), call.request.signal)),
  route("DELETE", `${TOPIC}/partitions`, (call) =>
    deletePartitionedTopic(call.context, topicOf(call), forceOf(call), call.request.signal),
  ),
  route("GET", `${TOPIC}/stats`, (call) => topicStats(call.context, topicOf(call), call.request.signal)),
  route("GET", `${TOPIC}/partitioned-stats`, (call) => {
    const name = topicOf(call);
    const perPartition = booleanParameter(call.request.query, "perPartition", true);
    return partitionedTopicStats(call.context, name, perPartition, call.request.signal);
  }),
  route("GET", `${TOPIC}/internalStats`, (call) => internalStats(call.context, topicOf(call), call.request.signal)),
  ...topicPolicyRoutes("deduplicationEnabled", "deduplicationEnabled"),
  ...topicPolicyRoutes("storageProfile", "storageProfile"),
  route("GET", `${TOPIC}/subscriptions`, (call) => listSubscriptions(call.context, topicOf(call), call.request.signal)),
  route("GET", `${TOPIC}/permissions`, (call) => getTopicPermissions(call.context, topicOf(call), call.request.signal)),
  route("POST", `${TOPIC}/permissions/:role`, (call) => {
    const [topic, role] = [topicOf(call), roleOf(call)];
    return grantTopicPermission(call.context, topic, role, call.request.body, call.request.signal);
  }),
  route("DELETE", `${TOPIC}/permissions/:role`, (call) =>
    revokeTopicPermission(call.context, topicOf(call), roleOf(call), call.request.signal),
  ),
  route("PUT", SUBSCRIPTION, (call) => {
    const [name, subscription] = [topicOf(call), subscriptionOf(call)];
    const body = call.request.body ?? { ledgerId: 2n ** 63n - 1n, entryId: 2n ** 63n - 1n };
    return createSubscription(call.context, name, subscription, messageIdBody(body), call.request.signal);
  }),
  route("DELETE", SUBSCRIPTION, (call) =>
    deleteSubscription(call.context, topicOf(call), subscriptionOf(call), forceOf(call), call.request.signal),
  ),
  route("POST", `${SUBSCRIPTION}/resetcursor/:timestamp`, (call) => {
    const [name, subscription] = [topicOf(call), subscriptionOf(call)];
    const timestamp = decimalInteger(call.params["timestamp"]!, "timestamp", MAX_TIMESTAMP);
    return resetCursorByTime(call.context, name, subscription, timestamp, call.request.signal);
  }),
  route("POST", `${SUBSCRIPTION}/resetcursor`, (call) => {
    const [name, subscription] = [topicOf(call), subscriptionOf(call)];
    const messageId = messageIdBody(call.request.body);
    return resetCursorToMessageId(call.context, name, subscription, messageId, call.request.signal);
  }),
  route("POST", `${SUBSCRIPTION}/skip/:count`, (call) => {
    const [name, subscription] = [topicOf(call), subscriptionOf(call)];
    const count = decimalInteger(call.params["count"]!, "numMessages", MAX_SKIP);
    return skipMessages(call.context, name, subscription, count, call.request.signal);
  }),
  route("GET", `${SUBSCRIPTION}/position/:position`, (call) => {
    const [name, subscription] = [topicOf(call), subscriptionOf(call)];
    const position = decimalInteger(call.params["position"]!, "messagePosition", MAX_SKIP);
    return peekMessage(call.context, name, subscription, position, call.request.signal);
  }),
  route("POST", `${SUBSCRIPTION}/skip_all`, (call) =>
    skipAllMessages(call.context, topicOf(call), subscriptionOf(call), call.request.signal),
  ),
];
