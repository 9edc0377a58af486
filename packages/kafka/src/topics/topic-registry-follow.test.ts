import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, type TestClient, batchOf } from "../../test/broker-harness.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";

const harnesses: BrokerHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) {
    expect(harness.errors()).toEqual([]);
    await harness.close();
  }
});

/** Two brokers over one metadata store and one WAL (two processes of one cluster). */
function twoBrokers(): [BrokerHarness, BrokerHarness] {
  const first = new BrokerHarness({ autoCreateTopics: false });
  const second = new BrokerHarness(
    { autoCreateTopics: false, nodeId: 1 },
    {},
    { metadata: first.metadata, objectWal: first.objectWal },
  );
  harnesses.push(first, second);
  return [first, second];
}

async function partitionCount(client: TestClient, name: string): Promise<number | undefined> {
  const response = await client.request(3, 12, {
    topics: [{ topicId: "00000000-0000-0000-0000-000000000000", name }],
    allowAutoTopicCreation: false,
    includeClusterAuthorizedOperations: false,
    includeTopicAuthorizedOperations: false,
  });
  const topic = response.topics[0];
  return topic?.errorCode === 0 ? topic.partitions.length : undefined;
}

async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("TopicRegistry.follow", () => {
  test("a broker sees the partitions, configs and deletion another broker made, without a restart", async () => {
    const [first, second] = twoBrokers();
    const a = first.connect();
    const b = second.connect();
    await a.createTopic("shared", 1);
    // The second broker caches the topic as it is now.
    expect(await partitionCount(b, "shared")).toBe(1);
    expect(await b.produce("shared", 0, batchOf(["a fairly long value"]))).toMatchObject({ errorCode: 0 });

    const grown = await a.request(37, 3, {
      topics: [{ name: "shared", count: 3, assignments: null }],
      timeoutMs: 5000,
      validateOnly: false,
    });
    expect(grown.results[0]?.errorCode).toBe(0);
    await until("the second broker to see 3 partitions", async () => (await partitionCount(b, "shared")) === 3);
    expect(await b.produce("shared", 2, batchOf(["x"]))).toMatchObject({ errorCode: 0, baseOffset: 0 });

    const altered = await a.request(44, 1, {
      resources: [
        {
          resourceType: 2,
          resourceName: "shared",
          configs: [{ name: "max.message.bytes", configOperation: 0, value: "10" }],
        },
      ],
      validateOnly: false,
    });
    expect(altered.responses[0]?.errorCode).toBe(0);
    await until(
      "the second broker to apply max.message.bytes",
      async () =>
        (await b.produce("shared", 0, batchOf(["a fairly long value"])))?.errorCode ===
        KafkaErrorCode.MESSAGE_TOO_LARGE,
    );

    const deleted = await a.request(20, 6, {
      topics: [{ name: "shared", topicId: "00000000-0000-0000-0000-000000000000" }],
      topicNames: [],
      timeoutMs: 5000,
    });
    expect(deleted.responses[0]?.errorCode).toBe(0);
    await until("the second broker to forget the topic", async () => (await partitionCount(b, "shared")) === undefined);
    expect(await b.produce("shared", 0, batchOf(["late"]))).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
  });
});
