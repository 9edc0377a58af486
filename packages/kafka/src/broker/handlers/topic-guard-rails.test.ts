// The broker's topic guard rails as a client sees them: the per-request caps of Metadata and CreateTopics, the
// auto-creation token bucket, and the partition limit through CreateTopics, CreatePartitions and auto-creation.
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, createTopicsBody } from "../../../test/broker-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { RequestBody } from "../../protocol/supported-apis.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

const metadata = (names: readonly string[], allowAutoTopicCreation = true): RequestBody<3> => ({
  topics: names.map((name) => ({ topicId: "00000000-0000-0000-0000-000000000000", name })),
  allowAutoTopicCreation,
  includeClusterAuthorizedOperations: false,
  includeTopicAuthorizedOperations: false,
});

describe("topic guard rails", () => {
  test("Metadata: a name asked twice is answered once; names above the cap are refused and not created", async () => {
    harness = new BrokerHarness({ maxTopicsPerMetadataRequest: 2 });
    const client = harness.connect();
    const response = await client.request(3, 9, metadata(["one", "two", "one", "three"]));
    expect(response.topics.map((topic) => [topic.name, topic.errorCode])).toEqual([
      ["one", KafkaErrorCode.NONE],
      ["two", KafkaErrorCode.NONE],
      ["three", KafkaErrorCode.POLICY_VIOLATION],
    ]);
    expect(await harness.broker.topics.lookup("three")).toBeUndefined();
  });

  test("Metadata: auto-creations beyond the token bucket are LEADER_NOT_AVAILABLE until a token is free", async () => {
    let now = 0;
    harness = new BrokerHarness({ autoCreateTopicsPerSecond: 2, autoCreateTopicsBurst: 1, clock: () => now });
    const client = harness.connect();
    const first = await client.request(3, 9, metadata(["paced-a", "paced-b"]));
    expect(first.topics.map((topic) => topic.errorCode)).toEqual([
      KafkaErrorCode.NONE,
      KafkaErrorCode.LEADER_NOT_AVAILABLE,
    ]);
    // An existing topic needs no token.
    expect((await client.request(3, 9, metadata(["paced-a"]))).topics[0]?.errorCode).toBe(KafkaErrorCode.NONE);
    now += 499;
    expect((await client.request(3, 9, metadata(["paced-b"]))).topics[0]?.errorCode).toBe(
      KafkaErrorCode.LEADER_NOT_AVAILABLE,
    );
    now += 1;
    expect((await client.request(3, 9, metadata(["paced-b"]))).topics[0]?.errorCode).toBe(KafkaErrorCode.NONE);
  });

  test("CreateTopics: entries above the cap are refused with a message and not created", async () => {
    harness = new BrokerHarness({ maxTopicsPerCreateTopicsRequest: 2 });
    const client = harness.connect();
    const response = await client.request(19, 7, createTopicsBody([{ name: "c1" }, { name: "c2" }, { name: "c3" }]));
    expect(response.topics.map((topic) => topic.errorCode)).toEqual([
      KafkaErrorCode.NONE,
      KafkaErrorCode.NONE,
      KafkaErrorCode.POLICY_VIOLATION,
    ]);
    expect(response.topics[2]?.errorMessage).toBe(
      "This request names 3 topics; this broker creates at most 2 per request. Send the rest in another request.",
    );
    expect(await harness.broker.topics.lookup("c3")).toBeUndefined();
  });

  test("the partition limit refuses CreateTopics, CreatePartitions and auto-creation above it", async () => {
    harness = new BrokerHarness({ maxPartitionsPerBroker: 4, defaultPartitions: 2 });
    const client = harness.connect();
    expect((await client.createTopic("big", 3)).topics[0]?.errorCode).toBe(KafkaErrorCode.NONE);
    const refused = await client.createTopic("more", 2);
    expect(refused.topics[0]).toMatchObject({
      errorCode: KafkaErrorCode.POLICY_VIOLATION,
      errorMessage: "Adding 2 partitions would bring this broker's 3 to 5, above its limit of 4.",
    });
    const grown = await client.request(37, 3, {
      topics: [{ name: "big", count: 5, assignments: null }],
      timeoutMs: 5_000,
      validateOnly: false,
    });
    expect(grown.results[0]?.errorCode).toBe(KafkaErrorCode.POLICY_VIOLATION);
    expect((await client.request(3, 9, metadata(["auto"]))).topics[0]?.errorCode).toBe(KafkaErrorCode.POLICY_VIOLATION);
    expect((await client.createTopic("one", 1)).topics[0]?.errorCode).toBe(KafkaErrorCode.NONE);
  });
});
