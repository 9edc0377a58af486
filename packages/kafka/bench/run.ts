// Codec benchmark (`pnpm bench`): the per-request costs of the Kafka hot paths, each printed as a ratio against a
// baseline measured in the same process on the same bytes: decoding a Produce request and validating its batch
// (against copying the frame and computing the bare CRC-32C), and encoding a Fetch response (against copying the
// served batches). Not a timed test: numbers are for humans comparing runs.
import { crc32c } from "@nereus/core";
import { performance } from "node:perf_hooks";
import { decodeRequest } from "../src/protocol/decode-request.js";
import { encodeRequest } from "../src/protocol/encode-request.js";
import { encodeResponse } from "../src/protocol/encode-response.js";
import { assignBaseOffset } from "../src/protocol/records/assign-base-offset.js";
import { encodeRecordBatch } from "../src/protocol/records/encode-record-batch.js";
import { validateRecordBatch } from "../src/protocol/records/validate-record-batch.js";

function measure(name: string, iterations: number, run: () => unknown): number {
  for (let index = 0; index < Math.min(5000, iterations); index += 1) run();
  const start = performance.now();
  for (let index = 0; index < iterations; index += 1) run();
  const perOp = ((performance.now() - start) * 1000) / iterations;
  console.log(`${name.padEnd(58)} ${perOp.toFixed(2).padStart(9)} µs/op`);
  return perOp;
}

const value = new Uint8Array(1024).fill(7);
const batch = encodeRecordBatch({
  baseTimestamp: Date.now(),
  records: Array.from({ length: 16 }, () => ({ key: null, value })),
});
const frame = encodeRequest(
  { apiKey: 0, apiVersion: 9, correlationId: 1, clientId: "bench" },
  {
    transactionalId: null,
    acks: -1,
    timeoutMs: 30_000,
    topicData: [{ name: "bench", partitionData: [{ index: 0, records: batch }] }],
  },
).subarray(4);

console.log(`Produce v9 frame of ${String(frame.length)} bytes (one batch of 16 × 1 KiB records)`);
const copy = measure("baseline: copy the frame", 20_000, () => frame.slice());
const decode = measure("decodeRequest (header + body, records as a view)", 20_000, () => decodeRequest(frame));
const bareCrc = measure("baseline: CRC-32C over the batch", 20_000, () => crc32c(batch.subarray(21)));
const validate = measure("validateRecordBatch (header checks + CRC-32C)", 20_000, () =>
  validateRecordBatch(batch, { producer: true }),
);
console.log(`ratios: decode/copy ${(decode / copy).toFixed(2)}, validate/crc ${(validate / bareCrc).toFixed(2)}`);

const served = Array.from({ length: 8 }, (_, index) => assignBaseOffset(batch, index * 16));
const blob = new Uint8Array(served.reduce((sum, item) => sum + item.length, 0));
const fetchBody = {
  throttleTimeMs: 0,
  errorCode: 0,
  sessionId: 0,
  responses: [
    {
      topic: "bench",
      topicId: "00000000-0000-0000-0000-000000000000",
      partitions: [
        {
          partitionIndex: 0,
          errorCode: 0,
          highWatermark: 128,
          lastStableOffset: 128,
          logStartOffset: 0,
          divergingEpoch: { epoch: -1, endOffset: -1 },
          currentLeader: { leaderId: -1, leaderEpoch: -1 },
          snapshotId: { endOffset: -1, epoch: -1 },
          abortedTransactions: [],
          preferredReadReplica: -1,
          records: blob,
        },
      ],
    },
  ],
  nodeEndpoints: [],
};
console.log(`Fetch v12 response serving ${String(blob.length)} bytes (8 batches)`);
const concat = measure("baseline: concatenate the served batches", 5_000, () => {
  const out = new Uint8Array(blob.length);
  let at = 0;
  for (const item of served) {
    out.set(item, at);
    at += item.length;
  }
  return out;
});
const encode = measure("encodeResponse (Fetch v12, records copied into the frame)", 5_000, () =>
  encodeResponse({ apiKey: 1, apiVersion: 12, correlationId: 1 }, fetchBody),
);
console.log(`ratio: encode/concat ${(encode / concat).toFixed(2)}`);
