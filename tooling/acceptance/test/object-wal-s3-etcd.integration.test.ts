// Issue 4 acceptance of the Object WAL profiles against the clustered stack: s3proxy (S3 API, create-only PUTs,
// CRC32C) for objects and a real etcd for metadata, both from the shared test services.
import { randomUUID } from "node:crypto";
import { deleteObjectsUnder } from "@nereus/core/testing";
import { createEtcdMetadataStore } from "@nereus/metadata";
import { createS3ObjectStore, type S3ObjectStoreOptions } from "@nereus/object-wal";
import { describeObjectWalAcceptance } from "@nereus/object-wal/testing";
import { loadServices, s3ClientOptions } from "@nereus/test-services";
import { Etcd3 } from "etcd3";
import { afterAll } from "vitest";

const runId = randomUUID().slice(0, 8);
const keyPrefix = `acceptance/object-wal/${runId}/`;
let stacks = 0;

function s3Options(prefix = keyPrefix): S3ObjectStoreOptions {
  const s3 = loadServices().s3;
  return {
    ...s3ClientOptions(s3),
    keyPrefix: prefix,
  };
}

async function clients() {
  const metadata = await createEtcdMetadataStore({ endpoints: [loadServices().etcd.endpoint] });
  const objectStore = await createS3ObjectStore(s3Options());
  return {
    metadata,
    objectStore,
    close: async () => {
      await objectStore.close();
      await metadata.close();
    },
  };
}

afterAll(async () => {
  const admin = new Etcd3({ hosts: loadServices().etcd.endpoint });
  try {
    await admin.delete().prefix(`/nereus/clusters/owal-${runId}-`);
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

describeObjectWalAcceptance("s3proxy + etcd", async () => {
  const opened = await clients();
  stacks += 1;
  return {
    metadata: opened.metadata,
    objectStore: opened.objectStore,
    cluster: `owal-${runId}-${String(stacks)}`,
    reopen: clients,
    cleanup: opened.close,
  };
});
