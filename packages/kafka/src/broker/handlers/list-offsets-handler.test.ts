import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, utf8 } from "../../../test/broker-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { encodeRecordBatch } from "../../protocol/records/encode-record-batch.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

const batchAt = (timestamps: readonly number[], compression = 0): Uint8Array =>
  encodeRecordBatch({
    baseTimestamp: timestamps[0] ?? 0,
    records: timestamps.map((timestamp) => ({
      value: utf8(`t${String(timestamp)}`),
      timestampDelta: timestamp - (timestamps[0] ?? 0),
    })),
    compression,
    compress: (_codec, data) => gzipSync(data),
  });

describe("ListOffsets", () => {
  test("earliest, latest and timestamps: the first record at or after the time, -1 when none", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("times");
    expect(await client.listOffset("times", 0, -2)).toMatchObject({ errorCode: 0, offset: 0 });
    expect(await client.listOffset("times", 0, -1)).toMatchObject({ errorCode: 0, offset: 0 });
    expect(await client.listOffset("times", 0, 1000)).toMatchObject({ errorCode: 0, offset: -1, timestamp: -1 });
    await client.produce("times", 0, batchAt([1000]));
    await client.produce("times", 0, batchAt([2000, 2100, 2200]));
    await client.produce("times", 0, batchAt([3000, 3500], 1));
    expect(await client.listOffset("times", 0, -2)).toMatchObject({ offset: 0, leaderEpoch: 0 });
    expect(await client.listOffset("times", 0, -1)).toMatchObject({ offset: 6 });
    expect(await client.listOffset("times", 0, 0)).toMatchObject({ offset: 0, timestamp: 1000 });
    expect(await client.listOffset("times", 0, 2050)).toMatchObject({ offset: 2, timestamp: 2100 });
    expect(await client.listOffset("times", 0, 2200)).toMatchObject({ offset: 3, timestamp: 2200 });
    expect(await client.listOffset("times", 0, 3200)).toMatchObject({ offset: 5, timestamp: 3500 });
    expect(await client.listOffset("times", 0, 3501)).toMatchObject({ offset: -1, timestamp: -1 });
    expect(await client.listOffset("times", 0, -3)).toMatchObject({ offset: 5, timestamp: 3500 });
    expect(await client.listOffset("times", 0, -5)).toMatchObject({ offset: -1 });
  });

  test("unknown topics and partitions, and leader epochs from the future, are errors", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("known");
    expect(await client.listOffset("unknown", 0, -1)).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    expect(await client.listOffset("known", 1, -1)).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    const future = await client.request(2, 5, {
      replicaId: -1,
      isolationLevel: 1,
      topics: [
        { name: "known", partitions: [{ partitionIndex: 0, currentLeaderEpoch: 3, timestamp: -1, maxNumOffsets: 1 }] },
      ],
      timeoutMs: 0,
    });
    expect(future.topics[0]?.partitions[0]?.errorCode).toBe(KafkaErrorCode.UNKNOWN_LEADER_EPOCH);
  });
});
