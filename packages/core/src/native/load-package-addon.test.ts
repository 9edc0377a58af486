// loadPackageAddon / findPackageRoot: the package root is found from a module's URL, and a missing, unloadable or
// unexpected addon is a reason, never a throw.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { findPackageRoot, loadPackageAddon } from "./load-package-addon.js";

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** A package directory named `name` with a module at src/deep/module.js; returns the root and that module's URL. */
async function fakePackage(name: string): Promise<{ root: string; moduleUrl: string }> {
  const root = await mkdtemp(path.join(tmpdir(), "nereus-addon-"));
  roots.push(root);
  await writeFile(path.join(root, "package.json"), JSON.stringify({ name }));
  await mkdir(path.join(root, "src", "deep"), { recursive: true });
  return { root, moduleUrl: pathToFileURL(path.join(root, "src", "deep", "module.js")).href };
}

const anything = (exports: unknown): exports is unknown => exports !== undefined;

describe("findPackageRoot", () => {
  it("finds the directory whose package.json has the name, above the module", async () => {
    const { root, moduleUrl } = await fakePackage("@nereus/fake");
    await writeFile(path.join(root, "src", "package.json"), JSON.stringify({ name: "other" }));
    expect(findPackageRoot("@nereus/fake", moduleUrl)).toBe(root);
  });

  it("finds this package from its own sources", () => {
    expect(findPackageRoot("@nereus/core", import.meta.url)).toBe(path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", ".."));
  });
});

describe("loadPackageAddon", () => {
  it("says the addon was not built when its file is missing", async () => {
    const { moduleUrl } = await fakePackage("@nereus/fake");
    const result = loadPackageAddon("@nereus/fake", moduleUrl, "missing", anything);
    expect(result.addon).toBeUndefined();
    expect(result.reason).toBe(`${path.join("native", "build", "missing.node")} was not built (see the install script of @nereus/fake)`);
  });

  it("says the package was not found above the module", async () => {
    const { moduleUrl } = await fakePackage("@nereus/fake");
    expect(loadPackageAddon("@nereus/elsewhere", moduleUrl, "x", anything).reason).toMatch(/was not built/);
  });

  it("says why a file that is not an addon could not be loaded", async () => {
    const { root, moduleUrl } = await fakePackage("@nereus/fake");
    await mkdir(path.join(root, "native", "build"), { recursive: true });
    await writeFile(path.join(root, "native", "build", "broken.node"), "not a shared object");
    const result = loadPackageAddon("@nereus/fake", moduleUrl, "broken", anything);
    expect(result.addon).toBeUndefined();
    expect(result.reason).toMatch(/^native\/build\/broken\.node could not be loaded: /);
  });

  it("refuses an addon whose exports are not the expected ones, and returns one that is", () => {
    const never = (exports: unknown): exports is never => exports === null;
    expect(loadPackageAddon("@nereus/core", import.meta.url, "crc32c", never).reason).toMatch(/does not export what this build expects/);
    if (process.platform !== "linux") return;
    const hasCrc = (exports: unknown): exports is { crc32c: unknown } => typeof (exports as { crc32c?: unknown }).crc32c === "function";
    expect(loadPackageAddon("@nereus/core", import.meta.url, "crc32c", hasCrc).addon).toBeDefined();
  });
});
