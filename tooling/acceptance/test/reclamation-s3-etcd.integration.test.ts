// Storage reclamation of the Object WAL profiles against the clustered stack: the randomized history checker
// (`runReclamationHistory` from @nereus/object-wal/testing) over a real etcd and s3proxy — collection runs that
// crash, run as another process, lose DELETE and transaction responses, with reads in flight; every committed
// offset at or above the trim re-read and compared after each run; nothing left after a full trim.
import { randomUUID } from "node:crypto";
import { deleteObjectsUnder } from "@nereus/core/testing";
import { createEtcdMetadataStore } from "@nereus/metadata";
import { createS3ObjectStore } from "@nereus/object-wal";
import { ReclamationHistoryTally, runReclamationHistory } from "@nereus/object-wal/testing";
import { loadServices, s3ClientOptions } from "@nereus/test-services";
import { Etcd3 } from "etcd3";
import { afterAll, describe, expect, it } from "vitest";

const runId = randomUUID().slice(0, 8);
const keyPrefix = `acceptance/reclamation/${runId}/`;

afterAll(async () => {
  const admin = new Etcd3({ hosts: loadServices().etcd.endpoint });
  try {
    await admin.delete().prefix(`/nereus/clusters/reclaim-${runId}-`);
  } finally {
    admin.close();
  }
  const store = await createS3ObjectStore({ ...s3ClientOptions(loadServices().s3), keyPrefix: "" });
  try {
    await deleteObjectsUnder(store, keyPrefix);
  } finally {
    await store.close();
  }
});

describe("storage reclamation on s3proxy + etcd", () => {
  it("histories with crashes, lost responses and reads in flight lose no acknowledged offset and leave nothing", async () => {
    const metadata = await createEtcdMetadataStore({ endpoints: [loadServices().etcd.endpoint] });
    const objectStore = await createS3ObjectStore({ ...s3ClientOptions(loadServices().s3), keyPrefix });
    const tally = new ReclamationHistoryTally();
    try {
      for (const seed of [11, 12, 13]) {
        await runReclamationHistory(
          { metadata, objectStore },
          { seed, steps: 40, cluster: `reclaim-${runId}-${String(seed)}` },
          tally,
        );
      }
    } finally {
      await objectStore.close();
      await metadata.close();
    }
    expect(tally.histories).toBe(3);
    expect(tally.objectsFreed).toBeGreaterThan(0);
    expect(tally.offsetsChecked).toBeGreaterThan(0);
  });
});
