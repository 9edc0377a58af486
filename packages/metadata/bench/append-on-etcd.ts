// Append latency on a real etcd, as a ratio to a raw etcd Txn measured in the same run: 1,000 sequential warm
// appends through the full @nereus/core StreamStore pipeline (EtcdMetadataStore + in-memory WAL, so the WAL costs
// nothing and the ratio is the protocol's metadata cost) against 1,000 raw single-key CAS Txns with the etcd3
// client. Also 64 concurrent callers with group commit. Prints metadata round trips per append (counted by a
// wrapper around the store). Uses the shared services when NEREUS_SERVICES_FILE is set, otherwise starts etcd.
import { performance } from "node:perf_hooks";
import {
  createStreamStore,
  GenerationZeroVisibleCoordinator,
  StableHeadCoordinator,
  type MetadataStore,
  type StorageProfile,
} from "@nereus/core";
import { MemoryWalProvider } from "@nereus/core/testing";
import { SERVICES_FILE_ENV, loadServices, startServices, type RunningServices } from "@nereus/test-services";
import { Etcd3, type IOptions } from "etcd3";
import { createEtcdMetadataStore } from "../src/etcd-metadata-store.js";

const WARMUP = 100;
const ITERATIONS = 1_000;
const CONCURRENT_APPENDS = 5_000;
const PAYLOAD = new Uint8Array(1024).fill(7);

/** Counts every call that reaches the wrapped store (one call = one round trip). */
function counting(store: MetadataStore): { store: MetadataStore; calls: () => number; reset: () => void } {
  let calls = 0;
  const wrapped: MetadataStore = {
    spiVersion: store.spiVersion,
    get: (key, options) => ((calls += 1), store.get(key, options)),
    getMany: (keys, options) => ((calls += 1), store.getMany(keys, options)),
    scan: (prefix, options) => ((calls += 1), store.scan(prefix, options)),
    txn: (request, options) => ((calls += 1), store.txn(request, options)),
    grantLease: (ttlMs, options) => ((calls += 1), store.grantLease(ttlMs, options)),
    watch: (prefix, onEvent) => store.watch(prefix, onEvent),
    close: () => store.close(),
  };
  return { store: wrapped, calls: () => calls, reset: () => void (calls = 0) };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

function summarize(samples: readonly number[]): { p50: number; p99: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
  };
}

async function rawTxnSamples(endpoint: string, key: string): Promise<number[]> {
  const once = {
    execute: async (call: (context: { signal: AbortSignal }) => unknown) =>
      call({ signal: new AbortController().signal }),
  };
  const policy = once as unknown as NonNullable<NonNullable<IOptions["faultHandling"]>["global"]>;
  const client = new Etcd3({ hosts: endpoint, faultHandling: { host: () => policy, global: policy } });
  try {
    const keyBytes = Buffer.from(key);
    const value = Buffer.from(PAYLOAD.subarray(0, 256));
    let revision = 0;
    const txn = async (): Promise<void> => {
      const response = await client.kv.txn({
        compare: [{ key: keyBytes, target: "Mod", result: "Equal", mod_revision: revision }],
        success: [{ request_put: { key: keyBytes, value } }],
        failure: [],
      });
      if (!response.succeeded) throw new Error("raw etcd3: CAS lost");
      revision = Number(response.header.revision);
    };
    for (let index = 0; index < WARMUP; index++) await txn();
    const samples: number[] = [];
    for (let index = 0; index < ITERATIONS; index++) {
      const started = performance.now();
      await txn();
      samples.push(performance.now() - started);
    }
    await client.delete().key(key);
    return samples;
  } finally {
    client.close();
  }
}

async function appendRun(endpoint: string, cluster: string, profile: StorageProfile, concurrency: number) {
  const etcd = await createEtcdMetadataStore({ endpoints: [endpoint] });
  const metadata = counting(etcd);
  const wal = new MemoryWalProvider({ walKind: profile.startsWith("OBJECT") ? "OBJECT" : "BOOKKEEPER" });
  const store = createStreamStore({
    metadata: metadata.store,
    cluster,
    writerId: "bench",
    walWriters: [wal],
    walReaders: [wal],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
  });
  try {
    const { streamId } = await store.createStream(`bench-${profile}-${String(concurrency)}`, { profile });
    const batch = { payloadFormat: "OPAQUE_RECORD_BATCH" as const, entries: [{ payload: PAYLOAD, recordCount: 1 }] };
    for (let index = 0; index < WARMUP; index++) await store.append(streamId, batch);
    metadata.reset();
    const samples: number[] = [];
    const total = concurrency === 1 ? ITERATIONS : CONCURRENT_APPENDS;
    let remaining = total;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (remaining > 0) {
          remaining -= 1;
          const begin = performance.now();
          await store.append(streamId, batch);
          samples.push(performance.now() - begin);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1_000;
    return { samples, appendsPerSecond: total / seconds, roundTripsPerAppend: metadata.calls() / total };
  } finally {
    await store.close();
    await etcd.close();
  }
}

async function main(): Promise<void> {
  let owned: RunningServices | undefined;
  const shared = process.env[SERVICES_FILE_ENV];
  const services =
    shared !== undefined && shared !== "" ? loadServices() : (owned = await startServices({ etcd: true }));
  const endpoint = services.etcd.endpoint;
  const cluster = `bench-${Date.now().toString(36)}`;
  try {
    const raw = summarize(await rawTxnSamples(endpoint, `nereus-bench/append/${cluster}/raw`));
    const rows: string[][] = [
      ["raw etcd3 Txn (baseline)", raw.p50.toFixed(3), raw.p99.toFixed(3), (1000 / raw.mean).toFixed(0), "-", "1.00x"],
    ];
    for (const [profile, concurrency] of [
      ["OBJECT_WAL_SYNC_OBJECT", 1],
      ["BOOKKEEPER_WAL_ONLY", 1],
      ["OBJECT_WAL_SYNC_OBJECT", 64],
    ] as const) {
      const run = await appendRun(endpoint, cluster, profile, concurrency);
      const stats = summarize(run.samples);
      rows.push([
        `append ${profile}${concurrency > 1 ? `, ${String(concurrency)} concurrent (group commit)` : ", sequential warm"}`,
        stats.p50.toFixed(3),
        stats.p99.toFixed(3),
        run.appendsPerSecond.toFixed(0),
        run.roundTripsPerAppend.toFixed(3),
        `${(stats.p50 / raw.p50).toFixed(2)}x`,
      ]);
    }
    const header = [
      "operation (1 KiB payload, in-memory WAL)",
      "p50 ms",
      "p99 ms",
      "ops/s",
      "metadata RT/append",
      "p50 vs raw Txn",
    ];
    const widths = header.map((title, column) =>
      Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
    );
    const line = (cells: readonly string[]): string =>
      cells
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
        .join(" | ");
    console.log(`etcd ${endpoint}${owned === undefined ? " (shared services)" : " (started for this run)"}`);
    console.log(line(header));
    console.log(widths.map((width) => "-".repeat(width)).join("-|-"));
    for (const row of rows) console.log(line(row));
    const admin = new Etcd3({ hosts: endpoint });
    await admin.delete().prefix(`/nereus/clusters/${cluster}/`);
    await admin.delete().prefix("/nereus-memory-wal/");
    admin.close();
  } finally {
    await owned?.stop();
  }
}

await main();
