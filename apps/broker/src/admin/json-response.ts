// JSON answers of the admin API: the body with `content-type: application/json`, `cache-control: no-store` (the
// values change from one request to the next), and errors as `{ "error": { "status", "message" } }`.
import type http from "node:http";
import type { AdminErrorBody } from "./admin-views.js";

/** Ends `response` with `status` and `body` as JSON (no body for HEAD). */
export function sendJson(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = `${JSON.stringify(body, null, 2)}\n`;
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(request.method === "HEAD" ? undefined : text);
}

/** Ends `response` with an error body. */
export function sendError(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body: AdminErrorBody = { error: { status, message } };
  sendJson(request, response, status, body, headers);
}
