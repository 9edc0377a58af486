// Loads a Node addon that a package's install script built into the package's own directory
// (`<package root>/native/build/<name>.node`; see scripts/build-addon.mjs). The package root is found from the
// calling module's URL, so the same code works from a package's sources and from its bundled dist. Never throws:
// a missing or unloadable addon is an answer with the reason, and callers keep their portable code path.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** An addon that loaded and has the expected exports, or why not. */
export type PackageAddon<T> = { readonly addon: T; readonly reason?: undefined } | { readonly addon?: undefined; readonly reason: string };

/** How many directories above the calling module the package's root may be (src/a/b.ts, dist/index.js). */
const MAX_DEPTH = 6;

/** The nearest directory at or above `moduleUrl`'s whose package.json is named `packageName`. */
export function findPackageRoot(packageName: string, moduleUrl: string): string | undefined {
  let directory = path.dirname(fileURLToPath(moduleUrl));
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    const manifest = path.join(directory, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === packageName) return directory;
      } catch {
        // Not this package's manifest; keep looking upwards.
      }
    }
    directory = path.dirname(directory);
  }
  return undefined;
}

/**
 * Loads `native/build/<name>.node` of package `packageName` (whose module `moduleUrl` asks) and checks its exports
 * with `isExpected`. Invariant: returns `addon` only when the file loaded and `isExpected` accepted it; otherwise
 * `reason` says which step failed, for logs and start-up summaries.
 */
export function loadPackageAddon<T>(packageName: string, moduleUrl: string, name: string, isExpected: (exports: unknown) => exports is T): PackageAddon<T> {
  const relative = path.join("native", "build", `${name}.node`);
  const root = findPackageRoot(packageName, moduleUrl);
  const file = root === undefined ? undefined : path.join(root, relative);
  if (file === undefined || !existsSync(file)) return { reason: `${relative} was not built (see the install script of ${packageName})` };
  let exports: unknown;
  try {
    exports = createRequire(moduleUrl)(file);
  } catch (error) {
    return { reason: `${relative} could not be loaded: ${error instanceof Error ? error.message : String(error)}` };
  }
  return isExpected(exports) ? { addon: exports } : { reason: `${relative} does not export what this build expects` };
}
