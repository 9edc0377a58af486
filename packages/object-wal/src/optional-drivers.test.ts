// The AWS SDK and better-sqlite3 are optional peer dependencies: the package loads without them, the filesystem
// store without segments needs neither, and a store whose package is missing fails with DEPENDENCY_UNAVAILABLE
// naming it, before any request or file. Both modules fail to load here (an eager import of either would fail the
// import of the package), and the loaders reject as Node's import() of a package that is not installed does.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "@nereus/core";
import { expectOptionalPeerDependencies, nereusRejectionOf, simulateMissingDependencies } from "@nereus/core/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { BETTER_SQLITE3 } from "./file-system/segments/load-better-sqlite3.js";
import { AWS_S3_SDK } from "./load-s3-sdk.js";

vi.mock("@aws-sdk/client-s3", () => {
  throw new Error("@aws-sdk/client-s3 must not be imported");
});
vi.mock("better-sqlite3", () => {
  throw new Error("better-sqlite3 must not be imported");
});

simulateMissingDependencies([AWS_S3_SDK, BETTER_SQLITE3]);

const directory = await mkdtemp(path.join(os.tmpdir(), "nereus-object-wal-drivers-"));
afterAll(() => rm(directory, { recursive: true, force: true }));

describe("@nereus/object-wal without its optional packages", () => {
  it("creating an S3 store names @aws-sdk/client-s3; bad options are refused first", async () => {
    const { createS3ObjectStore } = await import("./index.js");
    const error = await nereusRejectionOf(createS3ObjectStore({ region: "us-east-1", bucket: "b" }));
    expect(error.code).toBe(ErrorCode.DEPENDENCY_UNAVAILABLE);
    expect(error.message).toBe(
      "the S3 object store (createS3ObjectStore of @nereus/object-wal) needs the package @aws-sdk/client-s3, which " +
        'is not installed; install it with: npm install @aws-sdk/client-s3@"^3.1175.0"',
    );
    const invalid = await nereusRejectionOf(createS3ObjectStore({ region: "us-east-1", bucket: "" }));
    expect(invalid.code).toBe(ErrorCode.INVALID_ARGUMENT);
  });

  it("the filesystem store without segments stores and reads objects", async () => {
    const { createFileSystemObjectStore } = await import("./index.js");
    await using store = createFileSystemObjectStore({ root: path.join(directory, "files"), publishWorkers: 1 });
    await store.putIfAbsent("a/b", new Uint8Array([1, 2, 3]));
    expect([...(await store.get("a/b"))]).toEqual([1, 2, 3]);
  });

  it("opening the segment layout names better-sqlite3 before creating its directory", async () => {
    const { createFileSystemObjectStore } = await import("./index.js");
    const root = path.join(directory, "segmented");
    await using store = createFileSystemObjectStore({ root, publishWorkers: 1, segments: true });
    const error = await nereusRejectionOf(store.open());
    expect(error.code).toBe(ErrorCode.DEPENDENCY_UNAVAILABLE);
    expect(error.message).toContain(
      'needs the package better-sqlite3, which is not installed; install it with: npm install better-sqlite3@"^12.11.1"',
    );
    expect(existsSync(path.join(root, "segments"))).toBe(false);
  });

  it("the install hints are the ranges package.json declares as optional peer dependencies", () => {
    expectOptionalPeerDependencies(new URL("../package.json", import.meta.url), [AWS_S3_SDK, BETTER_SQLITE3]);
  });
});
