import { streamIdFromName } from "@nereus/core";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, type TestClient, batchOf } from "../../../test/broker-harness.js";
import type { DescribeLogDirsRequestTopic } from "../../protocol/apis/describe-log-dirs/describe-log-dirs-request.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { partitionStreamName } from "../../topics/kafka-topic.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function describeLogDirs(client: TestClient, topics: DescribeLogDirsRequestTopic[] | null, version = 4) {
  const response = await client.request(35, version, { topics });
  expect(response.results).toHaveLength(1);
  expect(response.errorCode).toBe(KafkaErrorCode.NONE);
  return response.results[0]!;
}

/** The sizes in a result, as "topic-partition" => bytes. */
function sizes(result: Awaited<ReturnType<typeof describeLogDirs>>): Record<string, number> {
  return Object.fromEntries(
    result.topics.flatMap((topic) =>
      topic.partitions.map((partition) => [
        `${topic.name}-${String(partition.partitionIndex)}`,
        partition.partitionSize,
      ]),
    ),
  );
}

describe("DescribeLogDirs", () => {
  test("reports every partition's stored bytes, minus the batches below the log start, and the volume's capacity", async () => {
    harness = new BrokerHarness({
      logDir: { path: "/data/nereus", capacity: async () => ({ totalBytes: 1_000, usableBytes: 400 }) },
    });
    const client = harness.connect();
    await client.createTopic("events", 2);
    await client.createTopic("empty");
    const first = batchOf(["a", "b"]);
    const second = batchOf(["c", "d", "e"]);
    const third = batchOf(["f"]);
    for (const batch of [first, second, third])
      expect(await client.produce("events", 0, batch)).toMatchObject({ errorCode: 0 });
    const all = await describeLogDirs(client, null);
    expect(all).toMatchObject({ errorCode: 0, logDir: "/data/nereus", totalBytes: 1_000, usableBytes: 400 });
    expect(sizes(all)).toEqual({
      "events-0": first.byteLength + second.byteLength + third.byteLength,
      "events-1": 0,
      "empty-0": 0,
    });
    for (const partition of all.topics.flatMap((topic) => topic.partitions))
      expect(partition).toMatchObject({ offsetLag: 0, isFutureKey: false });
    // The log start inside the second batch keeps that batch (as a segment holding the log start stays in Kafka).
    expect(
      await client.request(21, 2, {
        topics: [{ name: "events", partitions: [{ partitionIndex: 0, offset: 3 }] }],
        timeoutMs: 5000,
      }),
    ).toMatchObject({ topics: [{ partitions: [{ lowWatermark: 3, errorCode: 0 }] }] });
    expect(sizes(await describeLogDirs(client, [{ topic: "events", partitions: [0] }]))).toEqual({
      "events-0": second.byteLength + third.byteLength,
    });
    // Counted once, then recorded: a restart answers the same from the record.
    await harness.restart();
    const counts = harness.events.filter((event) => event.message === "counting the partition's size").length;
    expect(sizes(await describeLogDirs(harness.connect(), [{ topic: "events", partitions: [0] }]))).toEqual({
      "events-0": second.byteLength + third.byteLength,
    });
    expect(harness.events.filter((event) => event.message === "counting the partition's size").length).toBe(counts);
  });

  test("leaves out unknown topics and partitions, merges repeated topics, and answers v1-v3 without the capacity", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("known", 3);
    await client.produce("known", 2, batchOf(["x"]));
    const result = await describeLogDirs(client, [
      { topic: "missing", partitions: [0] },
      { topic: "known", partitions: [2, 7, -1] },
      { topic: "known", partitions: [0, 2] },
    ]);
    expect(result).toMatchObject({ errorCode: 0, logDir: "nereus://kafka-test", totalBytes: -1, usableBytes: -1 });
    expect(
      result.topics.map((topic) => [topic.name, topic.partitions.map((partition) => partition.partitionIndex)]),
    ).toEqual([["known", [2, 0]]]);
    expect(sizes(result)["known-0"]).toBe(0);
    expect(sizes(result)["known-2"]).toBeGreaterThan(0);
    expect((await describeLogDirs(client, [{ topic: "missing", partitions: [0] }])).topics).toEqual([]);
    for (const version of [1, 2, 3]) {
      expect(await describeLogDirs(client, [{ topic: "known", partitions: [2] }], version)).toMatchObject({
        errorCode: 0,
        topics: [{ name: "known" }],
        totalBytes: -1,
        usableBytes: -1,
      });
    }
    // Describing loads no partition (the produce above loaded one) and keeps none in memory for it.
    const metric = (name: string): number | undefined =>
      harness?.broker.metrics.collect().find((family) => family.name === name)?.samples[0]?.value;
    expect(metric("nereus_kafka_partition_loads_total")).toBe(1);
    expect(metric("nereus_kafka_partitions_open")).toBe(1);
  });

  test("leaves out a partition whose stream is gone (its topic being deleted)", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("going", 2);
    await client.produce("going", 1, batchOf(["a"]));
    const topic = await harness.broker.topics.lookup("going");
    await harness.store.delete(streamIdFromName(partitionStreamName(topic!.topicId, 0)));
    const result = await describeLogDirs(client, null);
    expect(result.errorCode).toBe(KafkaErrorCode.NONE);
    expect(sizes(result)).toEqual({ "going-1": batchOf(["a"]).byteLength });
    await harness.store.delete(streamIdFromName(partitionStreamName(topic!.topicId, 1)));
    expect((await describeLogDirs(client, [{ topic: "going", partitions: [0, 1] }])).topics).toEqual([]);
  });

  test("a storage failure answers the directory with KAFKA_STORAGE_ERROR; a capacity that cannot be read is -1", async () => {
    harness = new BrokerHarness({
      logDir: { path: "/data/nereus", capacity: () => Promise.reject(new Error("statfs failed")) },
    });
    const client = harness.connect();
    await client.createTopic("flaky");
    await client.produce("flaky", 0, batchOf(["a"]));
    expect(await describeLogDirs(client, null)).toMatchObject({
      errorCode: 0,
      logDir: "/data/nereus",
      totalBytes: -1,
      usableBytes: -1,
      topics: [{ name: "flaky" }],
    });
    expect(harness.events.filter((event) => event.level === "warn").map((event) => event.message)).toContain(
      "log directory capacity unreadable",
    );
    for (const op of ["get", "scan"] as const)
      harness.metadata.faults.add({ op, mode: "fail-before-apply", times: Number.POSITIVE_INFINITY });
    const response = await client.request(35, 4, { topics: null });
    harness.metadata.faults.clear();
    expect(response.errorCode).toBe(KafkaErrorCode.NONE);
    expect(response.results).toEqual([
      {
        errorCode: KafkaErrorCode.KAFKA_STORAGE_ERROR,
        logDir: "/data/nereus",
        topics: [],
        totalBytes: -1,
        usableBytes: -1,
      },
    ]);
    expect(harness.events.filter((event) => event.level === "warn").map((event) => event.message)).toContain(
      "describe log dirs failed",
    );
    expect(sizes(await describeLogDirs(client, null))).toEqual({ "flaky-0": batchOf(["a"]).byteLength });
  });
});
