// Test-only HTTP proxy in front of a real S3 server that injects network faults into chosen requests: it can let
// the server apply a request and then lose, hold or replace the response, or answer in the server's place. The
// client signs for the proxy's address, and the proxy forwards the Host header unchanged, so SigV4 still verifies.
import { EventEmitter, once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * - `drop-response`: forward; once the server answered, destroy the client connection (a lost response).
 * - `hold-response`: forward; never answer, until the client gives up and closes the connection.
 * - `replace-with-503`: forward; answer 503 SlowDown instead of the server's response.
 * - `turn-412-into-200`: forward; if the server answered 412, answer 200 (a server ignoring If-None-Match).
 * - `flip-response-byte`: forward; flip one bit in the middle of the response body.
 * - `fake-404`: do not forward; answer 404 NoSuchKey.
 * - `fake-501`: do not forward; answer 501 NotImplemented.
 */
export type FaultAction =
  | "drop-response"
  | "hold-response"
  | "replace-with-503"
  | "turn-412-into-200"
  | "flip-response-byte"
  | "fake-404"
  | "fake-501";

export interface FaultRule {
  readonly method: string;
  readonly action: FaultAction;
  /** Matching requests affected (default 1). */
  readonly times?: number;
}

export interface ProxiedRequest {
  readonly method: string;
  readonly url: string;
  readonly action: FaultAction | undefined;
}

export class S3FaultProxy extends EventEmitter<{ request: [ProxiedRequest] }> {
  readonly endpoint: string;
  /** Every request seen, in arrival order. */
  readonly requests: ProxiedRequest[] = [];
  readonly #server: http.Server;
  readonly #agent = new http.Agent({ keepAlive: true });
  readonly #upstream: URL;
  readonly #rules: { rule: FaultRule; remaining: number }[] = [];

  private constructor(server: http.Server, upstream: URL) {
    super();
    this.#server = server;
    this.#upstream = upstream;
    const address = server.address() as AddressInfo;
    this.endpoint = `http://127.0.0.1:${String(address.port)}`;
  }

  static async start(upstreamEndpoint: string): Promise<S3FaultProxy> {
    const server = http.createServer();
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const proxy = new S3FaultProxy(server, new URL(upstreamEndpoint));
    server.on("request", (request, response) => proxy.#handle(request, response));
    return proxy;
  }

  /** Arms a rule; rules match in order and are consumed. */
  inject(rule: FaultRule): void {
    this.#rules.push({ rule, remaining: rule.times ?? 1 });
  }

  async close(): Promise<void> {
    this.#agent.destroy();
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, "close");
  }

  #take(method: string): FaultAction | undefined {
    const index = this.#rules.findIndex((armed) => armed.rule.method === method);
    const armed = this.#rules[index];
    if (armed === undefined) return undefined;
    armed.remaining -= 1;
    if (armed.remaining <= 0) this.#rules.splice(index, 1);
    return armed.rule.action;
  }

  #handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const method = request.method ?? "GET";
    const action = this.#take(method);
    const seen: ProxiedRequest = { method, url: request.url ?? "/", action };
    this.requests.push(seen);
    this.emit("request", seen);
    if (action === "fake-404" || action === "fake-501") {
      request.resume();
      const [status, code] = action === "fake-404" ? [404, "NoSuchKey"] : [501, "NotImplemented"];
      response.writeHead(status, { "content-type": "application/xml" });
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>injected</Message></Error>`,
      );
      return;
    }
    const headers = { ...request.headers };
    delete headers.expect;
    const upstream = http.request(
      new URL(request.url ?? "/", this.#upstream),
      { method, headers, agent: this.#agent },
      (upstreamResponse) => {
        const chunks: Buffer[] = [];
        upstreamResponse.on("data", (chunk: Buffer) => chunks.push(chunk));
        upstreamResponse.on("end", () =>
          this.#answer(action, request, response, upstreamResponse, Buffer.concat(chunks)),
        );
      },
    );
    upstream.on("error", () => response.destroy());
    request.pipe(upstream);
  }

  #answer(
    action: FaultAction | undefined,
    request: http.IncomingMessage,
    response: http.ServerResponse,
    upstreamResponse: http.IncomingMessage,
    body: Buffer,
  ): void {
    if (action === "drop-response") {
      request.socket.destroy();
      return;
    }
    if (action === "hold-response") return;
    if (action === "replace-with-503") {
      response.writeHead(503, { "content-type": "application/xml" });
      response.end(
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>injected</Message></Error>',
      );
      return;
    }
    if (action === "turn-412-into-200" && upstreamResponse.statusCode === 412) {
      response.writeHead(200, { etag: '"00000000000000000000000000000000"', "content-length": "0" });
      response.end();
      return;
    }
    if (action === "flip-response-byte" && body.length > 0) {
      const middle = Math.floor(body.length / 2);
      body[middle] = (body[middle] ?? 0) ^ 0x01;
    }
    const headers = { ...upstreamResponse.headers };
    delete headers["transfer-encoding"];
    headers["content-length"] = String(body.length);
    response.writeHead(upstreamResponse.statusCode ?? 502, headers);
    response.end(body);
  }
}
