// ACL checks of the consumer-group APIs, as a layer over the coordinator's handlers (the broker installs it when
// authorization is on). Kafka's rules: JoinGroup, SyncGroup, Heartbeat and LeaveGroup need READ on the group;
// OffsetCommit and OffsetFetch need READ on the group and READ on each topic (an unauthorized topic's partitions
// answer TOPIC_AUTHORIZATION_FAILED and are not committed; a fetch of all topics leaves them out); FindCoordinator
// needs DESCRIBE on the group; DescribeGroups DESCRIBE per group; ListGroups lists every group with DESCRIBE on the
// cluster, else only the groups the client may DESCRIBE; DeleteGroups needs DELETE per group; OffsetDelete DELETE on
// the group and READ on each topic. A denied group answers GROUP_AUTHORIZATION_FAILED. Requests that change state
// reach the coordinator stripped of what was denied; read-only answers are filtered afterwards.
import { ErrorCode, NereusError } from "@nereus/core";
import { errorResponseBody } from "./error-response.js";
import type { ApiRequest, KafkaApiHandler, KafkaApiHandlers, RequestContext } from "./kafka-api-handler.js";
import { NO_RESPONSE } from "./kafka-api-handler.js";
import { CoordinatorKeyType } from "../protocol/apis/find-coordinator/find-coordinator-request.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { ResponseBody, SupportedApiKey } from "../protocol/supported-apis.js";
import { AclOperation, CLUSTER_RESOURCE, groupResource, topicResource } from "../security/acl/acl-types.js";
import type { KafkaAuthorizer, RequestAccess } from "../security/acl/kafka-authorizer.js";

const GROUP_DENIED = KafkaErrorCode.GROUP_AUTHORIZATION_FAILED;
const TOPIC_DENIED = KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED;
const DENIED_MESSAGE = "Authorization failed.";

type Answer<K extends SupportedApiKey> = Promise<ResponseBody<K>>;
type Inner<K extends SupportedApiKey> = (context: RequestContext, request: ApiRequest<K>) => Answer<K>;

/** Calls `handler` and refuses NO_RESPONSE, which no group API may answer. */
function innerOf<K extends SupportedApiKey>(handler: KafkaApiHandler<K>): Inner<K> {
  return async (context, request) => {
    const body = await handler.handle(context, request);
    if (body === NO_RESPONSE)
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, `group API ${String(request.apiKey)} answered nothing`);
    return body;
  };
}

/** A handler that first gets the request's access, then answers through `answer`. */
function guarded<K extends SupportedApiKey>(
  authorizer: KafkaAuthorizer,
  handler: KafkaApiHandler<K> | undefined,
  answer: (access: RequestAccess, inner: Inner<K>, context: RequestContext, request: ApiRequest<K>) => Answer<K>,
): KafkaApiHandler<K> | undefined {
  if (handler === undefined) return undefined;
  const inner = innerOf(handler);
  return {
    handle: async (context, request) => answer(await authorizer.access(context), inner, context, request),
  };
}

/** The handler of an API about one group that needs READ on it. */
function readingGroup<K extends 11 | 12 | 13 | 14>(
  authorizer: KafkaAuthorizer,
  apiKey: K,
  handler: KafkaApiHandler<K> | undefined,
): KafkaApiHandler<K> | undefined {
  return guarded(authorizer, handler, (access, inner, context, request) =>
    access.allows(AclOperation.READ, groupResource((request as { body: { groupId: string } }).body.groupId))
      ? inner(context, request)
      : Promise.resolve(errorResponseBody(apiKey, GROUP_DENIED)),
  );
}

function partitionErrors(
  topic: { readonly name: string; readonly partitions: ReadonlyArray<{ readonly partitionIndex: number }> },
  errorCode: number,
): { name: string; partitions: Array<{ partitionIndex: number; errorCode: number }> } {
  return {
    name: topic.name,
    partitions: topic.partitions.map(({ partitionIndex }) => ({ partitionIndex, errorCode })),
  };
}

function fetchErrors(
  name: string,
  partitionIndexes: readonly number[],
  errorCode: number,
): {
  name: string;
  partitions: Array<{
    partitionIndex: number;
    committedOffset: number;
    committedLeaderEpoch: number;
    metadata: string;
    errorCode: number;
  }>;
} {
  return {
    name,
    partitions: partitionIndexes.map((partitionIndex) => ({
      partitionIndex,
      committedOffset: -1,
      committedLeaderEpoch: -1,
      metadata: "",
      errorCode,
    })),
  };
}

/** OffsetFetch topics of one group: denied requested topics answer TOPIC_AUTHORIZATION_FAILED, denied listed ones go. */
function filterFetchedTopics<T extends { readonly name: string }>(
  access: RequestAccess,
  requested: ReadonlyArray<{ readonly name: string; readonly partitionIndexes: readonly number[] }> | null,
  answered: readonly T[],
): T[] {
  if (requested === null)
    return answered.filter((topic) => access.permits(AclOperation.READ, topicResource(topic.name)));
  const denied = new Map(
    requested
      .filter((topic) => !access.allows(AclOperation.READ, topicResource(topic.name)))
      .map((topic) => [topic.name, topic.partitionIndexes]),
  );
  return answered.map((topic) => {
    const partitionIndexes = denied.get(topic.name);
    return partitionIndexes === undefined
      ? topic
      : (fetchErrors(topic.name, partitionIndexes, TOPIC_DENIED) as unknown as T);
  });
}

/** The group handlers with Kafka's ACL checks in front (`handlers` itself when authorization is off). */
export function authorizeGroupHandlers(handlers: KafkaApiHandlers, authorizer: KafkaAuthorizer): KafkaApiHandlers {
  if (!authorizer.enabled) return handlers;
  return {
    ...handlers,
    JoinGroup: readingGroup(authorizer, 11, handlers.JoinGroup),
    Heartbeat: readingGroup(authorizer, 12, handlers.Heartbeat),
    LeaveGroup: readingGroup(authorizer, 13, handlers.LeaveGroup),
    SyncGroup: readingGroup(authorizer, 14, handlers.SyncGroup),
    FindCoordinator: guarded(authorizer, handlers.FindCoordinator, async (access, inner, context, request) => {
      const allowed = (key: string): boolean =>
        request.body.keyType !== CoordinatorKeyType.group || access.allows(AclOperation.DESCRIBE, groupResource(key));
      if (request.apiVersion < 4 && !allowed(request.body.key)) {
        return { ...errorResponseBody(10, GROUP_DENIED), errorMessage: DENIED_MESSAGE, nodeId: -1, port: -1 };
      }
      const body = await inner(context, request);
      return {
        ...body,
        coordinators: body.coordinators.map((coordinator) =>
          allowed(coordinator.key)
            ? coordinator
            : { ...coordinator, nodeId: -1, host: "", port: -1, errorCode: GROUP_DENIED, errorMessage: DENIED_MESSAGE },
        ),
      };
    }),
    OffsetCommit: guarded(authorizer, handlers.OffsetCommit, async (access, inner, context, request) => {
      const { body } = request;
      if (!access.allows(AclOperation.READ, groupResource(body.groupId)))
        return { throttleTimeMs: 0, topics: body.topics.map((topic) => partitionErrors(topic, GROUP_DENIED)) };
      const allowed = body.topics.filter((topic) => access.allows(AclOperation.READ, topicResource(topic.name)));
      const denied = body.topics.filter((topic) => !allowed.includes(topic));
      const answered =
        allowed.length === 0 && denied.length > 0
          ? { throttleTimeMs: 0, topics: [] }
          : await inner(context, { ...request, body: { ...body, topics: allowed } });
      return {
        ...answered,
        topics: [...answered.topics, ...denied.map((topic) => partitionErrors(topic, TOPIC_DENIED))],
      };
    }),
    OffsetFetch: guarded(authorizer, handlers.OffsetFetch, async (access, inner, context, request) => {
      const { body } = request;
      if (request.apiVersion < 8) {
        if (!access.allows(AclOperation.READ, groupResource(body.groupId))) return errorResponseBody(9, GROUP_DENIED);
        const answered = await inner(context, request);
        return { ...answered, topics: filterFetchedTopics(access, body.topics, answered.topics) };
      }
      const answered = await inner(context, request);
      return {
        ...answered,
        groups: answered.groups.map((group, index) => {
          if (!access.allows(AclOperation.READ, groupResource(group.groupId)))
            return { ...group, topics: [], errorCode: GROUP_DENIED };
          const requested = body.groups[index]?.topics ?? null;
          return { ...group, topics: filterFetchedTopics(access, requested, group.topics) };
        }),
      };
    }),
    DescribeGroups: guarded(authorizer, handlers.DescribeGroups, async (access, inner, context, request) => {
      const answered = await inner(context, request);
      return {
        ...answered,
        groups: answered.groups.map((group) =>
          access.allows(AclOperation.DESCRIBE, groupResource(group.groupId))
            ? group
            : { ...errorResponseGroup(group.groupId), authorizedOperations: group.authorizedOperations },
        ),
      };
    }),
    ListGroups: guarded(authorizer, handlers.ListGroups, async (access, inner, context, request) => {
      const answered = await inner(context, request);
      if (access.permits(AclOperation.DESCRIBE, CLUSTER_RESOURCE)) return answered;
      return {
        ...answered,
        groups: answered.groups.filter((group) => access.permits(AclOperation.DESCRIBE, groupResource(group.groupId))),
      };
    }),
    DeleteGroups: guarded(authorizer, handlers.DeleteGroups, async (access, inner, context, request) => {
      const names = request.body.groupsNames;
      const allowed = names.filter((groupId) => access.allows(AclOperation.DELETE, groupResource(groupId)));
      const denied = names.filter((groupId) => !allowed.includes(groupId));
      const answered =
        allowed.length === 0
          ? { throttleTimeMs: 0, results: [] }
          : await inner(context, { ...request, body: { ...request.body, groupsNames: allowed } });
      return {
        ...answered,
        results: [...answered.results, ...denied.map((groupId) => ({ groupId, errorCode: GROUP_DENIED }))],
      };
    }),
    OffsetDelete: guarded(authorizer, handlers.OffsetDelete, async (access, inner, context, request) => {
      const { body } = request;
      if (!access.allows(AclOperation.DELETE, groupResource(body.groupId))) return errorResponseBody(47, GROUP_DENIED);
      const allowed = body.topics.filter((topic) => access.allows(AclOperation.READ, topicResource(topic.name)));
      const denied = body.topics.filter((topic) => !allowed.includes(topic));
      const answered =
        allowed.length === 0 && denied.length > 0
          ? { errorCode: KafkaErrorCode.NONE, throttleTimeMs: 0, topics: [] }
          : await inner(context, { ...request, body: { ...body, topics: allowed } });
      return {
        ...answered,
        topics: [...answered.topics, ...denied.map((topic) => partitionErrors(topic, TOPIC_DENIED))],
      };
    }),
  };
}

function errorResponseGroup(groupId: string): ResponseBody<15>["groups"][number] {
  return {
    errorCode: GROUP_DENIED,
    groupId,
    groupState: "",
    protocolType: "",
    protocolData: "",
    members: [],
    authorizedOperations: -2147483648,
  };
}
