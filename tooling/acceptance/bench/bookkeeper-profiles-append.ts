// BookKeeper profile append benchmark on real services (issue 6): 3 bookies + ZooKeeper, etcd metadata, s3proxy
// Object generations. Per profile — BOOKKEEPER_WAL_ONLY, BOOKKEEPER_WAL_ASYNC_OBJECT (worker running in the
// background, default lag bound), BOOKKEEPER_WAL_SYNC_OBJECT (producer waits for the committed, read-back Object
// generation) — sequential 1 KiB appends to one stream through the full StreamStore pipeline, p50/p99 as a ratio
// to a raw BookKeeper ledger add of the same framed size (our client, E=3 Qw=2 Qa=2, CRC32C) measured right before
// the row in the same run. Also reports BookKeeper adds and Object PUTs per append.
// Environment: NEREUS_BENCH_COUNT (appends per row, default 300; SYNC uses a third). Uses the shared services when
// NEREUS_SERVICES_FILE is set, otherwise starts etcd, s3proxy, ZooKeeper and the bookies and stops them at the end.
// Run: pnpm --filter @nereus/acceptance bench:bookkeeper
import { randomBytes, randomUUID } from "node:crypto";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { createBookKeeperClient, createBookKeeperWalRuntime, type BookKeeperClient } from "@nereus/bookkeeper";
import { ENTRY_FRAME_OVERHEAD } from "@nereus/bookkeeper/internal";
import { createStreamStore, type ObjectStore, type StorageProfile } from "@nereus/core";
import { deleteObjectsUnder } from "@nereus/core/testing";
import { createEtcdMetadataStore } from "@nereus/metadata";
import { createObjectWalRuntime, createS3ObjectStore } from "@nereus/object-wal";
import {
  SERVICES_FILE_ENV,
  loadServices,
  s3ClientOptions,
  startServices,
  type RunningServices,
} from "@nereus/test-services";
import { Etcd3 } from "etcd3";

const PAYLOAD = 1024;
const COUNT = Number(process.env["NEREUS_BENCH_COUNT"] ?? 300);
const WARMUP = 20;
const QUORUMS = { ensembleSize: 3, writeQuorumSize: 2, ackQuorumSize: 2 } as const;
const PASSWORD = "nereus-bench";
const PROFILES: ReadonlyArray<{ readonly profile: StorageProfile; readonly count: number }> = [
  { profile: "BOOKKEEPER_WAL_ONLY", count: COUNT },
  { profile: "BOOKKEEPER_WAL_ASYNC_OBJECT", count: COUNT },
  { profile: "BOOKKEEPER_WAL_SYNC_OBJECT", count: Math.max(30, Math.floor(COUNT / 3)) },
];

interface Latency {
  readonly p50: number;
  readonly p99: number;
}

function percentiles(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

async function rawAdds(client: BookKeeperClient, count: number): Promise<Latency> {
  const ledger = await client.createLedger({ ...QUORUMS, password: PASSWORD, digestType: "CRC32C" });
  const samples: number[] = [];
  try {
    for (let index = 0; index < WARMUP + count; index++) {
      const bytes = randomBytes(PAYLOAD + ENTRY_FRAME_OVERHEAD);
      const started = performance.now();
      await ledger.addEntry(bytes);
      if (index >= WARMUP) samples.push(performance.now() - started);
    }
  } finally {
    await ledger.close();
  }
  return percentiles(samples);
}

async function main(): Promise<void> {
  let owned: RunningServices | undefined;
  if (process.env[SERVICES_FILE_ENV] === undefined || process.env[SERVICES_FILE_ENV] === "") {
    owned = await startServices({
      etcd: true,
      s3: true,
      zookeeper: true,
      bookkeeper: true,
      log: (line) => process.stderr.write(`[nereus-services] ${line}\n`),
    });
  }
  const services = owned ?? loadServices();
  if (services.bookkeeper === undefined || services.zookeeper === undefined)
    throw new Error("BookKeeper/ZooKeeper are not running");
  const runId = randomUUID().slice(0, 8);
  const cluster = `bkobj-bench-${runId}`;
  const keyPrefix = `bench/bookkeeper-object/${runId}/`;
  const metadata = await createEtcdMetadataStore({ endpoints: [services.etcd.endpoint] });
  const s3 = await createS3ObjectStore({
    ...s3ClientOptions(services.s3),
    keyPrefix,
  });
  const objects = countingPuts(s3);
  const client = createBookKeeperClient({
    zooKeeperConnectString: services.zookeeper.connectString,
    ledgersRoot: services.bookkeeper.zkLedgersRoot,
  });
  const bk = createBookKeeperWalRuntime({
    client,
    metadata,
    cluster,
    clusterAlias: "bk-bench",
    ...QUORUMS,
    password: PASSWORD,
  });
  const owal = createObjectWalRuntime({
    objectStore: objects,
    metadata,
    cluster,
    writerId: "bench",
    sourceReaders: [bk.reader],
  });
  const objectSide = owal.storeOptions({ builtInCoordinators: false });
  const store = createStreamStore({
    metadata,
    cluster,
    writerId: "bench",
    walWriters: bk.walWriters,
    walReaders: [...bk.walReaders, ...objectSide.walReaders],
    completionCoordinators: [...bk.completionCoordinators, ...objectSide.completionCoordinators],
    admissionHooks: objectSide.admissionHooks,
  });
  owal.start();
  const rows: Array<Record<string, unknown>> = [];
  try {
    for (const { profile, count } of PROFILES) {
      const raw = await rawAdds(client, count);
      const { streamId } = await store.createStream(`bench-${profile}`, { profile });
      const samples: number[] = [];
      const adds = bk.stats.entriesAdded;
      const puts = objects.stats.puts;
      for (let index = 0; index < WARMUP + count; index++) {
        const batch = {
          payloadFormat: "OPAQUE_RECORD_BATCH" as const,
          entries: [{ payload: randomBytes(PAYLOAD), recordCount: 1 }],
        };
        const started = performance.now();
        await store.append(streamId, batch);
        if (index >= WARMUP) samples.push(performance.now() - started);
      }
      const append = percentiles(samples);
      rows.push({
        profile,
        appends: count,
        rawAddP50Ms: round(raw.p50),
        rawAddP99Ms: round(raw.p99),
        appendP50Ms: round(append.p50),
        appendP99Ms: round(append.p99),
        ratioP50: round(append.p50 / raw.p50),
        ratioP99: round(append.p99 / raw.p99),
        bkAddsPerAppend: round((bk.stats.entriesAdded - adds) / (WARMUP + count)),
        objectPutsPerAppend: round((objects.stats.puts - puts) / (WARMUP + count)),
      });
    }
  } finally {
    await store.close();
    await owal.close();
    await bk.close();
    await client.close();
    const admin = new Etcd3({ hosts: services.etcd.endpoint });
    try {
      await admin.delete().prefix(`/nereus/clusters/${cluster}`);
    } finally {
      admin.close();
    }
    await deleteObjectsUnder(s3, "");
    await s3.close();
    await metadata.close();
    await owned?.stop();
  }
  process.stdout.write(
    `BookKeeper profile append latency vs raw add (1 KiB, E=3 Qw=2 Qa=2, etcd metadata, s3proxy; ${String(os.cpus().length)} CPUs)\n`,
  );
  console.table(rows);
  process.stdout.write(`${JSON.stringify({ bench: "bookkeeper-profiles-append", rows })}\n`);
}

/** Delegates to `inner`, counting PUTs (`@nereus/object-wal/testing` pulls in vitest, so not used here). */
function countingPuts(inner: ObjectStore): ObjectStore & { readonly stats: { puts: number } } {
  const stats = { puts: 0 };
  return {
    spiVersion: inner.spiVersion,
    stats,
    putIfAbsent: (key, body, options) => {
      stats.puts += 1;
      return inner.putIfAbsent(key, body, options);
    },
    get: (key, range, options) => inner.get(key, range, options),
    head: (key, options) => inner.head(key, options),
    list: (prefix, options) => inner.list(prefix, options),
    deleteMany: (keys, options) => inner.deleteMany(keys, options),
    close: async () => undefined,
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

await main();
