import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { type AdminServer, startAdminServer } from "./admin-server.js";
import { consoleAssetsDir, consoleRoute } from "./console-route.js";

const servers: AdminServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function serve(assetsDir?: string): Promise<string> {
  const server = await startAdminServer({
    host: "127.0.0.1",
    port: 0,
    health: () => ({ ok: true }),
    metrics: () => "",
    routes: [consoleRoute(assetsDir)],
  });
  servers.push(server);
  return `http://127.0.0.1:${String(server.port)}`;
}

describe("the /console route", () => {
  test("serves the page, its script and stylesheet with their types and a same-origin-only policy", async () => {
    const base = await serve();
    for (const [target, type, marker] of [
      ["/console", "text/html", '<script type="module" src="/console/console.js">'],
      ["/console/", "text/html", "<title>Nereus console</title>"],
      ["/console/console.js", "text/javascript", "/admin/v1"],
      ["/console/console.css", "text/css", "--accent"],
    ] as const) {
      const response = await fetch(`${base}${target}`);
      expect(response.status, target).toBe(200);
      expect(response.headers.get("content-type")).toMatch(new RegExp(`^${type}`));
      expect(response.headers.get("content-security-policy")).toMatch(/^default-src 'none'; script-src 'self'/);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await response.text()).toContain(marker);
    }
    const head = await fetch(`${base}/console`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
  });

  test("other paths under /console are 404, writes 405; the built-in endpoints are untouched", async () => {
    const base = await serve();
    expect((await fetch(`${base}/console/../admin-server.ts`)).status).toBe(404);
    expect((await fetch(`${base}/console/index.html`)).status).toBe(404);
    expect((await fetch(`${base}/consoles`)).status).toBe(404);
    const post = await fetch(`${base}/console`, { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  test("missing files are a 500 naming where they were looked for", async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), "nereus-console-"));
    dirs.push(empty);
    const base = await serve(empty);
    const response = await fetch(`${base}/console`);
    expect(response.status).toBe(500);
    expect(await response.text()).toContain(`the console's files are missing from ${empty}`);
    expect(consoleAssetsDir()).toMatch(/[/\\]admin[/\\]console[/\\]$/);
  });
});
