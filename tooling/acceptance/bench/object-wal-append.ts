// Object WAL append benchmark on s3proxy + etcd (issue 4). Measures, in one run:
//   raw cost   — one create-only PUT (raw @aws-sdk/client-s3, If-None-Match + CRC32C) of the size of a one-append
//                WAL object, and one raw etcd CAS txn (etcd3 client); the baseline is their sum (p50 and p99);
//   latency    — sequential appends to one stream per profile (OBJECT_WAL_SYNC_OBJECT, OBJECT_WAL_ASYNC_OBJECT), p50/p99
//                as ratios to the raw cost;
//   throughput — N streams appending concurrently per profile: appends/s, payload MiB/s, PUTs/s, PUTs per MiB,
//                slices per PUT, append p50/p99 under load;
//   lag        — the async profile under steady load with the background worker running: materialization lag
//                (records not yet covered by a committed higher generation) sampled every 250 ms, and the time to
//                catch up after the load stops.
// Environment: NEREUS_BENCH_SECONDS (throughput/lag duration, default 5), NEREUS_BENCH_STREAMS (default 32),
// NEREUS_BENCH_PAYLOAD (bytes per append, default 1024). Uses the shared services when NEREUS_SERVICES_FILE is set,
// otherwise starts etcd and s3proxy and stops them at the end.
import { randomBytes, randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import {
  crc32c,
  createStreamStore,
  type AppendBatch,
  type MetadataStore,
  type StorageProfile,
  type StreamStore,
} from "@nereus/core";
import { deleteObjectsUnder } from "@nereus/core/testing";
import { StreamKeyspace } from "@nereus/core/internal";
import { createEtcdMetadataStore } from "@nereus/metadata";
import {
  createObjectWalRuntime,
  createS3ObjectStore,
  type ObjectWalRuntime,
  type S3ObjectStore,
} from "@nereus/object-wal";
import {
  crc32cToBase64,
  encodeWalObject,
  measureLag,
  streamMaterializationKey,
  streamMaterializationCodec,
} from "@nereus/object-wal/internal";
import {
  SERVICES_FILE_ENV,
  loadServices,
  s3ClientOptions,
  startServices,
  type RunningServices,
  type S3Description,
} from "@nereus/test-services";
import { Etcd3, type IOptions } from "etcd3";

const SECONDS = Number(process.env["NEREUS_BENCH_SECONDS"] ?? 5);
const STREAMS = Number(process.env["NEREUS_BENCH_STREAMS"] ?? 32);
const PAYLOAD = Number(process.env["NEREUS_BENCH_PAYLOAD"] ?? 1024);
const WARMUP = 20;
const ITERATIONS = 200;
const PROFILES: readonly StorageProfile[] = ["OBJECT_WAL_SYNC_OBJECT", "OBJECT_WAL_ASYNC_OBJECT"];

interface Percentiles {
  readonly p50: number;
  readonly p99: number;
}

function percentiles(samples: readonly number[]): Percentiles {
  const sorted = [...samples].sort((left, right) => left - right);
  const at = (fraction: number): number =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

function table(title: string, header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((name, column) => Math.max(name.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join("  ");
  console.log(`\n${title}`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

async function timed(iterations: number, warmup: number, body: (index: number) => Promise<void>): Promise<number[]> {
  for (let index = 0; index < warmup; index++) await body(-1 - index);
  const samples: number[] = [];
  for (let index = 0; index < iterations; index++) {
    const started = performance.now();
    await body(index);
    samples.push(performance.now() - started);
  }
  return samples;
}

async function rawPut(s3: S3Description, prefix: string, size: number): Promise<number[]> {
  const client = new S3Client({
    ...s3ClientOptions(s3),
    maxAttempts: 1,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  try {
    return await timed(ITERATIONS, WARMUP, async (index) => {
      const body = randomBytes(size);
      await client.send(
        new PutObjectCommand({
          Bucket: s3.bucket,
          Key: `${prefix}raw/${String(index)}`,
          Body: body,
          ContentLength: body.length,
          IfNoneMatch: "*",
          ChecksumCRC32C: crc32cToBase64(crc32c(body)),
        }),
      );
    });
  } finally {
    client.destroy();
  }
}

async function rawTxn(endpoint: string, key: string, size: number): Promise<number[]> {
  const once = {
    execute: async (call: (context: { signal: AbortSignal }) => unknown) =>
      call({ signal: new AbortController().signal }),
  };
  const policy = once as unknown as NonNullable<NonNullable<IOptions["faultHandling"]>["global"]>;
  const client = new Etcd3({ hosts: endpoint, faultHandling: { host: () => policy, global: policy } });
  try {
    const keyBytes = Buffer.from(key);
    const value = Buffer.from(randomBytes(size));
    let revision = 0;
    return await timed(ITERATIONS, WARMUP, async () => {
      const response = await client.kv.txn({
        compare: [{ key: keyBytes, target: "Mod", result: "Equal", mod_revision: revision }],
        success: [{ request_put: { key: keyBytes, value } }],
        failure: [],
      });
      if (!response.succeeded) throw new Error("raw etcd CAS lost");
      revision = Number(response.header.revision);
    });
  } finally {
    client.close();
  }
}

interface Process {
  readonly runtime: ObjectWalRuntime;
  readonly store: StreamStore;
}

function open(metadata: MetadataStore, objectStore: S3ObjectStore, cluster: string, lingerMs: number): Process {
  const runtime = createObjectWalRuntime({
    objectStore,
    metadata,
    cluster,
    writerId: "bench",
    flush: { lingerMs },
    lagBound: { maxRecords: 0, maxBytes: 0 },
    materialization: { intervalMs: 100, concurrency: 4 },
  });
  const store = createStreamStore({ metadata, cluster, writerId: "bench", ...runtime.storeOptions() });
  return { runtime, store };
}

async function close(process: Process): Promise<void> {
  await process.store.close();
  await process.runtime.close();
}

const batch = (): AppendBatch => ({
  payloadFormat: "OPAQUE_RECORD_BATCH",
  entries: [{ payload: randomBytes(PAYLOAD), recordCount: 1 }],
});

interface LoadResult {
  readonly appends: number;
  readonly seconds: number;
  readonly latencies: number[];
  readonly puts: number;
  readonly putBytes: number;
  readonly slices: number;
  readonly objects: number;
}

/** `STREAMS` appenders, each appending sequentially to its own stream, for `seconds`. */
async function load(
  process: Process,
  streamIds: readonly string[],
  seconds: number,
  during?: () => Promise<void>,
): Promise<LoadResult> {
  const putsBefore = process.runtime.writer.stats.puts;
  const bytesBefore = process.runtime.writer.stats.objectBytes;
  const slicesBefore = process.runtime.writer.stats.slices;
  const objectsBefore = process.runtime.writer.stats.objects;
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  let appends = 0;
  const started = performance.now();
  const appenders = streamIds.map(async (streamId) => {
    while (performance.now() < until) {
      const at = performance.now();
      await process.store.append(streamId, batch());
      latencies.push(performance.now() - at);
      appends += 1;
    }
  });
  await Promise.all([...appenders, during?.()]);
  return {
    appends,
    seconds: (performance.now() - started) / 1000,
    latencies,
    puts: process.runtime.writer.stats.puts - putsBefore,
    putBytes: process.runtime.writer.stats.objectBytes - bytesBefore,
    slices: process.runtime.writer.stats.slices - slicesBefore,
    objects: process.runtime.writer.stats.objects - objectsBefore,
  };
}

async function createStreams(
  store: StreamStore,
  profile: StorageProfile,
  prefix: string,
  count: number,
): Promise<string[]> {
  const created = await Promise.all(
    Array.from({ length: count }, (_, index) => store.createStream(`${prefix}-${String(index)}`, { profile })),
  );
  return created.map((item) => item.streamId);
}

async function totalLag(
  metadata: MetadataStore,
  cluster: string,
  streamIds: readonly string[],
): Promise<{ records: number; max: number }> {
  const keyspace = new StreamKeyspace(cluster);
  const keys = streamIds.flatMap((streamId) => [
    keyspace.headKey(streamId),
    streamMaterializationKey(cluster, streamId),
  ]);
  const found = await metadata.getMany(keys);
  let records = 0;
  let max = 0;
  for (const streamId of streamIds) {
    const headKv = found.get(keyspace.headKey(streamId));
    if (headKv === undefined) continue;
    const head = keyspace.decodeHead(headKv).head;
    const stateKey = streamMaterializationKey(cluster, streamId);
    const stateKv = found.get(stateKey);
    const state =
      stateKv === undefined
        ? { materializedEnd: 0, materializedCumulativeSize: 0 }
        : streamMaterializationCodec.decode(stateKv.value, stateKey);
    const lag = measureLag(head, state).records;
    records += lag;
    max = Math.max(max, lag);
  }
  return { records, max };
}

async function main(): Promise<void> {
  let owned: RunningServices | undefined;
  if (process.env[SERVICES_FILE_ENV] === undefined || process.env[SERVICES_FILE_ENV] === "") {
    owned = await startServices({
      etcd: true,
      s3: true,
      log: (line) => process.stderr.write(`[nereus-services] ${line}\n`),
    });
  }
  const services = owned ?? loadServices();
  const runId = randomUUID().slice(0, 8);
  const cluster = `owal-bench-${runId}`;
  const keyPrefix = `bench/object-wal/${runId}/`;
  const metadata = await createEtcdMetadataStore({ endpoints: [services.etcd.endpoint] });
  const objectStore = await createS3ObjectStore({
    ...s3ClientOptions(services.s3),
    keyPrefix,
  });
  try {
    const objectSize = encodeWalObject({
      writerId: "bench",
      attemptKey: "wo-bench-0000000000000000001",
      createdAtMillis: Date.now(),
      slices: [
        {
          streamId: "s-bench",
          firstExpectedOffset: 0,
          entries: [{ recordCount: 1, payload: new Uint8Array(PAYLOAD) }],
        },
      ],
    }).bytes.length;
    const put = percentiles(await rawPut(services.s3, keyPrefix, objectSize));
    const txn = percentiles(await rawTxn(services.etcd.endpoint, `/nereus-bench/${runId}/raw`, 512));
    const raw = { p50: put.p50 + txn.p50, p99: put.p99 + txn.p99 };
    table(
      `Raw cost (${String(ITERATIONS)} sequential ops after ${String(WARMUP)} warm-up): one create-only PUT of ${String(objectSize)} B + one etcd CAS txn`,
      ["operation", "p50 ms", "p99 ms"],
      [
        ["S3 PUT If-None-Match + CRC32C (raw SDK)", put.p50.toFixed(2), put.p99.toFixed(2)],
        ["etcd CAS txn (raw etcd3)", txn.p50.toFixed(2), txn.p99.toFixed(2)],
        ["raw cost = PUT + txn", raw.p50.toFixed(2), raw.p99.toFixed(2)],
      ],
    );

    const latencyRows: string[][] = [];
    const throughputRows: string[][] = [];
    for (const profile of PROFILES) {
      // Each phase has its own cluster, so one phase's background work never competes with another's.
      const sequential = open(metadata, objectStore, `${cluster}-latency-${profile.toLowerCase()}`, 0);
      const [streamId] = await createStreams(sequential.store, profile, `latency-${profile}`, 1);
      const samples = await timed(ITERATIONS, WARMUP, async () => {
        await sequential.store.append(streamId as string, batch());
      });
      await close(sequential);
      const latency = percentiles(samples);
      const perSecond = 1000 / (samples.reduce((sum, sample) => sum + sample, 0) / samples.length);
      latencyRows.push([
        profile,
        latency.p50.toFixed(2),
        latency.p99.toFixed(2),
        `${(latency.p50 / raw.p50).toFixed(2)}x`,
        `${(latency.p99 / raw.p99).toFixed(2)}x`,
        perSecond.toFixed(1),
        `${(perSecond / (1000 / raw.p50)).toFixed(2)}x`,
      ]);

      const concurrent = open(metadata, objectStore, `${cluster}-load-${profile.toLowerCase()}`, 5);
      const streamIds = await createStreams(concurrent.store, profile, `load-${profile}`, STREAMS);
      const result = await load(concurrent, streamIds, SECONDS);
      await close(concurrent);
      const loaded = percentiles(result.latencies);
      const payloadMiB = (result.appends * PAYLOAD) / (1024 * 1024);
      throughputRows.push([
        profile,
        (result.appends / result.seconds).toFixed(0),
        (payloadMiB / result.seconds).toFixed(2),
        (result.puts / result.seconds).toFixed(1),
        (result.puts / payloadMiB).toFixed(1),
        (result.slices / Math.max(1, result.objects)).toFixed(1),
        (result.puts / Math.max(1, result.objects)).toFixed(2),
        loaded.p50.toFixed(2),
        loaded.p99.toFixed(2),
        `${(loaded.p50 / raw.p50).toFixed(2)}x`,
      ]);
    }
    table(
      `Append latency, one stream, ${String(PAYLOAD)} B per append, sequential (${String(ITERATIONS)} after ${String(WARMUP)} warm-up; linger 0 ms)`,
      ["profile", "p50 ms", "p99 ms", "p50/raw", "p99/raw", "appends/s", "vs raw ops/s"],
      latencyRows,
    );
    table(
      `Throughput, ${String(STREAMS)} streams appending concurrently for ${String(SECONDS)} s (${String(PAYLOAD)} B per append; linger 5 ms)`,
      [
        "profile",
        "appends/s",
        "MiB/s",
        "PUTs/s",
        "PUTs/MiB",
        "slices/PUT",
        "PUTs/flush",
        "p50 ms",
        "p99 ms",
        "p50/raw",
      ],
      throughputRows,
    );

    // Materialization lag under steady load (async profile, worker running).
    const lagCluster = `${cluster}-lag`;
    const steady = open(metadata, objectStore, lagCluster, 5);
    const streamIds = await createStreams(steady.store, "OBJECT_WAL_ASYNC_OBJECT", "lag", STREAMS);
    steady.runtime.start();
    const samples: Array<{ records: number; max: number }> = [];
    let loading = true;
    const sampler = async (): Promise<void> => {
      while (loading) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        samples.push(await totalLag(metadata, lagCluster, streamIds));
      }
    };
    const result = await load(steady, streamIds, SECONDS * 2, async () => {
      const done = sampler();
      await new Promise((resolve) => setTimeout(resolve, SECONDS * 2000));
      loading = false;
      await done;
    });
    const stopped = performance.now();
    let caughtUpMs = Number.NaN;
    while (performance.now() - stopped < 60_000) {
      if ((await totalLag(metadata, lagCluster, streamIds)).records === 0) {
        caughtUpMs = performance.now() - stopped;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const worker = steady.runtime.worker.stats;
    await close(steady);
    const lagRecords = samples.map((sample) => sample.records);
    const perStreamMax = Math.max(0, ...samples.map((sample) => sample.max));
    const meanLag = lagRecords.reduce((sum, value) => sum + value, 0) / Math.max(1, lagRecords.length);
    table(
      `Materialization lag, OBJECT_WAL_ASYNC_OBJECT, ${String(STREAMS)} streams for ${String(SECONDS * 2)} s at ${(result.appends / result.seconds).toFixed(0)} appends/s (worker every 100 ms)`,
      ["metric", "value"],
      [
        ["lag records, mean over streams (sum)", meanLag.toFixed(0)],
        ["lag records, max over samples (sum)", String(Math.max(0, ...lagRecords))],
        ["lag records, max of one stream", String(perStreamMax)],
        [
          "lag seconds at the offered rate (mean sum / appends/s)",
          (meanLag / (result.appends / result.seconds)).toFixed(2),
        ],
        ["catch-up after load stops, ms", Number.isNaN(caughtUpMs) ? "> 60000" : caughtUpMs.toFixed(0)],
        [
          "generations published (level 1 / level 2)",
          `${String(worker.publishedByLevel.get(1) ?? 0)} / ${String(worker.publishedByLevel.get(2) ?? 0)}`,
        ],
        ["gen-0 index gaps repaired by the worker", String(worker.generationZeroGapsRepaired)],
      ],
    );
  } finally {
    const admin = new Etcd3({ hosts: services.etcd.endpoint });
    await admin
      .delete()
      .prefix(`/nereus/clusters/${cluster}`)
      .catch(() => undefined);
    await admin
      .delete()
      .prefix(`/nereus-bench/${runId}/`)
      .catch(() => undefined);
    admin.close();
    await deleteObjectsUnder(objectStore, "");
    await objectStore.close();
    await metadata.close();
    await owned?.stop();
  }
}

await main();
