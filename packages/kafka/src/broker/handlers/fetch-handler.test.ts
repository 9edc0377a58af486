import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, batchOf, fetchBody } from "../../../test/broker-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { decodeRecordBatch } from "../../protocol/records/decode-record-batch.js";
import { splitRecordBatches } from "../../protocol/records/split-record-batches.js";
import { partitionStreamName } from "../../topics/kafka-topic.js";
import { streamIdFromName } from "@nereus/core";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

function open(options: ConstructorParameters<typeof BrokerHarness>[0] = {}): BrokerHarness {
  harness = new BrokerHarness(options);
  return harness;
}

const baseOffsets = (records: Uint8Array | null | undefined): number[] =>
  splitRecordBatches(records ?? new Uint8Array()).batches.map((batch) => decodeRecordBatch(batch).header.baseOffset);

describe("Fetch", () => {
  test("a fetch offset inside a batch returns that whole batch; the end of the log is empty; beyond it is out of range", async () => {
    const client = open().connect();
    await client.createTopic("t");
    await client.produce("t", 0, batchOf(["a", "b", "c"]));
    await client.produce("t", 0, batchOf(["d"]));
    expect(baseOffsets((await client.fetch("t", 0, 1))?.records)).toEqual([0, 3]);
    expect(baseOffsets((await client.fetch("t", 0, 3))?.records)).toEqual([3]);
    expect(await client.fetch("t", 0, 4)).toMatchObject({ errorCode: 0, highWatermark: 4, records: new Uint8Array() });
    expect(await client.fetch("t", 0, 5)).toMatchObject({ errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE, highWatermark: 4, logStartOffset: 0 });
    expect(await client.fetch("missing", 0, 0, { maxWaitMs: 10_000 })).toMatchObject({ errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
    expect(await client.fetch("t", 1, 0)).toMatchObject({ errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  });

  test("offsets below the log start (the trim offset) are out of range", async () => {
    const broker = open();
    const client = broker.connect();
    const created = await client.createTopic("trimmed");
    for (let index = 0; index < 3; index += 1) await client.produce("trimmed", 0, batchOf(["x", "y"]));
    const topicId = created.topics[0]?.topicId ?? "";
    await broker.store.trim(streamIdFromName(partitionStreamName(topicId, 0)), 2);
    await broker.restart();
    const again = broker.connect();
    expect(await again.fetch("trimmed", 0, 0)).toMatchObject({ errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE, logStartOffset: 2, highWatermark: 6 });
    expect(baseOffsets((await again.fetch("trimmed", 0, 2))?.records)).toEqual([2, 4]);
    expect(await again.listOffset("trimmed", 0, -2)).toMatchObject({ offset: 2 });
  });

  test("byte limits: whole batches only, at least one batch, response budget across partitions", async () => {
    const client = open().connect();
    await client.createTopic("big", 2);
    const large = batchOf(["x".repeat(2000)]);
    for (let index = 0; index < 3; index += 1) {
      await client.produce("big", 0, large);
      await client.produce("big", 1, large);
    }
    const size = large.length;
    // A per-partition limit below one batch still returns one whole batch for the first partition.
    expect(baseOffsets((await client.fetch("big", 0, 0, { partitionMaxBytes: 10 }))?.records)).toEqual([0]);
    // Two batches fit, the third does not.
    expect(baseOffsets((await client.fetch("big", 0, 0, { partitionMaxBytes: size * 2 + 10 }))?.records)).toEqual([0, 1]);
    // The response budget: the first partition takes it all; the second returns nothing (no error).
    const both = await client.request(1, 11, fetchBody([
      { topic: "big", partition: 0, offset: 0, partitionMaxBytes: 1_000_000 },
      { topic: "big", partition: 1, offset: 0, partitionMaxBytes: 1_000_000 },
    ], { maxBytes: size + 1 }));
    const [first, second] = both.responses[0]?.partitions ?? [];
    expect(baseOffsets(first?.records)).toEqual([0]);
    expect(second).toMatchObject({ errorCode: 0, highWatermark: 3, records: new Uint8Array() });
    // A budget of less than one batch still returns the first batch of the first non-empty partition.
    const tiny = await client.request(1, 11, fetchBody([
      { topic: "big", partition: 0, offset: 3, partitionMaxBytes: 1_000_000 },
      { topic: "big", partition: 1, offset: 0, partitionMaxBytes: 1_000_000 },
    ], { maxBytes: 1 }));
    expect(tiny.responses[0]?.partitions.map((partition) => baseOffsets(partition.records))).toEqual([[], [0]]);
  });

  test("a long poll at the log end wakes when a batch is appended", async () => {
    const client = open({ maxFetchWaitMs: 60_000 }).connect();
    const producer = harness?.connect();
    await client.createTopic("poll");
    const poll = client.fetch("poll", 0, 0, { maxWaitMs: 60_000, minBytes: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    await producer?.produce("poll", 0, batchOf(["wake"]));
    const fetched = await poll;
    expect(baseOffsets(fetched?.records)).toEqual([0]);
    expect(fetched?.highWatermark).toBe(1);
  });

  test("minBytes: waits until enough bytes are there or maxWaitMs passes", async () => {
    const client = open({ maxFetchWaitMs: 60_000 }).connect();
    const producer = harness?.connect();
    await client.createTopic("min");
    const small = batchOf(["s"]);
    const poll = client.fetch("min", 0, 0, { maxWaitMs: 60_000, minBytes: small.length * 2 + 1 });
    await producer?.produce("min", 0, small);
    await producer?.produce("min", 0, small);
    await producer?.produce("min", 0, small);
    expect(baseOffsets((await poll)?.records)).toEqual([0, 1, 2]);
    const started = Date.now();
    expect(await client.fetch("min", 0, 3, { maxWaitMs: 30, minBytes: 1 })).toMatchObject({ errorCode: 0, records: new Uint8Array() });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  test("read_committed sees the high watermark as last stable offset and an empty aborted list; sessions are not kept", async () => {
    const client = open().connect();
    await client.createTopic("rc");
    await client.produce("rc", 0, batchOf(["a"]));
    expect(await client.fetch("rc", 0, 0, { isolationLevel: 1 })).toMatchObject({ highWatermark: 1, lastStableOffset: 1, abortedTransactions: [] });
    expect(await client.fetch("rc", 0, 0, { isolationLevel: 0 })).toMatchObject({ abortedTransactions: null });
    const session = await client.request(1, 11, { ...fetchBody([{ topic: "rc", partition: 0, offset: 0 }]), sessionId: 42, sessionEpoch: 3 });
    expect(session).toMatchObject({ errorCode: KafkaErrorCode.FETCH_SESSION_ID_NOT_FOUND, responses: [] });
    const full = await client.request(1, 11, { ...fetchBody([{ topic: "rc", partition: 0, offset: 0 }]), sessionEpoch: 0 });
    expect(full).toMatchObject({ errorCode: 0, sessionId: 0 });
  });
});
