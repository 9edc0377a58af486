import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, batchOf } from "../../test/broker-harness.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

describe("topic lookup", () => {
  test("a lookup that fails in storage is a storage error for Produce, Fetch and ListOffsets, never an unknown topic", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("flaky");
    await client.produce("flaky", 0, batchOf(["a", "b"]));
    // After a restart the topic is not cached: every request reads its record from metadata, and that read fails.
    await harness.restart();
    const again = harness.connect();
    harness.metadata.faults.add({ op: "get", mode: "fail-before-apply", times: Number.POSITIVE_INFINITY });
    expect(await again.produce("flaky", 0, batchOf(["c"]))).toMatchObject({
      errorCode: KafkaErrorCode.KAFKA_STORAGE_ERROR,
    });
    expect(await again.fetch("flaky", 0, 0)).toMatchObject({ errorCode: KafkaErrorCode.KAFKA_STORAGE_ERROR });
    expect(await again.listOffset("flaky", 0, -1)).toMatchObject({ errorCode: KafkaErrorCode.KAFKA_STORAGE_ERROR });
    harness.metadata.faults.clear();
    expect(harness.events.filter((event) => event.message === "topic lookup failed").length).toBeGreaterThanOrEqual(3);
    // Once storage answers, the same requests see the topic, and nothing was appended meanwhile.
    expect(await again.listOffset("flaky", 0, -1)).toMatchObject({ errorCode: 0, offset: 2 });
    expect(await again.fetch("flaky", 0, 0)).toMatchObject({ errorCode: 0, highWatermark: 2 });
  });

  test("an absent topic stays UNKNOWN_TOPIC_OR_PARTITION", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    expect(await client.listOffset("missing", 0, -1)).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    expect(await client.fetch("missing", 0, 0)).toMatchObject({ errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  });
});
