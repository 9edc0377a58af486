// Pulsar's admin REST API (v2 paths, as the Java PulsarAdmin client calls them) on the admin port, under
// /admin/v2/: the HTTP side of @nereus/pulsar's createPulsarAdmin. It splits and decodes the path (each segment as
// Pulsar's clients encode it: percent escapes and `+` for a space), reads the body up to a bound (413 beyond it,
// before any parsing), parses it as JSON with 64-bit integers exact (400 when malformed) and writes the answer as
// JSON (a peeked message: its bytes and X-Pulsar-* headers); a client that goes away aborts the operation. With
// Pulsar authentication on, the caller's role is the one its `Authorization: Bearer <token>` (a Pulsar token, as
// PulsarAdmin's AuthenticationToken sends it) authenticates — no or a bad token is a 401 before anything else —
// and the admin API checks that role's access. Served only when the Pulsar listener is enabled.
import type http from "node:http";
import {
  type AdminMethod,
  type AdminResponse,
  type BrokerAuth,
  PulsarAuthRefusal,
  type JsonValue,
  type PulsarAdmin,
  type PulsarBroker,
  createPulsarAdmin,
  parseJsonText,
  stringifyJson,
} from "@nereus/pulsar";
import type { BrokerConfig } from "../config/broker-config.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import type { BrokerStorage } from "../storage/open-storage.js";
import type { AdminAuthenticator } from "./admin-auth.js";
import type { AdminRoute } from "./admin-server.js";

/** The path prefix of Pulsar's v2 admin API. */
const PULSAR_ADMIN_PREFIX = "/admin/v2";
/** Largest request body accepted (policies and message ids are small). */
export const MAX_PULSAR_ADMIN_BODY_BYTES = 1024 * 1024;
const METHODS: ReadonlySet<string> = new Set<AdminMethod>(["GET", "PUT", "POST", "DELETE"]);

/** A refusal of the HTTP layer, answered before the admin API sees the request. */
class HttpRefusal extends Error {
  readonly status: number;

  constructor(status: number, reason: string) {
    super(reason);
    this.status = status;
  }
}

/** What the route needs of the running broker. */
export interface PulsarAdminRouteOptions {
  readonly config: BrokerConfig;
  readonly storage: Pick<BrokerStorage, "metadata">;
  readonly pulsar: { readonly broker: PulsarBroker } | undefined;
  readonly logger: BrokerLogger;
}

/** The /admin/v2 route of the broker (none when the Pulsar listener is disabled). */
export function pulsarAdminRoutes(options: PulsarAdminRouteOptions): AdminRoute[] {
  const { pulsar } = options;
  if (pulsar === undefined) return [];
  let admin: PulsarAdmin | undefined;
  // The admin port is known once the server is bound: the first request tells it (ClusterData.serviceUrl, on the
  // host advertised to Pulsar clients).
  const adminOf = (request: http.IncomingMessage): PulsarAdmin =>
    (admin ??= createPulsarAdmin({
      broker: pulsar.broker.context,
      metadata: options.storage.metadata,
      cluster: options.config.cluster,
      serviceUrl: `http://${hostOf(pulsar.broker.context.advertisedUrl)}:${String(request.socket.localPort)}`,
    }));
  return [
    {
      claims: isPulsarAdminPath,
      handle: (request, response, path) =>
        answer(adminOf(request), pulsar.broker.context.auth, request, response, path, options.logger),
    },
  ];
}

function isPulsarAdminPath(path: string): boolean {
  return path === PULSAR_ADMIN_PREFIX || path.startsWith(`${PULSAR_ADMIN_PREFIX}/`);
}

/**
 * The admin gate of `config`, with /admin/v2 left to this route while Pulsar authentication is on: its callers
 * present Pulsar tokens (PulsarAdmin's AuthenticationToken), which the route checks itself (401 / 403).
 */
export function gateWithPulsarTokens(authenticator: AdminAuthenticator, config: BrokerConfig): AdminAuthenticator {
  if (!config.pulsar.enabled || !config.pulsar.auth.authenticationEnabled) return authenticator;
  return {
    isPublic: (path) => isPulsarAdminPath(path) || authenticator.isPublic(path),
    authenticate: (request) => authenticator.authenticate(request),
  };
}

/** The host of `pulsar://host:port` (the host the broker advertises to Pulsar clients). */
function hostOf(advertisedUrl: string): string {
  return advertisedUrl.slice("pulsar://".length, advertisedUrl.lastIndexOf(":"));
}

async function answer(
  admin: PulsarAdmin,
  auth: BrokerAuth,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  path: string,
  logger: BrokerLogger,
): Promise<void> {
  const gone = new AbortController();
  response.once("close", () => {
    if (!response.writableFinished) gone.abort(new Error("the client closed the connection"));
  });
  let answered: AdminResponse;
  try {
    const role = await roleOf(auth, request);
    const method = methodOf(request);
    const segments = segmentsOf(path);
    const query = new Map(new URLSearchParams(queryOf(request.url)));
    const parsed = parseBody(await readBody(request));
    answered = await admin.handle({ method, segments, query, body: parsed, signal: gone.signal, ...role });
  } catch (error) {
    if (!(error instanceof HttpRefusal)) throw error;
    answered = { status: error.status, body: { reason: error.message } };
  }
  const { status, body } = answered;
  if (status >= 500) logger.warn("Pulsar admin request failed", { method: request.method, path, status, body });
  send(request, response, answered);
}

/** The role the caller's bearer token authenticates (none while authentication is off); 401 when it fails. */
async function roleOf(auth: BrokerAuth, request: http.IncomingMessage): Promise<{ role?: string }> {
  const authentication = auth.authentication;
  if (authentication === undefined) return {};
  const header = request.headers.authorization;
  const bearer = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (header !== undefined && bearer === undefined)
    throw new HttpRefusal(401, "Authentication required: a Bearer token");
  try {
    const method = bearer === undefined ? undefined : "token";
    const data = bearer === undefined ? undefined : new TextEncoder().encode(bearer);
    return { role: (await authentication.authenticate(method, data)).role };
  } catch (error) {
    if (!(error instanceof PulsarAuthRefusal)) throw error;
    throw new HttpRefusal(401, bearer === undefined ? "Authentication required" : "Failed to authenticate");
  }
}

function methodOf(request: http.IncomingMessage): AdminMethod {
  const method = request.method ?? "";
  if (!METHODS.has(method)) throw new HttpRefusal(405, `${method} is not served by the Pulsar admin API`);
  return method as AdminMethod;
}

/** The decoded segments after /admin/v2/ (Pulsar's clients encode names as HTML forms do: `+` is a space). */
function segmentsOf(path: string): string[] {
  const rest = path.slice(PULSAR_ADMIN_PREFIX.length + 1);
  if (rest.length === 0) return [];
  return rest.split("/").map((segment) => {
    try {
      return decodeURIComponent(segment.replaceAll("+", " "));
    } catch {
      throw new HttpRefusal(400, `Malformed percent-encoding in path segment ${JSON.stringify(segment)}`);
    }
  });
}

function queryOf(target: string | undefined): string {
  const at = target?.indexOf("?") ?? -1;
  return at < 0 ? "" : target!.slice(at + 1);
}

/**
 * The request body, at most MAX_PULSAR_ADMIN_BODY_BYTES: beyond it, 413 without reading the rest (the stream is
 * paused, not destroyed, so that the answer can still be written; the connection closes after it).
 */
function readBody(request: http.IncomingMessage): Promise<Buffer> {
  const tooLarge = new HttpRefusal(413, `The request body exceeds ${String(MAX_PULSAR_ADMIN_BODY_BYTES)} bytes`);
  if (Number(request.headers["content-length"] ?? 0) > MAX_PULSAR_ADMIN_BODY_BYTES) {
    return Promise.reject(tooLarge);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      request.off("data", onData).off("end", onEnd).off("error", onError);
      request.pause();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_PULSAR_ADMIN_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      stop();
      reject(tooLarge);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    request.on("data", onData).on("end", onEnd).on("error", onError);
  });
}

/** The body as JSON (undefined when empty); 400 for text that is not UTF-8 JSON. */
function parseBody(bytes: Buffer): JsonValue | undefined {
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpRefusal(400, "The request body is not UTF-8");
  }
  if (text.trim().length === 0) return undefined;
  try {
    return parseJsonText(text);
  } catch (error) {
    throw new HttpRefusal(400, error instanceof Error ? error.message : String(error));
  }
}

function send(request: http.IncomingMessage, response: http.ServerResponse, answered: AdminResponse): void {
  if (response.headersSent) return;
  const { status, body, binary } = answered;
  const close = status === 413 ? { connection: "close" } : {};
  if (binary !== undefined) {
    response.writeHead(status, {
      ...binary.headers,
      "content-type": "application/octet-stream",
      "cache-control": "no-store",
      "content-length": String(binary.bytes.length),
    });
    response.end(binary.bytes);
    return;
  }
  if (body === undefined) {
    response.writeHead(status, close).end();
    return;
  }
  const text = stringifyJson(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    "content-length": String(Buffer.byteLength(text)),
    ...close,
  });
  response.end(text);
  if (status === 413) response.once("finish", () => request.destroy());
}
