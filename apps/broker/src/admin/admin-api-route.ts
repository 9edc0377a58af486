// The read-only admin API under /admin/v1 (GET and HEAD only; JSON bodies in admin-views.ts):
//   /admin/v1                  the endpoints
//   /admin/v1/brokers          this broker: node id, version, uptime, listeners, storage
//   /admin/v1/topics           topics with partitions (start/end offsets, bytes); ?limit=1..1000&after=NAME pages
//   /admin/v1/topics/{name}    one topic, each partition with its WAL ranges, generations, materialization backlog
//   /admin/v1/groups           consumer groups with state, members and total lag
//   /admin/v1/groups/{id}      one group: members, committed offsets and lag per partition
// Names are percent-encoded path segments. Unknown paths are 404, other methods 405, bad parameters 400, each with
// an error body; a request that cannot be answered in REQUEST_TIMEOUT_MS, or that storage cannot answer now, is a 503.
import type http from "node:http";
import { NereusError } from "@nereus/core";
import type { AdminContext } from "./admin-context.js";
import type { AdminRoute } from "./admin-server.js";
import { describeBroker } from "./broker-view.js";
import { describeGroup, listGroups } from "./group-views.js";
import { sendError, sendJson } from "./json-response.js";
import { DEFAULT_TOPICS_PER_PAGE, MAX_TOPICS_PER_PAGE, describeTopic, listTopics } from "./topic-views.js";

/** The path prefix of the admin API. */
const ADMIN_API_PREFIX = "/admin/v1";
const REQUEST_TIMEOUT_MS = 15_000;

const ENDPOINTS = [
  `${ADMIN_API_PREFIX}/brokers`,
  `${ADMIN_API_PREFIX}/topics`,
  `${ADMIN_API_PREFIX}/topics/{name}`,
  `${ADMIN_API_PREFIX}/groups`,
  `${ADMIN_API_PREFIX}/groups/{id}`,
];

/** A bad request: answered 400 with its message. */
class BadRequest extends Error {}

function queryOf(request: http.IncomingMessage): URLSearchParams {
  const target = request.url ?? "";
  const mark = target.indexOf("?");
  return new URLSearchParams(mark < 0 ? "" : target.slice(mark + 1));
}

function decodeSegment(segment: string): string {
  try {
    const decoded = decodeURIComponent(segment);
    if (decoded === "") throw new BadRequest("empty name");
    return decoded;
  } catch (error) {
    if (error instanceof BadRequest) throw error;
    throw new BadRequest(`malformed percent-encoding in ${JSON.stringify(segment)}`);
  }
}

function topicPage(query: URLSearchParams): { limit: number; after: string | undefined } {
  const limitText = query.get("limit");
  const limit = limitText === null ? DEFAULT_TOPICS_PER_PAGE : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TOPICS_PER_PAGE)
    throw new BadRequest(`limit must be an integer from 1 to ${String(MAX_TOPICS_PER_PAGE)}`);
  return { limit, after: query.get("after") ?? undefined };
}

/** The body for `segments` (the path after the prefix), or undefined for an unknown path. */
async function answerOf(
  context: AdminContext,
  request: http.IncomingMessage,
  segments: readonly string[],
  signal: AbortSignal,
): Promise<{ status: number; body: unknown } | undefined> {
  const [collection, name, ...rest] = segments;
  if (rest.length > 0) return undefined;
  if (collection === undefined) return { status: 200, body: { endpoints: ENDPOINTS } };
  if (collection === "brokers" && name === undefined)
    return { status: 200, body: { brokers: [describeBroker(context, request.socket.localPort ?? 0)] } };
  if (collection === "topics") {
    if (name === undefined)
      return { status: 200, body: await listTopics(context, topicPage(queryOf(request)), signal) };
    const topic = decodeSegment(name);
    const detail = await describeTopic(context, topic, signal);
    return detail === undefined
      ? { status: 404, body: { error: { status: 404, message: `no topic ${JSON.stringify(topic)}` } } }
      : { status: 200, body: detail };
  }
  if (collection === "groups") {
    if (name === undefined) return { status: 200, body: await listGroups(context, signal) };
    const groupId = decodeSegment(name);
    const detail = await describeGroup(context, groupId, signal);
    return detail === undefined
      ? { status: 404, body: { error: { status: 404, message: `no group ${JSON.stringify(groupId)}` } } }
      : { status: 200, body: detail };
  }
  return undefined;
}

function segmentsOf(path: string): string[] {
  return path
    .slice(ADMIN_API_PREFIX.length)
    .split("/")
    .filter((segment) => segment !== "");
}

/** The admin API as a route of the admin server. */
export function adminApiRoute(context: AdminContext): AdminRoute {
  return {
    claims: (path) => path === ADMIN_API_PREFIX || path.startsWith(`${ADMIN_API_PREFIX}/`),
    async handle(request, response, path) {
      if (request.method !== "GET" && request.method !== "HEAD") {
        sendError(request, response, 405, "the admin API is read-only: GET or HEAD", { allow: "GET, HEAD" });
        return;
      }
      const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      try {
        const answer = await answerOf(context, request, segmentsOf(path), signal);
        if (answer === undefined) sendError(request, response, 404, `no such endpoint (see ${ADMIN_API_PREFIX})`);
        else sendJson(request, response, answer.status, answer.body);
      } catch (error) {
        if (error instanceof BadRequest) sendError(request, response, 400, error.message);
        else if (signal.aborted) sendError(request, response, 503, "the broker did not answer in time; retry later");
        else if (NereusError.is(error)) sendError(request, response, 503, `storage unavailable: ${error.message}`);
        else throw error;
      }
    },
  };
}
