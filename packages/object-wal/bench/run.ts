// Create-only PUT cost: 200 sequential 64 KiB PUTs to fresh keys (after 20 warm-up PUTs) through the raw
// @aws-sdk/client-s3 PutObject with If-None-Match: * and CRC32C (baseline), S3ObjectStore.putIfAbsent (same
// server), FileSystemObjectStore (temp directory) and InMemoryObjectStore. Prints p50/p99/mean, MB/s and each p50
// as a ratio of the raw SDK baseline, for later baselines of the object WAL. Uses the shared services when
// NEREUS_SERVICES_FILE is set, otherwise starts s3proxy through @nereus/test-services and stops it at the end.
// Then runs the Object WAL writer benchmark (append.ts).
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { crc32c, type ObjectStore } from "@nereus/core";
import { InMemoryObjectStore } from "@nereus/core/testing";
import {
  SERVICES_FILE_ENV,
  loadServices,
  s3ClientOptions,
  startServices,
  type RunningServices,
  type S3Description,
} from "@nereus/test-services";
import { crc32cToBase64 } from "../src/crc32c-base64.js";
import { createFileSystemObjectStore } from "../src/file-system/file-system-object-store.js";
import { createS3ObjectStore } from "../src/s3-object-store.js";
import { runAppendBench } from "./append.js";

const WARMUP = 20;
const ITERATIONS = 200;
const BODY_BYTES = 64 * 1024;

interface Result {
  readonly name: string;
  readonly samplesMs: readonly number[];
  readonly wallMs: number;
}

async function measure(name: string, put: (index: number) => Promise<void>): Promise<Result> {
  for (let index = 0; index < WARMUP; index++) await put(-1 - index);
  const samplesMs: number[] = [];
  const wallStart = performance.now();
  for (let index = 0; index < ITERATIONS; index++) {
    const started = performance.now();
    await put(index);
    samplesMs.push(performance.now() - started);
  }
  return { name, samplesMs, wallMs: performance.now() - wallStart };
}

function bodies(): Uint8Array[] {
  return Array.from({ length: WARMUP + ITERATIONS }, () => randomBytes(BODY_BYTES));
}

async function storePuts(name: string, store: ObjectStore, prefix: string): Promise<Result> {
  const data = bodies();
  try {
    return await measure(name, async (index) => {
      const result = await store.putIfAbsent(`${prefix}${String(index)}`, data[index + WARMUP] ?? new Uint8Array(0));
      if (!result.created) throw new Error(`${name}: key ${String(index)} already existed`);
    });
  } finally {
    const keys = Array.from({ length: WARMUP + ITERATIONS }, (_, index) => `${prefix}${String(index - WARMUP)}`);
    await store.deleteMany(keys);
    await store.close();
  }
}

async function rawSdkPuts(s3: S3Description, prefix: string): Promise<Result> {
  const client = new S3Client({
    ...s3ClientOptions(s3),
    maxAttempts: 1,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const data = bodies();
  try {
    return await measure("raw SDK PutObject If-None-Match (baseline)", async (index) => {
      const body = data[index + WARMUP] ?? new Uint8Array(0);
      await client.send(
        new PutObjectCommand({
          Bucket: s3.bucket,
          Key: `${prefix}${String(index)}`,
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

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

function printTable(results: readonly Result[]): void {
  const baseline = percentile(
    [...(results[0]?.samplesMs ?? [])].sort((left, right) => left - right),
    0.5,
  );
  const rows = results.map((result) => {
    const sorted = [...result.samplesMs].sort((left, right) => left - right);
    const mean = sorted.reduce((sum, sample) => sum + sample, 0) / sorted.length;
    const p50 = percentile(sorted, 0.5);
    const megabytesPerSecond = (ITERATIONS * BODY_BYTES) / (1024 * 1024) / (result.wallMs / 1000);
    return [
      result.name,
      p50.toFixed(2),
      percentile(sorted, 0.99).toFixed(2),
      mean.toFixed(2),
      megabytesPerSecond.toFixed(1),
      `${(p50 / baseline).toFixed(2)}x`,
    ];
  });
  const header = ["store", "p50 ms", "p99 ms", "mean ms", "MB/s", "p50 vs baseline"];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join("  ");
  console.log(
    `\n${String(ITERATIONS)} sequential ${String(BODY_BYTES / 1024)} KiB create-only PUTs to fresh keys (after ${String(WARMUP)} warm-up)`,
  );
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  let owned: RunningServices | undefined;
  if (process.env[SERVICES_FILE_ENV] === undefined || process.env[SERVICES_FILE_ENV] === "") {
    owned = await startServices({ s3: true, log: (line) => process.stderr.write(`[nereus-services] ${line}\n`) });
  }
  const root = await mkdtemp(path.join(tmpdir(), "nereus-object-wal-bench-"));
  try {
    const s3 = (owned ?? loadServices()).s3;
    const run = `object-wal-bench/${randomUUID()}/`;
    const results: Result[] = [];
    results.push(await rawSdkPuts(s3, `${run}raw/`));
    results.push(
      await storePuts(
        "S3ObjectStore.putIfAbsent",
        await createS3ObjectStore({
          ...s3ClientOptions(s3),
          keyPrefix: run,
        }),
        "store/",
      ),
    );
    results.push(
      await storePuts("FileSystemObjectStore (fsync, temp dir)", createFileSystemObjectStore({ root }), "fs/"),
    );
    results.push(await storePuts("InMemoryObjectStore", new InMemoryObjectStore(), "mem/"));
    printTable(results);
    await runAppendBench(s3, run);
    const cleanup = await createS3ObjectStore({
      ...s3ClientOptions(s3),
    });
    await cleanup.deleteMany(
      Array.from({ length: WARMUP + ITERATIONS }, (_, index) => `${run}raw/${String(index - WARMUP)}`),
    );
    await cleanup.close();
  } finally {
    await rm(root, { recursive: true, force: true });
    await owned?.stop();
  }
}

await main();
