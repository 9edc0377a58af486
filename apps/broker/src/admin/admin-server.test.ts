import net from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { type AdminServer, requestPath, startAdminServer } from "./admin-server.js";

const servers: AdminServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(
  health: () => { ok: boolean; [key: string]: unknown } = () => ({ ok: true }),
): Promise<AdminServer> {
  const server = await startAdminServer({ host: "127.0.0.1", port: 0, health, metrics: () => "# no metrics\n" });
  servers.push(server);
  return server;
}

/** Sends raw bytes and resolves with everything the server wrote before it closed (or after `quietMs` of silence). */
function raw(port: number, request: string, quietMs = 500): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    let timer = setTimeout(() => socket.destroy(), quietMs);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
      clearTimeout(timer);
      timer = setTimeout(() => socket.destroy(), quietMs);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on("error", reject);
    socket.write(request);
  });
}

describe("requestPath", () => {
  test("is what precedes the query, for any target", () => {
    expect(requestPath("/healthz?verbose=1")).toBe("/healthz");
    expect(requestPath("//")).toBe("//");
    expect(requestPath("http://[::1")).toBe("http://[::1");
    expect(requestPath(undefined)).toBe("/");
  });
});

describe("the admin server under hostile requests", () => {
  test("targets that are not URLs get 404s and the server keeps answering", async () => {
    const server = await start();
    for (const target of ["//", "///x", "http://[::1", "//%zz", "*", "/%00"]) {
      const response = await raw(server.port, `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
      expect(response, target).toMatch(/^HTTP\/1\.1 404 /);
    }
    const healthy = await fetch(`http://127.0.0.1:${String(server.port)}/healthz`);
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toEqual({ status: "ok" });
  });

  test("malformed HTTP is a 400 on that socket only", async () => {
    const server = await start();
    expect(await raw(server.port, "NOT HTTP AT ALL\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw(server.port, `GET /healthz HTTP/1.1\r\n${"x-long: y\r\n".repeat(2_000)}\r\n`)).toMatch(
      /^HTTP\/1\.1 (400|431) /,
    );
    expect((await fetch(`http://127.0.0.1:${String(server.port)}/metrics`)).status).toBe(200);
  });

  test("a throwing health function is a 503 with the reason; a named status is reported", async () => {
    let mode: "throw" | "degraded" = "throw";
    const server = await start(() => {
      if (mode === "throw") throw new Error("storage gone");
      return { ok: true, status: "degraded", reason: "disk full" };
    });
    const failed = await fetch(`http://127.0.0.1:${String(server.port)}/healthz`);
    expect(failed.status).toBe(503);
    expect(await failed.json()).toEqual({ status: "unavailable", error: "storage gone" });
    mode = "degraded";
    const degraded = await fetch(`http://127.0.0.1:${String(server.port)}/healthz`);
    expect(degraded.status).toBe(200);
    expect(await degraded.json()).toEqual({ status: "degraded", reason: "disk full" });
  });
});

describe("mounted routes", () => {
  test("a route answers the paths it claims with any method; a failing one is a 500; the rest stays 404/405", async () => {
    const server = await startAdminServer({
      host: "127.0.0.1",
      port: 0,
      health: () => ({ ok: true }),
      metrics: () => "",
      routes: [
        {
          claims: (path) => path.startsWith("/echo/"),
          handle: async (request, response, path) => {
            response.writeHead(200, { "content-type": "text/plain" }).end(`${request.method ?? ""} ${path}`);
          },
        },
        { claims: (path) => path === "/broken", handle: () => Promise.reject(new Error("boom")) },
      ],
    });
    servers.push(server);
    const base = `http://127.0.0.1:${String(server.port)}`;
    const put = await fetch(`${base}/echo/a?x=1`, { method: "PUT" });
    expect(put.status).toBe(200);
    expect(await put.text()).toBe("PUT /echo/a");
    const broken = await fetch(`${base}/broken`);
    expect(broken.status).toBe(500);
    expect(await broken.text()).toBe("internal error: boom\n");
    expect((await fetch(`${base}/other`)).status).toBe(404);
    expect((await fetch(`${base}/other`, { method: "DELETE" })).status).toBe(405);
    expect((await fetch(`${base}/healthz`, { method: "POST" })).status).toBe(405);
  });
});
