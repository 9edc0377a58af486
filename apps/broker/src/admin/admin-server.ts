// The admin HTTP endpoint: GET /healthz (200 {"status":"ok"} while serving, 503 while starting or shutting
// down) and GET /metrics (Prometheus text format 0.0.4). Anything else is 404; methods other than GET/HEAD 405.
// Read-only: it changes no broker state.
import http from "node:http";
import { ListenError } from "../listener/kafka-listener.js";

export interface AdminServerOptions {
  readonly host: string;
  readonly port: number;
  /** Health as JSON-able details; `ok` decides the status code. */
  readonly health: () => { readonly ok: boolean; readonly [key: string]: unknown };
  readonly metrics: () => string;
}

export interface AdminServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://admin");
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("method not allowed\n");
      return;
    }
    if (url.pathname === "/healthz") {
      let health: ReturnType<AdminServerOptions["health"]>;
      try {
        health = options.health();
      } catch (error) {
        health = { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      const { ok, ...details } = health;
      response.writeHead(ok ? 200 : 503, { "content-type": "application/json" }).end(`${JSON.stringify({ status: ok ? "ok" : "unavailable", ...details })}\n`);
      return;
    }
    if (url.pathname === "/metrics") {
      let body: string;
      try {
        body = options.metrics();
      } catch (error) {
        response.writeHead(500, { "content-type": "text/plain" }).end(`metrics failed: ${error instanceof Error ? error.message : String(error)}\n`);
        return;
      }
      response.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" }).end(body);
      return;
    }
    response.writeHead(404, { "content-type": "text/plain" }).end("not found (try /healthz or /metrics)\n");
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const where = `${options.host}:${String(options.port)}`;
      const reason = error.code === "EADDRINUSE" ? `${where} is already in use (choose another --admin-port, or --no-admin)` : `${where}: ${error.message}`;
      reject(new ListenError(`admin HTTP listener: ${reason}`, error.code, error));
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
