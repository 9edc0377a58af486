// The web console at /console: one static page (console/index.html), its script (console/console.js, a plain ES
// module with no dependencies) and stylesheet (console/console.css), which read the admin API in the browser and
// refresh every few seconds. The files lie beside this module in the sources (src/admin/console/) and beside the
// bundle once built (dist/console/, copied by tsup.config.ts); they are read once, on first request. Same-origin
// only: a content security policy allows nothing from elsewhere.
import { readFile } from "node:fs/promises";
import type http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AdminRoute } from "./admin-server.js";

/** The path of the console page. */
const CONSOLE_PATH = "/console";

const ASSETS: Readonly<Record<string, { readonly file: string; readonly type: string }>> = {
  [CONSOLE_PATH]: { file: "index.html", type: "text/html; charset=utf-8" },
  [`${CONSOLE_PATH}/`]: { file: "index.html", type: "text/html; charset=utf-8" },
  [`${CONSOLE_PATH}/console.js`]: { file: "console.js", type: "text/javascript; charset=utf-8" },
  [`${CONSOLE_PATH}/console.css`]: { file: "console.css", type: "text/css; charset=utf-8" },
};

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/** The directory of the console's files, beside this module (sources) or the bundle (dist). */
export function consoleAssetsDir(): string {
  return fileURLToPath(new URL("console/", import.meta.url));
}

/** The console as a route of the admin server; `assetsDir` holds index.html, console.js and console.css. */
export function consoleRoute(assetsDir: string = consoleAssetsDir()): AdminRoute {
  const cache = new Map<string, Promise<Buffer>>();
  const load = (file: string): Promise<Buffer> => {
    let content = cache.get(file);
    if (content === undefined) {
      content = readFile(path.join(assetsDir, file));
      content.catch(() => cache.delete(file));
      cache.set(file, content);
    }
    return content;
  };
  return {
    claims: (path) => path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`),
    async handle(request: http.IncomingMessage, response: http.ServerResponse, path: string) {
      if (request.method !== "GET" && request.method !== "HEAD") {
        response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("method not allowed\n");
        return;
      }
      const asset = ASSETS[path];
      if (asset === undefined) {
        response.writeHead(404, { "content-type": "text/plain" }).end(`not found (the console is ${CONSOLE_PATH})\n`);
        return;
      }
      let body: Buffer;
      try {
        body = await load(asset.file);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        response
          .writeHead(500, { "content-type": "text/plain" })
          .end(`the console's files are missing from ${assetsDir} (${reason})\n`);
        return;
      }
      response.writeHead(200, {
        "content-type": asset.type,
        "content-length": String(body.length),
        "cache-control": "no-cache",
        ...SECURITY_HEADERS,
      });
      response.end(request.method === "HEAD" ? undefined : body);
    },
  };
}
