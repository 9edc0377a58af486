import { randomBytes, randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { createStreamStore } from "@nereus/core";
import { createEtcdMetadataStore } from "@nereus/metadata";
import { createObjectWalRuntime, createS3ObjectStore } from "@nereus/object-wal";
import { loadServices } from "@nereus/test-services";
const services = loadServices();
const cluster = `probe-${randomUUID().slice(0, 8)}`;
const metadata = await createEtcdMetadataStore({ endpoints: [services.etcd.endpoint] });
const objectStore = createS3ObjectStore({ endpoint: services.s3.endpoint, region: services.s3.region, bucket: services.s3.bucket, credentials: { accessKeyId: services.s3.accessKeyId, secretAccessKey: services.s3.secretAccessKey }, forcePathStyle: true, keyPrefix: `probe/${cluster}/` });
const runtime = createObjectWalRuntime({ objectStore, metadata, cluster, writerId: "probe", materialization: { onError: (e, s) => console.log("ERR", s, String(e)) } });
const store = createStreamStore({ metadata, cluster, writerId: "probe", ...runtime.storeOptions() });
const ids: string[] = [];
for (let i = 0; i < 16; i++) ids.push((await store.createStream(`s${i}`, { profile: "OBJECT_WAL_ASYNC_OBJECT" })).streamId);
await Promise.all(ids.map(async (id) => { for (let j = 0; j < 60; j++) await store.append(id, { payloadFormat: "OPAQUE_RECORD_BATCH", entries: [{ payload: randomBytes(1024), recordCount: 1 }] }); }));
console.log("appended");
for (let pass = 0; pass < 5; pass++) {
  const s = performance.now();
  const r = await runtime.worker.runOnce();
  console.log("pass", pass, (performance.now() - s).toFixed(0), "ms", JSON.stringify(r), JSON.stringify({ ...runtime.worker.stats, publishedByLevel: [...runtime.worker.stats.publishedByLevel] }));
}
await store.close(); await runtime.close(); await objectStore.close(); await metadata.close();
