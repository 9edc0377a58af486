// Metadata txn latency: 1,000 sequential single-key CAS txns (compare the key's current modRevision, put a new
// value) against the raw etcd3 client (baseline), EtcdMetadataStore, SqliteMetadataStore (WAL, synchronous=FULL, on
// the temp directory's file system) and InMemoryMetadataStore, all in this process. Prints p50/p99/mean per store
// and each p50 as a ratio of the raw etcd baseline. Uses the shared services when NEREUS_SERVICES_FILE is set,
// otherwise starts etcd through @nereus/test-services and stops it at the end.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { MetadataStore } from "@nereus/core";
import { InMemoryMetadataStore } from "@nereus/core/testing";
import { SERVICES_FILE_ENV, loadServices, startServices, type RunningServices } from "@nereus/test-services";
import { Etcd3, type IOptions } from "etcd3";
import { createEtcdMetadataStore } from "../src/etcd-metadata-store.js";
import { createSqliteMetadataStore } from "../src/sqlite/sqlite-metadata-store.js";

const WARMUP = 100;
const ITERATIONS = 1_000;
const VALUE = new Uint8Array(256).fill(7);

interface Result {
  readonly name: string;
  readonly samplesMs: readonly number[];
}

/** One CAS round: `cas(revision)` performs the txn and returns the new revision. */
async function measure(
  name: string,
  initialRevision: number,
  cas: (revision: number) => Promise<number>,
): Promise<Result> {
  let revision = initialRevision;
  for (let index = 0; index < WARMUP; index++) revision = await cas(revision);
  const samplesMs: number[] = [];
  for (let index = 0; index < ITERATIONS; index++) {
    const started = performance.now();
    revision = await cas(revision);
    samplesMs.push(performance.now() - started);
  }
  return { name, samplesMs };
}

async function storeCas(name: string, store: MetadataStore, key: string): Promise<Result> {
  const created = await store.txn({
    compares: [{ key, modRevision: 0 }],
    writes: [{ type: "put", key, value: VALUE }],
  });
  if (!created.succeeded) throw new Error(`${name}: benchmark key ${key} already exists`);
  return measure(name, created.revision, async (revision) => {
    const result = await store.txn({
      compares: [{ key, modRevision: revision }],
      writes: [{ type: "put", key, value: VALUE }],
    });
    if (!result.succeeded) throw new Error(`${name}: CAS lost at revision ${revision}`);
    return result.revision;
  });
}

async function rawEtcdCas(endpoint: string, key: string): Promise<Result> {
  const once = {
    execute: async (call: (context: { signal: AbortSignal }) => unknown) =>
      call({ signal: new AbortController().signal }),
  };
  const policy = once as unknown as NonNullable<NonNullable<IOptions["faultHandling"]>["global"]>;
  const client = new Etcd3({ hosts: endpoint, faultHandling: { host: () => policy, global: policy } });
  try {
    const keyBytes = Buffer.from(key);
    const value = Buffer.from(VALUE);
    const txn = async (modRevision: number): Promise<number> => {
      const response = await client.kv.txn({
        compare: [{ key: keyBytes, target: "Mod", result: "Equal", mod_revision: modRevision }],
        success: [{ request_put: { key: keyBytes, value } }],
        failure: [],
      });
      if (!response.succeeded) throw new Error(`raw etcd3: CAS lost at revision ${modRevision}`);
      return Number(response.header.revision);
    };
    return await measure("etcd3 client, raw Txn (baseline)", await txn(0), txn);
  } finally {
    client.close();
  }
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

function printTable(results: readonly Result[]): void {
  const baseline = percentile(
    [...(results[0]?.samplesMs ?? [])].sort((a, b) => a - b),
    0.5,
  );
  const rows = results.map((result) => {
    const sorted = [...result.samplesMs].sort((a, b) => a - b);
    const mean = sorted.reduce((sum, sample) => sum + sample, 0) / sorted.length;
    const p50 = percentile(sorted, 0.5);
    return [
      result.name,
      p50.toFixed(3),
      percentile(sorted, 0.99).toFixed(3),
      mean.toFixed(3),
      (1000 / mean).toFixed(0),
      `${(p50 / baseline).toFixed(2)}x`,
    ];
  });
  const header = [
    "store (1,000 sequential single-key CAS txns)",
    "p50 ms",
    "p99 ms",
    "mean ms",
    "txn/s",
    "p50 vs raw etcd",
  ];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join(" | ");
  console.log(line(header));
  console.log(widths.map((width) => "-".repeat(width)).join("-|-"));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  let owned: RunningServices | undefined;
  const shared = process.env[SERVICES_FILE_ENV];
  const services =
    shared !== undefined && shared !== "" ? loadServices() : (owned = await startServices({ etcd: true }));
  const directory = await mkdtemp(path.join(tmpdir(), "nereus-metadata-bench-"));
  try {
    const endpoint = services.etcd.endpoint;
    const runKey = `nereus-bench/metadata/${Date.now().toString(36)}`;
    const results: Result[] = [];
    results.push(await rawEtcdCas(endpoint, `${runKey}/raw`));
    const etcd = await createEtcdMetadataStore({ endpoints: [endpoint] });
    try {
      results.push(await storeCas("EtcdMetadataStore.txn", etcd, `${runKey}/store`));
      await etcd.txn({
        compares: [],
        writes: [
          { type: "delete", key: `${runKey}/raw` },
          { type: "delete", key: `${runKey}/store` },
        ],
      });
    } finally {
      await etcd.close();
    }
    const sqlite = await createSqliteMetadataStore({ path: path.join(directory, "metadata.db") });
    try {
      results.push(await storeCas("SqliteMetadataStore.txn (WAL, synchronous=FULL)", sqlite, "bench/key"));
    } finally {
      await sqlite.close();
    }
    const memory = new InMemoryMetadataStore();
    results.push(await storeCas("InMemoryMetadataStore.txn (floor)", memory, "bench/key"));
    await memory.close();
    console.log(
      `etcd ${endpoint}${owned === undefined ? " (shared services)" : " (started for this run)"}; SQLite file in ${tmpdir()}`,
    );
    printTable(results);
  } finally {
    await rm(directory, { recursive: true, force: true });
    await owned?.stop();
  }
}

await main();
