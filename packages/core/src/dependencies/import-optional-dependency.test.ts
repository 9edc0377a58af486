import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { importOptionalDependency } from "./import-optional-dependency.js";

const MISSING = "nereus-test-package-that-is-not-installed";

/**
 * What Node's own `import()` of `specifier` throws, run in a child Node (the test runner resolves imports itself):
 * the error a user of the built package sees, rebuilt with its code and message.
 */
function nodeImportError(specifier: string): Error {
  const script = `import(${JSON.stringify(specifier)}).then(() => console.log("{}"), (e) => console.log(JSON.stringify({ code: e.code, message: e.message })))`;
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  const { code, message } = JSON.parse(output) as { code?: string; message?: string };
  return Object.assign(new Error(message), { code });
}

async function rejectionOf(promise: Promise<unknown>): Promise<NereusError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!NereusError.is(error)) throw new Error(`expected a NereusError, got ${String(error)}`);
  return error;
}

describe("importOptionalDependency", () => {
  it("returns what the loader loaded", async () => {
    const loaded = await importOptionalDependency({
      packageName: "node:path",
      versionRange: "*",
      neededBy: "the test",
      load: () => import("node:path"),
    });
    expect(loaded.sep).toBe("/");
  });

  it("names the missing package and the install command when Node's import() cannot find it", async () => {
    const notFound = nodeImportError(MISSING);
    const error = await rejectionOf(
      importOptionalDependency({
        packageName: MISSING,
        versionRange: "^1.2.3",
        neededBy: "createThing of @nereus/example",
        load: () => Promise.reject(notFound),
      }),
    );
    expect(error.code).toBe(ErrorCode.DEPENDENCY_UNAVAILABLE);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      "createThing of @nereus/example needs the package nereus-test-package-that-is-not-installed, which is not " +
        'installed; install it with: npm install nereus-test-package-that-is-not-installed@"^1.2.3"',
    );
    expect(error.cause).toBe(notFound);
    expect(notFound).toMatchObject({ code: "ERR_MODULE_NOT_FOUND" });
    expect(error.details).toEqual({ package: MISSING, versionRange: "^1.2.3" });
  });

  it("recognises require()'s not-found error too", async () => {
    const error = await rejectionOf(
      importOptionalDependency({
        packageName: MISSING,
        versionRange: "^1.2.3",
        neededBy: "createThing of @nereus/example",
        load: async () => createRequire(import.meta.url)(MISSING) as unknown,
      }),
    );
    expect(error.message).toContain(`which is not installed; install it with: npm install ${MISSING}@"^1.2.3"`);
    expect(error.cause).toMatchObject({ code: "MODULE_NOT_FOUND" });
  });

  it("says failed to load, not missing, when the package is there and a package it needs is not", async () => {
    const inner = Object.assign(new Error("Cannot find package 'bindings' imported from /x/better-sqlite3/lib/a.js"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = await rejectionOf(
      importOptionalDependency({
        packageName: "better-sqlite3",
        versionRange: "^12.11.1",
        neededBy: "the SQLite store",
        load: () => Promise.reject(inner),
      }),
    );
    expect(error.code).toBe(ErrorCode.DEPENDENCY_UNAVAILABLE);
    expect(error.message).toContain("which failed to load (Cannot find package 'bindings'");
    expect(error.message).toContain(
      `reinstall it for this Node.js ${process.version} with: npm install better-sqlite3@"^12.11.1"`,
    );
    expect(error.cause).toBe(inner);
  });

  it("says failed to load when a native addon does not load", async () => {
    const inner = new Error("The module was compiled against a different Node.js version (NODE_MODULE_VERSION 115)");
    const error = await rejectionOf(
      importOptionalDependency({
        packageName: "better-sqlite3",
        versionRange: "^12.11.1",
        neededBy: "the SQLite store",
        load: () => Promise.reject(inner),
      }),
    );
    expect(error.message).toMatch(
      /^the SQLite store needs the package better-sqlite3, which failed to load \(The module/,
    );
    expect(error.cause).toBe(inner);
  });
});
