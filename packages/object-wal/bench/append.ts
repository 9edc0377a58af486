// Object WAL writer cost on s3proxy, without the commit path (roots go to an in-memory metadata store; the full
// append path over etcd is benchmarked by tooling/acceptance/bench/object-wal-append.ts, because this package may
// not import the etcd metadata store). Invoked by run.ts:
//   - sequential persist latency of one 1 KiB append (linger 0) as a ratio to one raw create-only PUT of the same
//     object size;
//   - many streams persisting at once: persists/s, PUTs per flush, slices per PUT, PUTs per MiB of payload.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { crc32c, streamIdFromName } from "@nereus/core";
import { InMemoryMetadataStore, deleteObjectsUnder } from "@nereus/core/testing";
import { s3ClientOptions, type S3Description } from "@nereus/test-services";
import { crc32cToBase64 } from "../src/crc32c-base64.js";
import { encodeWalObject } from "../src/format/encode-wal-object.js";
import { createS3ObjectStore } from "../src/s3-object-store.js";
import { ObjectWalWriter } from "../src/writer/object-wal-writer.js";

const PAYLOAD = 1024;
const WARMUP = 20;
const ITERATIONS = 200;
const STREAMS = 256;
const ROUNDS = 20;

function p(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

async function timed(body: (index: number) => Promise<void>): Promise<number[]> {
  for (let index = 0; index < WARMUP; index++) await body(-1 - index);
  const samples: number[] = [];
  for (let index = 0; index < ITERATIONS; index++) {
    const started = performance.now();
    await body(index);
    samples.push(performance.now() - started);
  }
  return samples;
}

function request(stream: string, attempt: number) {
  return {
    streamId: streamIdFromName(stream),
    attemptId: `bench/${String(attempt)}`,
    writerId: "bench",
    writerEpoch: 1,
    expectedStartOffset: 0,
    payloadFormat: "OPAQUE_RECORD_BATCH" as const,
    entries: [{ payload: randomBytes(PAYLOAD), recordCount: 1 }],
  };
}

/** Runs the writer benchmark against `s3` under `prefix` and prints its tables. Cleans up its objects. */
export async function runAppendBench(s3: S3Description, prefix: string): Promise<void> {
  const objectSize = encodeWalObject({
    writerId: "bench",
    attemptKey: "wo-bench-0000000000000000001",
    createdAtMillis: Date.now(),
    slices: [
      {
        streamId: streamIdFromName("s"),
        firstExpectedOffset: 0,
        entries: [{ recordCount: 1, payload: new Uint8Array(PAYLOAD) }],
      },
    ],
  }).bytes.length;
  const client = new S3Client({
    ...s3ClientOptions(s3),
    maxAttempts: 1,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const raw = await timed(async (index) => {
    const body = randomBytes(objectSize);
    await client.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: `${prefix}raw-append/${String(index)}`,
        Body: body,
        ContentLength: body.length,
        IfNoneMatch: "*",
        ChecksumCRC32C: crc32cToBase64(crc32c(body)),
      }),
    );
  });
  client.destroy();

  const objectStore = await createS3ObjectStore({
    ...s3ClientOptions(s3),
    keyPrefix: `${prefix}writer/`,
  });
  const metadata = new InMemoryMetadataStore();
  try {
    const sequentialWriter = new ObjectWalWriter({
      objectStore,
      metadata,
      cluster: "bench",
      writerId: "bench",
      flush: { lingerMs: 0 },
    });
    let attempt = 0;
    const sequential = await timed(async () => {
      await sequentialWriter.persist(sequentialWriter.prepare(request("sequential", attempt++)));
    });
    await sequentialWriter.close();

    const writer = new ObjectWalWriter({ objectStore, metadata, cluster: "bench", writerId: "bench" });
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(
        Array.from({ length: STREAMS }, (_, index) =>
          writer.persist(writer.prepare(request(`stream-${String(index)}`, attempt++))),
        ),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    await writer.close();
    const stats = writer.stats;
    const payloadMiB = (STREAMS * ROUNDS * PAYLOAD) / (1024 * 1024);
    console.log(`\nObject WAL writer (persist = encode + root + one create-only PUT), ${String(PAYLOAD)} B appends`);
    console.log(
      `  raw PUT of ${String(objectSize)} B: p50 ${p(raw, 0.5).toFixed(2)} ms, p99 ${p(raw, 0.99).toFixed(2)} ms`,
    );
    console.log(
      `  sequential persist (linger 0): p50 ${p(sequential, 0.5).toFixed(2)} ms (${(p(sequential, 0.5) / p(raw, 0.5)).toFixed(2)}x raw), ` +
        `p99 ${p(sequential, 0.99).toFixed(2)} ms (${(p(sequential, 0.99) / p(raw, 0.99)).toFixed(2)}x raw)`,
    );
    console.log(
      `  ${String(STREAMS)} streams x ${String(ROUNDS)} rounds (linger 5 ms): ${((STREAMS * ROUNDS) / seconds).toFixed(0)} persists/s, ` +
        `${String(stats.objects)} objects, PUTs per flush ${(stats.puts / stats.objects).toFixed(2)}, slices per PUT ${(stats.slices / stats.objects).toFixed(1)}, ` +
        `${(stats.puts / payloadMiB).toFixed(2)} PUTs/MiB, ${(stats.puts / seconds).toFixed(1)} PUTs/s`,
    );
  } finally {
    await deleteObjectsUnder(objectStore, "");
    await objectStore.close();
    await metadata.close();
    const cleanup = await createS3ObjectStore(s3ClientOptions(s3));
    await cleanup.deleteMany(
      Array.from({ length: WARMUP + ITERATIONS }, (_, index) => `${prefix}raw-append/${String(index - WARMUP)}`),
    );
    await cleanup.close();
  }
}
