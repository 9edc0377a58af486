// The Object WAL provider (ObjectWalWriter + ObjectWalReader) against a real S3 server (s3proxy from the shared
// test services): the WAL provider conformance suite, a multi-stream flush, and an upload whose response is lost
// so that the retransmission meets the key (a real 412) and is recognised as our own write.
import { randomUUID } from "node:crypto";
import { streamIdFromName, type ReadTarget } from "@nereus/core";
import { InMemoryMetadataStore, describeWalProviderConformance, deleteObjectsUnder } from "@nereus/core/testing";
import { loadServices, s3ClientOptions } from "@nereus/test-services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ObjectWalReader } from "../src/reader/object-wal-reader.js";
import { createS3ObjectStore, type S3ObjectStoreOptions } from "../src/s3-object-store.js";
import { ObjectWalWriter } from "../src/writer/object-wal-writer.js";
import { S3FaultProxy } from "./support/s3-fault-proxy.js";
import { objectWalConformanceFixture } from "../src/testing/object-wal-conformance-fixture.js";

const runPrefix = `object-wal-provider-it/${randomUUID()}/`;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function storeOptions(overrides: Partial<S3ObjectStoreOptions> = {}): S3ObjectStoreOptions {
  const s3 = loadServices().s3;
  return {
    ...s3ClientOptions(s3),
    keyPrefix: runPrefix,
    ...overrides,
  };
}

afterAll(async () => {
  const store = await createS3ObjectStore(storeOptions({ keyPrefix: "" }));
  try {
    await deleteObjectsUnder(store, runPrefix);
  } finally {
    await store.close();
  }
});

describeWalProviderConformance(
  "ObjectWalWriter over S3ObjectStore (s3proxy)",
  async () => {
    const objectStore = await createS3ObjectStore(storeOptions());
    return objectWalConformanceFixture(objectStore, { cluster: "it", lingerMs: 1, release: () => objectStore.close() });
  },
  { supportsCorruption: true },
);

describe("ObjectWalWriter on s3proxy", () => {
  let proxy: S3FaultProxy;

  beforeAll(async () => {
    proxy = await S3FaultProxy.start(loadServices().s3.endpoint);
  });
  afterAll(async () => {
    await proxy.close();
  });

  it("uploads one object for a flush of 200 streams and every slice reads back", async () => {
    await using objectStore = await createS3ObjectStore(storeOptions());
    const metadata = new InMemoryMetadataStore();
    await using writer = new ObjectWalWriter({
      objectStore,
      metadata,
      cluster: "it",
      writerId: "broker-1",
      flush: { lingerMs: 20 },
    });
    const reader = new ObjectWalReader({ objectStore });
    const persisted = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        writer.persist(
          writer.prepare({
            streamId: streamIdFromName(`multi-${String(index)}`),
            attemptId: `a/${String(index)}`,
            writerId: "broker-1",
            writerEpoch: 1,
            expectedStartOffset: 0,
            payloadFormat: "OPAQUE_RECORD_BATCH",
            entries: [{ payload: encoder.encode(`payload-${String(index)}`), recordCount: 1 }],
          }),
        ),
      ),
    );
    expect(writer.stats).toMatchObject({ objects: 1, puts: 1, slices: 200 });
    const sample = [0, 99, 199];
    for (const index of sample) {
      const entries = await reader.readEntries(persisted[index]?.readTarget as ReadTarget);
      expect(decoder.decode(entries[0]?.payload)).toBe(`payload-${String(index)}`);
    }
    await metadata.close();
  });

  it("a PUT whose response is lost and whose retry sees 412 is recognised as our own write", async () => {
    // One transmission per putIfAbsent and an unresolvable read-back: the store reports "may have applied"; the
    // writer retransmits the same bytes to the same key, s3proxy answers 412, and the read-back proves them ours.
    await using objectStore = await createS3ObjectStore(storeOptions({ endpoint: proxy.endpoint, maxAttempts: 1 }));
    const metadata = new InMemoryMetadataStore();
    await using writer = new ObjectWalWriter({
      objectStore,
      metadata,
      cluster: "it",
      writerId: "broker-1",
      flush: { lingerMs: 0 },
    });
    const start = proxy.requests.length;
    proxy.inject({ method: "PUT", action: "drop-response" });
    proxy.inject({ method: "GET", action: "replace-with-503" });
    const persisted = await writer.persist(
      writer.prepare({
        streamId: streamIdFromName("lost-response"),
        attemptId: "a/1",
        writerId: "broker-1",
        writerEpoch: 1,
        expectedStartOffset: 0,
        payloadFormat: "OPAQUE_RECORD_BATCH",
        entries: [{ payload: encoder.encode("ours"), recordCount: 1 }],
      }),
    );
    expect(writer.stats).toMatchObject({ objects: 1, recognisedOwnWrites: 1 });
    expect(
      proxy.requests
        .slice(start)
        .filter((request) => request.method === "PUT")
        .map((request) => request.action ?? "ok"),
    ).toEqual(["drop-response", "ok"]);
    const entries = await new ObjectWalReader({ objectStore: await createS3ObjectStore(storeOptions()) }).readEntries(
      persisted.readTarget,
    );
    expect(decoder.decode(entries[0]?.payload)).toBe("ours");
    await metadata.close();
  });
});
