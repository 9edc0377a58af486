// The broker's version for `nereus --version`: the `version` of @nereus/broker's package.json, found from this
// module's location both in the sources (src/cli/) and in the bundle (dist/).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "@nereus/broker";

function manifestAt(dir: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}

/** The version of the nearest enclosing @nereus/broker package, or "unknown" when none is found. */
export function brokerVersion(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from, depth = 0; depth < 4; dir = path.dirname(dir), depth += 1) {
    const manifest = manifestAt(dir);
    if (manifest?.name === PACKAGE_NAME && typeof manifest.version === "string") return manifest.version;
  }
  return "unknown";
}
