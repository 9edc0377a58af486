// Test helpers for packages whose drivers are optional peer dependencies: make their loaders reject as Node's
// import() of a package that is not installed does, and check that the install hints match the ranges the
// package's manifest declares as optional peer dependencies.
import { readFileSync } from "node:fs";
import { expect, vi } from "vitest";
import type { OptionalDependency } from "../dependencies/import-optional-dependency.js";

/** Makes every loader in `dependencies` reject with ERR_MODULE_NOT_FOUND for its package (for the whole test file). */
export function simulateMissingDependencies(dependencies: readonly OptionalDependency<unknown>[]): void {
  for (const dependency of dependencies) {
    const error = Object.assign(
      new Error(`Cannot find package '${dependency.packageName}' imported from /app/dist/index.js`),
      { code: "ERR_MODULE_NOT_FOUND" },
    );
    vi.spyOn(dependency, "load").mockRejectedValue(error);
  }
}

/** Expects each of `dependencies` declared in the manifest at `packageJson` as an optional peer with its range. */
export function expectOptionalPeerDependencies(
  packageJson: URL,
  dependencies: readonly OptionalDependency<unknown>[],
): void {
  const manifest = JSON.parse(readFileSync(packageJson, "utf8")) as {
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
  for (const { packageName, versionRange } of dependencies) {
    expect(manifest.peerDependencies?.[packageName], packageName).toBe(versionRange);
    expect(manifest.peerDependenciesMeta?.[packageName]?.optional, packageName).toBe(true);
  }
}
