// Runs core's append-protocol conformance suite (create-or-get, the append example, group commit, fencing, lifecycle,
// read repair, a crash at every pipeline step) against the real metadata stores: a real etcd (shared by the run;
// every test uses its own cluster prefix) and SQLite (a fresh file per test); plus the append-history property
// (random appends, faults, crashes, restarts and owner changes) on real etcd and on SQLite, whose ordered txns take
// the pipelined (speculative) head CAS path under those faults. Kept in one file because the afterAll below removes
// every conformance-* cluster.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describeAppendHistoryProperty, describeAppendProtocolConformance } from "@nereus/core/testing";
import { loadServices } from "@nereus/test-services";
import { Etcd3 } from "etcd3";
import { afterAll } from "vitest";
import { createEtcdMetadataStore } from "../src/etcd-metadata-store.js";
import { createSqliteMetadataStore } from "../src/sqlite/sqlite-metadata-store.js";

const endpoint = loadServices().etcd.endpoint;
const admin = new Etcd3({ hosts: endpoint });

afterAll(async () => {
  // The suite's clusters are named conformance-<random>; the in-memory WAL writes protections under its own prefix.
  await admin.delete().prefix("/nereus/clusters/conformance-");
  await admin.delete().prefix("/nereus-memory-wal/");
  admin.close();
});

describeAppendProtocolConformance("EtcdMetadataStore (real etcd)", async () => {
  const metadata = await createEtcdMetadataStore({ endpoints: [endpoint] });
  return { metadata, cleanup: () => metadata.close() };
});

describeAppendProtocolConformance("SqliteMetadataStore", async () => {
  const directory = await mkdtemp(path.join(tmpdir(), "nereus-append-conformance-"));
  const metadata = await createSqliteMetadataStore({ path: path.join(directory, "metadata.db") });
  return {
    metadata,
    cleanup: async () => {
      await metadata.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
});

// One shared etcd client for all histories (each history uses its own cluster prefix); fewer runs than the
// in-memory property in core because every step is a real etcd round trip.
const historyStore = createEtcdMetadataStore({ endpoints: [endpoint] });
afterAll(async () => (await historyStore).close());
describeAppendHistoryProperty("EtcdMetadataStore (real etcd)", async () => ({ metadata: await historyStore }), {
  numRuns: 25,
  timeoutMs: 240_000,
});

// SQLite declares orderedTxns, so these histories send pipelined head CASes behind ones still in flight while faults
// fail, hang or drop their answers. One file for all histories (each uses its own cluster prefix).
const sqliteHistoryDirectory = mkdtemp(path.join(tmpdir(), "nereus-append-history-"));
const sqliteHistoryStore = sqliteHistoryDirectory.then((directory) =>
  createSqliteMetadataStore({ path: path.join(directory, "metadata.db") }),
);
afterAll(async () => {
  await (await sqliteHistoryStore).close();
  await rm(await sqliteHistoryDirectory, { recursive: true, force: true });
});
describeAppendHistoryProperty("SqliteMetadataStore", async () => ({ metadata: await sqliteHistoryStore }), {
  numRuns: 40,
  timeoutMs: 240_000,
});
