// The admin HTTP endpoint: GET /healthz (200 {"status":"ok"} while serving, 503 while starting or shutting
// down; the health function may name another status, e.g. "degraded") and GET /metrics (Prometheus text format
// 0.0.4). Further endpoints are mounted as AdminRoutes (any method; each route claims the paths it serves).
// Anything else is 404; methods other than GET/HEAD on the built-in endpoints 405.
// With an authenticator, every path but its public ones needs credentials (admin-auth.ts): a request without valid
// ones is answered 401 with a WWW-Authenticate challenge before any route sees it. With TLS material the server
// speaks HTTPS (and verifies client certificates as the material says).
// Hostile input stays inside: the request target is never parsed as a URL (`//` is not one), a failure while
// answering is a 500, malformed HTTP is a 400 on that socket only, and slow senders are cut off by timeouts.
import http from "node:http";
import https from "node:https";
import { ListenError } from "../listener/kafka-listener.js";
import type { TlsMaterial } from "../listener/tls-material.js";
import { type AdminAuthenticator, rememberAdminPrincipal } from "./admin-auth.js";

/** What the health function reports; `ok` decides the status code, the rest goes into the JSON body. */
interface AdminHealth {
  readonly ok: boolean;
  /** The body's `status` (default "ok" when ok, else "unavailable"). */
  readonly status?: string;
  readonly [key: string]: unknown;
}

/**
 * Endpoints mounted next to /healthz and /metrics. `claims` decides on the path alone (no I/O); the first route
 * that claims a path answers it with `handle`, which must end the response. A rejection becomes a 500.
 */
export interface AdminRoute {
  claims(path: string): boolean;
  handle(request: http.IncomingMessage, response: http.ServerResponse, path: string): Promise<void>;
}

export interface AdminServerOptions {
  readonly host: string;
  readonly port: number;
  readonly health: () => AdminHealth;
  /** The metrics text (Prometheus exposition format 0.0.4). */
  readonly metrics: () => string | Promise<string>;
  /** Further endpoints, tried in order after the built-in ones (default none). */
  readonly routes?: readonly AdminRoute[];
  /** Who may call which path (default: everyone, every path). */
  readonly authenticator?: AdminAuthenticator;
  /** HTTPS instead of HTTP. */
  readonly tls?: TlsMaterial;
}

export interface AdminServer {
  readonly port: number;
  close(): Promise<void>;
}

/** The request target's path: what precedes `?`. Any target is accepted; unknown paths are 404s. */
export function requestPath(target: string | undefined): string {
  const raw = target ?? "/";
  const query = raw.indexOf("?");
  return query < 0 ? raw : raw.slice(0, query);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function answerMetrics(options: AdminServerOptions, response: http.ServerResponse): Promise<void> {
  let body: string;
  try {
    body = await options.metrics();
  } catch (error) {
    if (!response.headersSent)
      response.writeHead(500, { "content-type": "text/plain" }).end(`metrics failed: ${messageOf(error)}\n`);
    return;
  }
  if (!response.headersSent)
    response.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" }).end(body);
}

async function answerRoute(
  route: AdminRoute,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  path: string,
): Promise<void> {
  try {
    await route.handle(request, response, path);
  } catch (error) {
    if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
    response.end(`internal error: ${messageOf(error)}\n`);
  }
}

/** Answers 401 unless the request may reach `path`; true when it may. */
function admitted(
  authenticator: AdminAuthenticator | undefined,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  path: string,
): boolean {
  if (authenticator === undefined || authenticator.isPublic(path)) return true;
  const outcome = authenticator.authenticate(request);
  if (outcome.ok) {
    rememberAdminPrincipal(request, outcome.principal);
    return true;
  }
  response
    .writeHead(401, { "www-authenticate": outcome.challenge, "content-type": "text/plain" })
    .end(`unauthorized: ${outcome.reason}\n`);
  return false;
}

function answer(options: AdminServerOptions, request: http.IncomingMessage, response: http.ServerResponse): void {
  const path = requestPath(request.url);
  if (!admitted(options.authenticator, request, response, path)) return;
  if (path !== "/healthz" && path !== "/metrics") {
    const route = options.routes?.find((candidate) => candidate.claims(path));
    if (route !== undefined) {
      void answerRoute(route, request, response, path);
      return;
    }
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("method not allowed\n");
    return;
  }
  if (path === "/healthz") {
    let health: AdminHealth;
    try {
      health = options.health();
    } catch (error) {
      health = { ok: false, error: messageOf(error) };
    }
    const { ok, status, ...details } = health;
    const body = JSON.stringify({ status: status ?? (ok ? "ok" : "unavailable"), ...details });
    response.writeHead(ok ? 200 : 503, { "content-type": "application/json" }).end(`${body}\n`);
    return;
  }
  if (path === "/metrics") {
    void answerMetrics(options, response);
    return;
  }
  response.writeHead(404, { "content-type": "text/plain" }).end("not found (try /healthz or /metrics)\n");
}

export async function startAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  const handle = (request: http.IncomingMessage, response: http.ServerResponse): void => {
    try {
      answer(options, request, response);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end(`internal error: ${messageOf(error)}\n`);
    }
  };
  const server: http.Server =
    options.tls === undefined
      ? http.createServer(handle)
      : https.createServer({ ...options.tls.serverOptions, handshakeTimeout: 10_000 }, handle);
  // A failed TLS handshake (garbage, an untrusted client certificate) closes that socket only.
  server.on("tlsClientError", (_error: Error, socket: { destroy(): void }) => socket.destroy());
  server.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
    else socket.destroy();
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 100;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const where = `${options.host}:${String(options.port)}`;
      const reason =
        error.code === "EADDRINUSE"
          ? `${where} is already in use (choose another --admin-port, or --no-admin)`
          : `${where}: ${error.message}`;
      reject(
        new ListenError(`admin ${options.tls === undefined ? "HTTP" : "HTTPS"} listener: ${reason}`, error.code, error),
      );
    });
    server.listen({ host: options.host, port: options.port }, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address !== null ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
