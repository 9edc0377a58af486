import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness } from "../../../test/broker-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { RequestBody } from "../../protocol/supported-apis.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

const request = (names: readonly string[] | null, allowAutoTopicCreation = true): RequestBody<3> => ({
  topics: names === null ? null : names.map((name) => ({ topicId: "00000000-0000-0000-0000-000000000000", name })),
  allowAutoTopicCreation,
  includeClusterAuthorizedOperations: false,
  includeTopicAuthorizedOperations: false,
});

describe("Metadata", () => {
  test("one broker leading every partition, topic ids from v10", async () => {
    harness = new BrokerHarness({ clusterId: "cluster-x", advertisedHost: "broker.example", advertisedPort: 19092 });
    const client = harness.connect();
    const created = await client.createTopic("orders", 3);
    const response = await client.request(3, 12, request(["orders"]));
    expect(response).toMatchObject({
      brokers: [{ nodeId: 1, host: "broker.example", port: 19092, rack: null }],
      clusterId: "cluster-x",
      controllerId: 1,
    });
    expect(response.topics).toEqual([
      {
        errorCode: 0,
        name: "orders",
        topicId: created.topics[0]?.topicId,
        isInternal: false,
        partitions: [0, 1, 2].map((partitionIndex) => ({
          errorCode: 0,
          partitionIndex,
          leaderId: 1,
          leaderEpoch: 0,
          replicaNodes: [1],
          isrNodes: [1],
          offlineReplicas: [],
        })),
        topicAuthorizedOperations: -2147483648,
      },
    ]);
    const byId = await client.request(3, 12, {
      ...request([]),
      topics: [{ topicId: created.topics[0]?.topicId ?? "", name: null }],
    });
    expect(byId.topics[0]).toMatchObject({ name: "orders", errorCode: 0 });
    const unknownId = await client.request(3, 10, {
      ...request([]),
      topics: [{ topicId: "11111111-1111-4111-8111-111111111111", name: null }],
    });
    expect(unknownId.topics[0]).toMatchObject({ name: "", errorCode: KafkaErrorCode.UNKNOWN_TOPIC_ID });
  });

  test("auto-creates requested topics with the default partition count when broker and request allow it", async () => {
    harness = new BrokerHarness({ defaultPartitions: 4 });
    const client = harness.connect();
    const created = await client.request(3, 9, request(["auto"]));
    expect(created.topics[0]).toMatchObject({ errorCode: 0, name: "auto" });
    expect(created.topics[0]?.partitions).toHaveLength(4);
    const refused = await client.request(3, 9, request(["not-auto"], false));
    expect(refused.topics[0]).toMatchObject({ errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, partitions: [] });
    // Before v4 requests cannot opt out.
    expect((await client.request(3, 3, request(["old-client"]))).topics[0]?.errorCode).toBe(0);
    expect((await client.request(3, 9, request(["bad name"]))).topics[0]?.errorCode).toBe(
      KafkaErrorCode.INVALID_TOPIC_EXCEPTION,
    );
    expect((await client.request(3, 9, request(["a_uto"]))).topics[0]?.errorCode).toBe(0);
    expect((await client.request(3, 9, request(["a.uto"]))).topics[0]?.errorCode).toBe(
      KafkaErrorCode.INVALID_TOPIC_EXCEPTION,
    );
  });

  test("auto-creation can be switched off; null (v1+) and empty (v0) lists mean every topic", async () => {
    harness = new BrokerHarness({ autoCreateTopics: false });
    const client = harness.connect();
    expect((await client.request(3, 9, request(["nope"]))).topics[0]?.errorCode).toBe(
      KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    );
    await client.createTopic("b");
    await client.createTopic("a");
    expect((await client.request(3, 9, request(null))).topics.map((topic) => topic.name)).toEqual(["a", "b"]);
    expect((await client.request(3, 0, request([]))).topics.map((topic) => topic.name)).toEqual(["a", "b"]);
    expect((await client.request(3, 1, request([]))).topics).toEqual([]);
  });
});
