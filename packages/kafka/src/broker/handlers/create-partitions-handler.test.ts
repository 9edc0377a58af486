import { ErrorCode, NereusError, streamIdFromName } from "@nereus/core";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, type TestClient, batchOf } from "../../../test/broker-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { partitionStreamName } from "../../topics/kafka-topic.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

async function createPartitions(
  client: TestClient,
  name: string,
  count: number,
  options: { assignments?: number[][] | null; validateOnly?: boolean; version?: number } = {},
) {
  const response = await client.request(37, options.version ?? 3, {
    topics: [
      {
        name,
        count,
        assignments:
          options.assignments === undefined || options.assignments === null
            ? null
            : options.assignments.map((brokerIds) => ({ brokerIds })),
      },
    ],
    timeoutMs: 5000,
    validateOnly: options.validateOnly ?? false,
  });
  return response.results[0];
}

/** The partition indexes Metadata reports for `name`. */
async function partitions(client: TestClient, name: string): Promise<number[]> {
  const response = await client.request(3, 12, {
    topics: [{ topicId: "00000000-0000-0000-0000-000000000000", name }],
    allowAutoTopicCreation: false,
    includeClusterAuthorizedOperations: false,
    includeTopicAuthorizedOperations: false,
  });
  return (response.topics[0]?.partitions ?? []).map((partition) => partition.partitionIndex);
}

describe("CreatePartitions", () => {
  test("new partitions are empty and writable at once, the old ones keep their data, and the count survives a restart", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("growing", 2);
    await client.produce("growing", 0, batchOf(["a", "b"]));
    expect(await createPartitions(client, "growing", 4, { version: 0 })).toEqual({
      name: "growing",
      errorCode: 0,
      errorMessage: null,
    });
    expect(await partitions(client, "growing")).toEqual([0, 1, 2, 3]);
    expect(await client.listOffset("growing", 3, -1)).toMatchObject({ errorCode: 0, offset: 0 });
    expect(await client.produce("growing", 3, batchOf(["c"]))).toMatchObject({ errorCode: 0, baseOffset: 0 });
    expect(await client.produce("growing", 0, batchOf(["d"]))).toMatchObject({ errorCode: 0, baseOffset: 2 });
    // Assignments naming this broker (node 1) alone are accepted.
    expect(await createPartitions(client, "growing", 5, { assignments: [[1]] })).toMatchObject({ errorCode: 0 });
    await harness.restart();
    const again = harness.connect();
    expect(await partitions(again, "growing")).toEqual([0, 1, 2, 3, 4]);
    expect(await again.listOffset("growing", 3, -1)).toMatchObject({ offset: 1 });
    expect(await again.listOffset("growing", 0, -1)).toMatchObject({ offset: 3 });
  });

  test("refusals as Kafka's change nothing; validateOnly writes nothing", async () => {
    harness = new BrokerHarness({ maxPartitionsPerTopic: 8 });
    const client = harness.connect();
    await client.createTopic("fixed", 3);
    expect(await createPartitions(client, "fixed", 2)).toEqual({
      name: "fixed",
      errorCode: KafkaErrorCode.INVALID_PARTITIONS,
      errorMessage: "Topic currently has 3 partitions, which is higher than the requested 2.",
    });
    expect(await createPartitions(client, "fixed", 3)).toEqual({
      name: "fixed",
      errorCode: KafkaErrorCode.INVALID_PARTITIONS,
      errorMessage: "Topic already has 3 partitions.",
    });
    expect(await createPartitions(client, "fixed", 9)).toMatchObject({ errorCode: KafkaErrorCode.INVALID_PARTITIONS });
    expect(await createPartitions(client, "fixed", 5, { assignments: [[1]] })).toMatchObject({
      errorCode: KafkaErrorCode.INVALID_REPLICA_ASSIGNMENT,
    });
    expect(await createPartitions(client, "fixed", 4, { assignments: [[2]] })).toMatchObject({
      errorCode: KafkaErrorCode.INVALID_REPLICA_ASSIGNMENT,
    });
    expect(await createPartitions(client, "missing", 4)).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    expect(await createPartitions(client, "fixed", 6, { validateOnly: true })).toEqual({
      name: "fixed",
      errorCode: 0,
      errorMessage: null,
    });
    expect(await createPartitions(client, "fixed", 2, { validateOnly: true })).toMatchObject({
      errorCode: KafkaErrorCode.INVALID_PARTITIONS,
    });
    const duplicated = await client.request(37, 3, {
      topics: [
        { name: "fixed", count: 4, assignments: null },
        { name: "fixed", count: 5, assignments: null },
      ],
      timeoutMs: 5000,
      validateOnly: false,
    });
    expect(duplicated.results.map((result) => result.errorCode)).toEqual([
      KafkaErrorCode.INVALID_REQUEST,
      KafkaErrorCode.INVALID_REQUEST,
    ]);
    expect(await partitions(client, "fixed")).toEqual([0, 1, 2]);
  });

  test("streams an interrupted CreatePartitions left behind are reused by a retry and deleted with the topic", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    const created = await client.createTopic("interrupted", 1);
    const topicId = created.topics[0]?.topicId ?? "";
    const orphan = async (partition: number): Promise<void> => {
      await harness?.store.createStream(partitionStreamName(topicId, partition), {
        profile: "OBJECT_WAL_SYNC_OBJECT",
        attributes: { "kafka.partition": String(partition), "kafka.topic": "interrupted", "kafka.topic.id": topicId },
      });
    };
    // A crash after the streams of partitions 1 and 2 were created, before the record said so.
    await orphan(1);
    await orphan(2);
    expect(await createPartitions(client, "interrupted", 2)).toMatchObject({ errorCode: 0 });
    expect(await client.produce("interrupted", 1, batchOf(["x"]))).toMatchObject({ errorCode: 0, baseOffset: 0 });
    // Partition 2's stream is still above the count; deleting the topic deletes it too.
    const deleted = await client.request(20, 6, {
      topics: [{ name: "interrupted", topicId: "00000000-0000-0000-0000-000000000000" }],
      topicNames: [],
      timeoutMs: 5000,
    });
    expect(deleted.responses[0]?.errorCode).toBe(0);
    for (const partition of [0, 1, 2, 3]) {
      const head = await harness.store
        .getHead(streamIdFromName(partitionStreamName(topicId, partition)))
        .catch((error: unknown) => error);
      if (partition === 3) expect(NereusError.hasCode(head, ErrorCode.STREAM_NOT_FOUND)).toBe(true);
      else
        expect(
          NereusError.hasCode(head, ErrorCode.STREAM_NOT_FOUND) || (head as { state?: string }).state === "DELETED",
        ).toBe(true);
    }
  });
});
