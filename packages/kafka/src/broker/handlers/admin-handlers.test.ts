import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, batchOf, createTopicsBody } from "../../../test/broker-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { STORAGE_PROFILE_CONFIG } from "../../topics/topic-configs.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

describe("CreateTopics", () => {
  test("creates topics with their configs and storage profile, reported back in v5+", async () => {
    harness = new BrokerHarness({ defaultProfile: "OBJECT_WAL_ASYNC_OBJECT" });
    const client = harness.connect();
    const response = await client.request(
      19,
      7,
      createTopicsBody([
        { name: "plain", partitions: 2 },
        { name: "pinned", partitions: 1, configs: { [STORAGE_PROFILE_CONFIG]: "OBJECT_WAL", "retention.ms": "1000" } },
      ]),
    );
    const [plain, pinned] = response.topics;
    expect(plain).toMatchObject({ name: "plain", errorCode: 0, numPartitions: 2, replicationFactor: 1 });
    expect(plain?.topicId).not.toBe("00000000-0000-0000-0000-000000000000");
    expect(plain?.configs?.find((config) => config.name === STORAGE_PROFILE_CONFIG)?.value).toBe(
      "OBJECT_WAL_ASYNC_OBJECT",
    );
    expect(pinned?.configs?.find((config) => config.name === STORAGE_PROFILE_CONFIG)).toMatchObject({
      value: "OBJECT_WAL_SYNC_OBJECT",
      readOnly: true,
    });
    expect(pinned?.configs?.find((config) => config.name === "retention.ms")).toMatchObject({
      value: "1000",
      configSource: 1,
    });
    expect(await client.produce("pinned", 0, batchOf(["x"]))).toMatchObject({ errorCode: 0 });
    const described = await client.request(32, 4, {
      resources: [
        {
          resourceType: 2,
          resourceName: "pinned",
          configurationKeys: [STORAGE_PROFILE_CONFIG, "retention.ms", "cleanup.policy"],
        },
      ],
      includeSynonyms: true,
      includeDocumentation: false,
    });
    expect(
      described.results[0]?.configs.map((config) => [config.name, config.value, config.configSource, config.readOnly]),
    ).toEqual([
      ["cleanup.policy", "delete", 5, false],
      ["retention.ms", "1000", 1, false],
      [STORAGE_PROFILE_CONFIG, "OBJECT_WAL_SYNC_OBJECT", 1, true],
    ]);
  });

  test("validates like Kafka", async () => {
    harness = new BrokerHarness({ maxPartitionsPerTopic: 100 });
    const client = harness.connect();
    await client.createTopic("exists");
    const response = await client.request(
      19,
      5,
      createTopicsBody([
        { name: "exists" },
        { name: "bad/name" },
        { name: "dup" },
        { name: "dup" },
        { name: "zero", partitions: 0 },
        { name: "huge", partitions: 101 },
        { name: "replicated", replicationFactor: 3 },
        { name: "unknown-config", configs: { "retention.forever": "1" } },
        { name: "bad-value", configs: { "retention.ms": "soon" } },
        { name: "bad-profile", configs: { [STORAGE_PROFILE_CONFIG]: "FASTEST" } },
        { name: "unrunnable", configs: { [STORAGE_PROFILE_CONFIG]: "BOOKKEEPER_WAL_ONLY" } },
        { name: "compressing", configs: { "compression.type": "zstd" } },
      ]),
    );
    expect(response.topics.map((topic) => [topic.name, topic.errorCode])).toEqual([
      ["exists", KafkaErrorCode.TOPIC_ALREADY_EXISTS],
      ["bad/name", KafkaErrorCode.INVALID_TOPIC_EXCEPTION],
      ["dup", KafkaErrorCode.INVALID_REQUEST],
      ["dup", KafkaErrorCode.INVALID_REQUEST],
      ["zero", KafkaErrorCode.INVALID_PARTITIONS],
      ["huge", KafkaErrorCode.INVALID_PARTITIONS],
      ["replicated", KafkaErrorCode.INVALID_REPLICATION_FACTOR],
      ["unknown-config", KafkaErrorCode.INVALID_CONFIG],
      ["bad-value", KafkaErrorCode.INVALID_CONFIG],
      ["bad-profile", KafkaErrorCode.INVALID_CONFIG],
      ["unrunnable", KafkaErrorCode.INVALID_CONFIG],
      ["compressing", KafkaErrorCode.INVALID_CONFIG],
    ]);
    expect(response.topics[7]?.errorMessage).toBe("Unknown topic config name: retention.forever");
    const listed = await client.request(3, 9, {
      topics: null,
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
    expect(listed.topics.map((topic) => topic.name)).toEqual(["exists"]);
  });

  test("manual assignments onto this node; validate_only creates nothing", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    const assigned = await client.request(19, 4, {
      topics: [
        {
          name: "assigned",
          numPartitions: -1,
          replicationFactor: -1,
          assignments: [
            { partitionIndex: 1, brokerIds: [1] },
            { partitionIndex: 0, brokerIds: [1] },
          ],
          configs: [],
        },
        {
          name: "elsewhere",
          numPartitions: -1,
          replicationFactor: -1,
          assignments: [{ partitionIndex: 0, brokerIds: [2] }],
          configs: [],
        },
      ],
      timeoutMs: 1000,
      validateOnly: false,
    });
    expect(assigned.topics.map((topic) => topic.errorCode)).toEqual([0, KafkaErrorCode.INVALID_REPLICA_ASSIGNMENT]);
    const dryRun = await client.request(
      19,
      7,
      createTopicsBody([{ name: "dry", partitions: 3 }, { name: "assigned" }], true),
    );
    expect(dryRun.topics.map((topic) => [topic.errorCode, topic.numPartitions])).toEqual([
      [0, 3],
      [KafkaErrorCode.TOPIC_ALREADY_EXISTS, -1],
    ]);
    expect(await client.produce("dry", 0, batchOf(["x"]))).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
  });
});

describe("DeleteTopics", () => {
  test("deletes by name (and by id in v6); the data is gone and the name can be reused", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    const created = await client.createTopic("doomed", 2);
    const topicId = created.topics[0]?.topicId ?? "";
    await client.produce("doomed", 0, batchOf(["a"]));
    const deleted = await client.request(20, 5, { topics: [], topicNames: ["doomed", "never-was"], timeoutMs: 1000 });
    expect(deleted.responses.map((topic) => [topic.name, topic.errorCode])).toEqual([
      ["doomed", 0],
      ["never-was", KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
    ]);
    expect(await client.fetch("doomed", 0, 0)).toMatchObject({ errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
    await client.createTopic("doomed", 1);
    expect(await client.fetch("doomed", 0, 0)).toMatchObject({ errorCode: 0, highWatermark: 0 });
    const recreated = await client.request(3, 12, {
      topics: [{ topicId: "00000000-0000-0000-0000-000000000000", name: "doomed" }],
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
    const newId = recreated.topics[0]?.topicId ?? "";
    expect(newId).not.toBe(topicId);
    const byId = await client.request(20, 6, {
      topics: [
        { name: null, topicId: newId },
        { name: null, topicId },
      ],
      topicNames: [],
      timeoutMs: 1000,
    });
    expect(byId.responses.map((topic) => [topic.name, topic.errorCode])).toEqual([
      ["doomed", 0],
      [null, KafkaErrorCode.UNKNOWN_TOPIC_ID],
    ]);
  });

  test("a fetch waiting on a deleted topic is released", async () => {
    harness = new BrokerHarness({ maxFetchWaitMs: 60_000 });
    const client = harness.connect();
    await client.createTopic("waiting");
    const poll = client.fetch("waiting", 0, 0, { maxWaitMs: 60_000 });
    await new Promise((resolve) => setImmediate(resolve));
    await harness.connect().request(20, 4, { topics: [], topicNames: ["waiting"], timeoutMs: 1000 });
    expect(await poll).toMatchObject({ errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  });
});

describe("DescribeConfigs", () => {
  test("topic defaults, the broker resource and refusals", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("described");
    const response = await client.request(32, 1, {
      resources: [
        { resourceType: 2, resourceName: "described", configurationKeys: null },
        { resourceType: 2, resourceName: "missing", configurationKeys: null },
        { resourceType: 4, resourceName: "1", configurationKeys: ["num.partitions"] },
        { resourceType: 4, resourceName: "7", configurationKeys: null },
        { resourceType: 3, resourceName: "group", configurationKeys: null },
      ],
      includeSynonyms: false,
      includeDocumentation: false,
    });
    const [topic, missing, broker, otherBroker, group] = response.results;
    expect(topic?.errorCode).toBe(0);
    expect(topic?.configs.find((config) => config.name === "max.message.bytes")).toMatchObject({
      value: "1048588",
      configSource: 5,
      readOnly: false,
    });
    expect(missing?.errorCode).toBe(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    expect(broker?.configs).toEqual([expect.objectContaining({ name: "num.partitions", value: "1", readOnly: true })]);
    expect(otherBroker?.errorCode).toBe(KafkaErrorCode.INVALID_REQUEST);
    expect(group?.errorCode).toBe(KafkaErrorCode.INVALID_REQUEST);
  });
});
