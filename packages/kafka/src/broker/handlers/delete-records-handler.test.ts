import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, type TestClient, batchOf } from "../../../test/broker-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

/** DeleteRecords for one partition; resolves with that partition's result. */
async function deleteRecords(client: TestClient, topic: string, partition: number, offset: number, version = 2) {
  const response = await client.request(21, version, {
    topics: [{ name: topic, partitions: [{ partitionIndex: partition, offset }] }],
    timeoutMs: 5000,
  });
  expect(response.topics.map((result) => result.name)).toEqual([topic]);
  return response.topics[0]?.partitions[0];
}

describe("DeleteRecords", () => {
  test("raises the log start that ListOffsets, Fetch and Produce report, inside a batch too, and never lowers it", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("events", 2);
    await client.produce("events", 0, batchOf(["a", "b"]));
    await client.produce("events", 0, batchOf(["c", "d", "e"]));
    expect(await deleteRecords(client, "events", 0, 3, 0)).toEqual({
      partitionIndex: 0,
      lowWatermark: 3,
      errorCode: 0,
    });
    expect(await client.listOffset("events", 0, -2)).toMatchObject({ errorCode: 0, offset: 3 });
    expect(await client.fetch("events", 0, 2)).toMatchObject({
      errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE,
      logStartOffset: 3,
      highWatermark: 5,
    });
    // The batch holding offset 3 starts at 2: a fetch from the log start returns it whole, as Kafka does.
    const fetched = await client.fetch("events", 0, 3);
    expect(fetched).toMatchObject({ errorCode: 0, logStartOffset: 3, highWatermark: 5 });
    expect(fetched?.records?.length).toBeGreaterThan(0);
    expect(await deleteRecords(client, "events", 0, 1, 1)).toEqual({
      partitionIndex: 0,
      lowWatermark: 3,
      errorCode: 0,
    });
    expect(await client.produce("events", 0, batchOf(["f"]))).toMatchObject({
      errorCode: 0,
      baseOffset: 5,
      logStartOffset: 3,
    });
    expect(await deleteRecords(client, "events", 0, -1)).toEqual({ partitionIndex: 0, lowWatermark: 6, errorCode: 0 });
    expect(await client.listOffset("events", 0, -2)).toMatchObject({ offset: 6 });
    expect(await client.listOffset("events", 0, -1)).toMatchObject({ offset: 6 });
    expect(await deleteRecords(client, "events", 1, -1)).toEqual({ partitionIndex: 1, lowWatermark: 0, errorCode: 0 });
  });

  test("out-of-range offsets, unknown topics and partitions, and compacted topics are refused and change nothing", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("known");
    await client.createTopic("compacted", 1, { "cleanup.policy": "compact" });
    await client.createTopic("both", 1, { "cleanup.policy": "compact,delete" });
    await client.produce("known", 0, batchOf(["a", "b"]));
    await client.produce("both", 0, batchOf(["a", "b"]));
    expect(await deleteRecords(client, "known", 0, 3)).toEqual({
      partitionIndex: 0,
      lowWatermark: -1,
      errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE,
    });
    expect(await deleteRecords(client, "known", 0, -2)).toEqual({
      partitionIndex: 0,
      lowWatermark: -1,
      errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE,
    });
    expect(await deleteRecords(client, "known", 1, 0)).toEqual({
      partitionIndex: 1,
      lowWatermark: -1,
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    expect(await deleteRecords(client, "missing", 0, 0)).toEqual({
      partitionIndex: 0,
      lowWatermark: -1,
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    expect(await deleteRecords(client, "compacted", 0, 0)).toEqual({
      partitionIndex: 0,
      lowWatermark: -1,
      errorCode: KafkaErrorCode.POLICY_VIOLATION,
    });
    expect(await deleteRecords(client, "both", 0, 1)).toEqual({ partitionIndex: 0, lowWatermark: 1, errorCode: 0 });
    expect(await client.listOffset("known", 0, -2)).toMatchObject({ offset: 0 });
    expect(await client.fetch("known", 0, 0)).toMatchObject({ errorCode: 0, logStartOffset: 0 });
  });

  test("a storage failure is a retriable error, not an unknown topic, and deletes nothing", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("flaky");
    await client.produce("flaky", 0, batchOf(["a", "b", "c"]));
    // The trim's head transaction fails before it applies.
    harness.metadata.faults.add({ op: "txn", mode: "fail-before-apply" });
    const failed = await deleteRecords(client, "flaky", 0, 2);
    expect(failed).toMatchObject({ partitionIndex: 0, lowWatermark: -1 });
    expect(failed?.errorCode).toBe(KafkaErrorCode.KAFKA_STORAGE_ERROR);
    expect(await client.listOffset("flaky", 0, -2)).toMatchObject({ offset: 0 });
    // A topic this broker has not seen is looked up in metadata: that read fails.
    await harness.restart();
    const again = harness.connect();
    harness.metadata.faults.add({ op: "get", mode: "fail-before-apply", times: Number.POSITIVE_INFINITY });
    const unseen = await deleteRecords(again, "flaky", 0, 2);
    harness.metadata.faults.clear();
    expect(unseen?.errorCode).toBe(KafkaErrorCode.KAFKA_STORAGE_ERROR);
    expect(harness.events.filter((event) => event.level === "warn").map((event) => event.message)).toContain(
      "topic lookup failed",
    );
  });

  test("the log start survives a restart", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("kept");
    await client.produce("kept", 0, batchOf(["a", "b", "c"]));
    expect(await deleteRecords(client, "kept", 0, 2)).toMatchObject({ lowWatermark: 2, errorCode: 0 });
    await harness.restart();
    const again = harness.connect();
    expect(await again.listOffset("kept", 0, -2)).toMatchObject({ offset: 2 });
    expect(await again.fetch("kept", 0, 1)).toMatchObject({
      errorCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE,
      logStartOffset: 2,
      highWatermark: 3,
    });
    expect(await deleteRecords(again, "kept", 0, 1)).toEqual({ partitionIndex: 0, lowWatermark: 2, errorCode: 0 });
  });
});
