// The two backend drivers are optional peer dependencies: the package loads without them, and opening a store whose
// driver is missing fails with DEPENDENCY_UNAVAILABLE naming the package, before any file or network I/O. Both
// driver modules fail to load here (an eager import of either would fail the import of the package), and the loaders
// reject as Node's import() of a package that is not installed does.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "@nereus/core";
import { expectOptionalPeerDependencies, nereusRejectionOf, simulateMissingDependencies } from "@nereus/core/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { BETTER_SQLITE3 } from "./sqlite/load-better-sqlite3.js";
import { ETCD3 } from "./load-etcd3.js";

vi.mock("better-sqlite3", () => {
  throw new Error("better-sqlite3 must not be imported");
});
vi.mock("etcd3", () => {
  throw new Error("etcd3 must not be imported");
});

simulateMissingDependencies([BETTER_SQLITE3, ETCD3]);

const directory = await mkdtemp(path.join(os.tmpdir(), "nereus-metadata-drivers-"));
afterAll(() => rm(directory, { recursive: true, force: true }));

describe("@nereus/metadata without its optional drivers", () => {
  it("imports, and opening a SQLite store names better-sqlite3 before creating the file", async () => {
    const { createSqliteMetadataStore } = await import("./index.js");
    const file = path.join(directory, "metadata.db");
    const error = await nereusRejectionOf(createSqliteMetadataStore({ path: file }));
    expect(error.code).toBe(ErrorCode.DEPENDENCY_UNAVAILABLE);
    expect(error.message).toBe(
      "the SQLite metadata store (createSqliteMetadataStore of @nereus/metadata) needs the package better-sqlite3, " +
        'which is not installed; install it with: npm install better-sqlite3@"^12.11.1"',
    );
    expect(existsSync(file)).toBe(false);
  });

  it("connecting an etcd store names etcd3", async () => {
    const { createEtcdMetadataStore } = await import("./index.js");
    const error = await nereusRejectionOf(createEtcdMetadataStore({ endpoints: ["http://127.0.0.1:1"] }));
    expect(error.code).toBe(ErrorCode.DEPENDENCY_UNAVAILABLE);
    expect(error.message).toContain(
      'needs the package etcd3, which is not installed; install it with: npm install etcd3@"^1.1.2"',
    );
  });

  it("bad options are still refused first", async () => {
    const { createEtcdMetadataStore } = await import("./index.js");
    const error = await nereusRejectionOf(createEtcdMetadataStore({ endpoints: [] }));
    expect(error.code).toBe(ErrorCode.INVALID_ARGUMENT);
  });

  it("the install hints are the ranges package.json declares as optional peer dependencies", () => {
    expectOptionalPeerDependencies(new URL("../package.json", import.meta.url), [BETTER_SQLITE3, ETCD3]);
  });
});
