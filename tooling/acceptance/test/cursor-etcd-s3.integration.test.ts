// The cursor conformance suite and history property on the clustered stack: a real etcd for metadata and s3proxy
// for snapshot objects, from the shared test services. Every fixture gets its own cluster name; afterwards the
// run's etcd keys and S3 objects are deleted. Stream entries go to an in-memory WAL (cursors only need the
// stream's heads and trims); its protection records live under the fixture's cluster so they are cleaned too.
import { randomUUID } from "node:crypto";
import { MemoryWalProvider, deleteObjectsUnder } from "@nereus/core/testing";
import {
  type CursorConformanceFixture,
  type CursorStoreClients,
  describeCursorConformance,
  describeCursorHistoryProperty,
  memoryWalStreamStore,
} from "@nereus/cursor/testing";
import { createEtcdMetadataStore } from "@nereus/metadata";
import { createS3ObjectStore, type S3ObjectStoreOptions } from "@nereus/object-wal";
import { loadServices, s3ClientOptions } from "@nereus/test-services";
import { Etcd3 } from "etcd3";
import { afterAll } from "vitest";

const runId = randomUUID().slice(0, 8);
const keyPrefix = `acceptance/cursor/${runId}/`;
const clusterPrefix = `cursor-${runId}-`;
let fixtures = 0;

function s3Options(prefix = keyPrefix): S3ObjectStoreOptions {
  return { ...s3ClientOptions(loadServices().s3), keyPrefix: prefix };
}

async function etcdS3Fixture(): Promise<CursorConformanceFixture> {
  fixtures += 1;
  const cluster = `${clusterPrefix}${String(fixtures)}`;
  const wal = new MemoryWalProvider({
    walKind: "BOOKKEEPER",
    protectionPrefix: `/nereus/clusters/${cluster}/memory-wal-protections`,
  });
  const open = async (): Promise<CursorStoreClients> => {
    const metadata = await createEtcdMetadataStore({ endpoints: [loadServices().etcd.endpoint] });
    const objects = await createS3ObjectStore(s3Options());
    const streams = memoryWalStreamStore(metadata, cluster, wal);
    return {
      metadata,
      objects,
      streams,
      close: async () => {
        await streams.close();
        await objects.close();
        await metadata.close();
      },
    };
  };
  const first = await open();
  return { ...first, cluster, reopen: open, cleanup: first.close };
}

afterAll(async () => {
  const admin = new Etcd3({ hosts: loadServices().etcd.endpoint });
  try {
    await admin.delete().prefix(`/nereus/clusters/${clusterPrefix}`);
  } finally {
    admin.close();
  }
  const store = await createS3ObjectStore(s3Options(""));
  try {
    await deleteObjectsUnder(store, keyPrefix);
  } finally {
    await store.close();
  }
});

describeCursorConformance("etcd + s3proxy", etcdS3Fixture);
describeCursorHistoryProperty("etcd + s3proxy", etcdS3Fixture, { runs: 50, timeoutMs: 300_000 });
