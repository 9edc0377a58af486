// S3ObjectStore against a real S3 server (s3proxy from the shared test services): the ObjectStore conformance
// suite, the create-only probe, and the ambiguous-PUT paths driven through a fault-injecting proxy.
import { once } from "node:events";
import { randomBytes, randomUUID } from "node:crypto";
import { ErrorCode } from "@nereus/core";
import { deleteObjectsUnder, describeObjectStoreConformance, nereusRejectionOf } from "@nereus/core/testing";
import { loadServices, s3ClientOptions } from "@nereus/test-services";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createS3ObjectStore, type S3ObjectStore, type S3ObjectStoreOptions } from "../src/s3-object-store.js";
import { S3FaultProxy } from "./support/s3-fault-proxy.js";

const runPrefix = `object-wal-it/${randomUUID()}/`;

function storeOptions(overrides: Partial<S3ObjectStoreOptions> = {}): S3ObjectStoreOptions {
  const s3 = loadServices().s3;
  return {
    ...s3ClientOptions(s3),
    keyPrefix: runPrefix,
    ...overrides,
  };
}

async function deleteEverythingUnder(prefix: string): Promise<void> {
  const store = await createS3ObjectStore(storeOptions({ keyPrefix: "" }));
  try {
    await deleteObjectsUnder(store, prefix);
  } finally {
    await store.close();
  }
}

const equal = (left: Uint8Array, right: Uint8Array): boolean => Buffer.from(left).equals(Buffer.from(right));

afterAll(async () => {
  await deleteEverythingUnder(runPrefix);
});

describeObjectStoreConformance("S3ObjectStore conformance (s3proxy)", async () => ({
  store: await createS3ObjectStore(storeOptions()),
  prefix: "conformance/",
}));

describe("S3ObjectStore on s3proxy", () => {
  it("passes the create-only probe", async () => {
    await using store = await createS3ObjectStore(storeOptions());
    await store.verifyCreateOnlySupport();
    // The probe cleans up after itself.
    await expect(store.list("_nereus/")).resolves.toEqual({ items: [] });
  });

  it("sends the CRC32C with every put: head reports the server's stored checksum", async () => {
    await using store = await createS3ObjectStore(storeOptions());
    await store.putIfAbsent("checksum/check-value", new TextEncoder().encode("123456789"));
    await expect(store.head("checksum/check-value")).resolves.toEqual({
      key: "checksum/check-value",
      size: 9,
      crc32c: 0xe3069283,
    });
  });

  it("stores keys under keyPrefix and lists them without it", async () => {
    const prefix = `prefixed-${randomUUID()}/`;
    await using store = await createS3ObjectStore(storeOptions({ keyPrefix: `${runPrefix}${prefix}` }));
    await using raw = await createS3ObjectStore(storeOptions({ keyPrefix: "" }));
    const body = randomBytes(100);
    await store.putIfAbsent("a/b", body);
    expect(equal(await raw.get(`${runPrefix}${prefix}a/b`), body)).toBe(true);
    await expect(store.list("a/")).resolves.toEqual({ items: [{ key: "a/b", size: 100 }] });
  });

  it("rejects invalid keys before any request", async () => {
    await using store = await createS3ObjectStore(storeOptions());
    for (const key of ["", "/a", "a//b", "a/../b", "a/", "tab\there"]) {
      expect((await nereusRejectionOf(store.putIfAbsent(key, randomBytes(1)))).code).toBe(ErrorCode.INVALID_ARGUMENT);
    }
  });
});

describe("S3ObjectStore through a fault-injecting proxy", () => {
  let proxy: S3FaultProxy;
  let store: S3ObjectStore;
  let direct: S3ObjectStore;

  beforeAll(async () => {
    proxy = await S3FaultProxy.start(loadServices().s3.endpoint);
  });
  afterAll(async () => {
    await proxy.close();
  });
  afterEach(async () => {
    await store.close();
    await direct.close();
  });

  async function openStores(overrides: Partial<S3ObjectStoreOptions> = {}): Promise<void> {
    store = await createS3ObjectStore(storeOptions({ endpoint: proxy.endpoint, ...overrides }));
    direct = await createS3ObjectStore(storeOptions());
  }

  function requestsSince(start: number): string[] {
    return proxy.requests
      .slice(start)
      .map((request) => `${request.method}${request.action === undefined ? "" : ` (${request.action})`}`);
  }

  it("resolves a PUT whose response was lost after the server applied it as created, by reading it back", async () => {
    await openStores();
    const body = randomBytes(64 * 1024);
    const start = proxy.requests.length;
    proxy.inject({ method: "PUT", action: "drop-response" });
    await expect(store.putIfAbsent("lost/ours", body)).resolves.toEqual({ created: true });
    expect(requestsSince(start)).toEqual(["PUT (drop-response)", "GET"]);
    expect(equal(await direct.get("lost/ours"), body)).toBe(true);
  });

  it("resolves a lost 412 for someone else's object as created:false", async () => {
    await openStores();
    const theirs = randomBytes(1000);
    await direct.putIfAbsent("lost/theirs", theirs);
    const start = proxy.requests.length;
    proxy.inject({ method: "PUT", action: "drop-response" });
    await expect(store.putIfAbsent("lost/theirs", randomBytes(1000))).resolves.toEqual({ created: false });
    expect(requestsSince(start)).toEqual(["PUT (drop-response)", "GET"]);
    expect(equal(await direct.get("lost/theirs"), theirs)).toBe(true);
  });

  it("resolves a 412 on a retransmission as our own write when the stored bytes are ours", async () => {
    await openStores();
    const body = randomBytes(5000);
    const start = proxy.requests.length;
    // The first PUT applies but the client sees 503; the read-back is answered 404 (a lagging replica); the
    // second PUT meets our own first write and gets 412; the comparison proves it is ours.
    proxy.inject({ method: "PUT", action: "replace-with-503" });
    proxy.inject({ method: "GET", action: "fake-404" });
    await expect(store.putIfAbsent("retransmitted/ours", body)).resolves.toEqual({ created: true });
    expect(requestsSince(start)).toEqual(["PUT (replace-with-503)", "GET (fake-404)", "PUT", "GET"]);
  });

  it("treats a 412 on the first transmission as created:false without reading back", async () => {
    await openStores();
    const first = randomBytes(10);
    await direct.putIfAbsent("plain/exists", first);
    const start = proxy.requests.length;
    await expect(store.putIfAbsent("plain/exists", first)).resolves.toEqual({ created: false });
    expect(requestsSince(start)).toEqual(["PUT"]);
  });

  it("resolves a PUT that timed out after the server applied it", async () => {
    await openStores({ requestTimeoutMs: 1000 });
    const body = randomBytes(2048);
    const start = proxy.requests.length;
    proxy.inject({ method: "PUT", action: "hold-response" });
    await expect(store.putIfAbsent("timeout/ours", body)).resolves.toEqual({ created: true });
    expect(requestsSince(start)).toEqual(["PUT (hold-response)", "GET"]);
  });

  it("fails with mayHaveApplied when an ambiguous PUT cannot be resolved", async () => {
    await openStores({ maxAttempts: 1 });
    const start = proxy.requests.length;
    proxy.inject({ method: "PUT", action: "replace-with-503" });
    proxy.inject({ method: "GET", action: "replace-with-503" });
    const error = await nereusRejectionOf(store.putIfAbsent("unresolved/key", randomBytes(10)));
    expect(error.code).toBe(ErrorCode.OBJECT_UPLOAD_FAILED);
    expect(error.retryable).toBe(true);
    expect(error.details["mayHaveApplied"]).toBe(true);
    expect(requestsSince(start)).toEqual(["PUT (replace-with-503)", "GET (replace-with-503)"]);
    // It did apply: a later put of the same key is refused.
    await expect(direct.putIfAbsent("unresolved/key", randomBytes(10))).resolves.toEqual({ created: false });
  });

  it("refuses a store that accepts a second conditional PUT (create-only probe)", async () => {
    await openStores();
    proxy.inject({ method: "PUT", action: "turn-412-into-200", times: 2 });
    const error = await nereusRejectionOf(store.verifyCreateOnlySupport());
    expect(error.code).toBe(ErrorCode.UNSUPPORTED_STORAGE_PROFILE);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("does not enforce create-only PUTs");
  });

  it("refuses a store that does not implement conditional PUTs (create-only probe)", async () => {
    await openStores();
    proxy.inject({ method: "PUT", action: "fake-501" });
    const error = await nereusRejectionOf(store.verifyCreateOnlySupport());
    expect(error.code).toBe(ErrorCode.UNSUPPORTED_STORAGE_PROFILE);
  });

  it("detects a whole object corrupted in transit with OBJECT_CHECKSUM_MISMATCH", async () => {
    await openStores();
    await direct.putIfAbsent("corrupt/in-transit", randomBytes(4096));
    proxy.inject({ method: "GET", action: "flip-response-byte" });
    expect((await nereusRejectionOf(store.get("corrupt/in-transit"))).code).toBe(ErrorCode.OBJECT_CHECKSUM_MISMATCH);
  });

  it("cancels an in-flight read when the caller aborts", async () => {
    await openStores();
    await direct.putIfAbsent("abort/in-flight", randomBytes(100));
    proxy.inject({ method: "GET", action: "hold-response" });
    const controller = new AbortController();
    const arrived = once(proxy, "request");
    const read = nereusRejectionOf(store.get("abort/in-flight", undefined, { signal: controller.signal }));
    await arrived;
    controller.abort();
    expect((await read).code).toBe(ErrorCode.CANCELLED);
  });
});
