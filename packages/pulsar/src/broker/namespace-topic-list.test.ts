// GET_TOPICS_OF_NAMESPACE: the topic list Pulsar's pattern consumers poll — partitions listed one by one, the
// pattern applied to names without their scheme (partitions by their partitioned topic), Pulsar's list hash (checked
// against values Apache Pulsar's TopicList.calculateHash computes), and an unchanged list answered without topics.
import { afterEach, describe, expect, test } from "vitest";
import { ServerError, TopicListMode } from "../protocol/index.js";
import { parseTopicName } from "../topics/topic-name.js";
import { BrokerHarness, type TestClient } from "../../test/broker-harness.js";
import { filterTopics, topicListHash } from "./namespace-topic-list.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("topic list hash and pattern", () => {
  test("the hash is Pulsar's (values from Apache Pulsar 4.2's TopicList.calculateHash), independent of order", () => {
    const topics = [
      "persistent://public/default/b-partition-1",
      "persistent://public/default/a",
      "persistent://public/default/b-partition-0",
      "persistent://public/default/é",
    ];
    expect(topicListHash(topics)).toBe("ba9f42c0");
    expect(topicListHash([...topics].reverse())).toBe("ba9f42c0");
    expect(topicListHash([])).toBe("00000000");
    expect(topicListHash(["persistent://public/default/x"])).toBe("47b49a8b");
  });

  test("patterns match whole names without the scheme, partitions by their partitioned topic", () => {
    const topics = [
      "persistent://acme/ns/orders-partition-0",
      "persistent://acme/ns/orders-partition-1",
      "persistent://acme/ns/orders-eu",
      "persistent://acme/ns/payments",
    ];
    expect(filterTopics(topics, "persistent://acme/ns/orders")).toEqual(topics.slice(0, 2));
    expect(filterTopics(topics, "acme/ns/orders.*")).toEqual(topics.slice(0, 3));
    expect(filterTopics(topics, "^persistent://acme/ns/pay.*")).toEqual([topics[3]]);
    expect(filterTopics(topics, "acme/ns/(")).toBeUndefined();
    expect(filterTopics(topics, `acme/ns/${"x".repeat(50)}`)).toBeUndefined();
  });
});

describe("GET_TOPICS_OF_NAMESPACE", () => {
  async function setUp(): Promise<TestClient> {
    const h = (harness = new BrokerHarness());
    const { ledgers } = h.broker.context;
    await ledgers.partitionedTopics.create(parseTopicName("acme/ns/orders"), 2);
    await ledgers.topics.createOrGet(parseTopicName("acme/ns/orders-partition-0"), "OBJECT_WAL_SYNC_OBJECT");
    await ledgers.topics.createOrGet(parseTopicName("acme/ns/payments"), "OBJECT_WAL_SYNC_OBJECT");
    await ledgers.topics.createOrGet(parseTopicName("acme/other/payments"), "OBJECT_WAL_SYNC_OBJECT");
    await ledgers.topics.createOrGet(parseTopicName("acme/ns/gone"), "OBJECT_WAL_SYNC_OBJECT");
    await ledgers.delete(parseTopicName("acme/ns/gone"));
    const c = h.connect();
    await c.handshake();
    return c;
  }

  test("lists every partition and every other live topic of the namespace, sorted, with Pulsar's hash", async () => {
    const c = await setUp();
    c.send({
      type: "GET_TOPICS_OF_NAMESPACE",
      body: { requestId: 1n, namespace: "acme/ns", mode: TopicListMode.PERSISTENT },
    });
    c.send({ type: "GET_TOPICS_OF_NAMESPACE", body: { requestId: 2n, namespace: "acme/ns", mode: TopicListMode.ALL } });
    c.send({
      type: "GET_TOPICS_OF_NAMESPACE",
      body: { requestId: 3n, namespace: "acme/ns", mode: TopicListMode.NON_PERSISTENT },
    });
    const [persistent, all, nonPersistent] = await c.waitFor("GET_TOPICS_OF_NAMESPACE_RESPONSE", 3);
    const expected = [
      "persistent://acme/ns/orders-partition-0",
      "persistent://acme/ns/orders-partition-1",
      "persistent://acme/ns/payments",
    ];
    expect(persistent).toEqual({
      requestId: 1n,
      topics: expected,
      filtered: false,
      topicsHash: topicListHash(expected),
      changed: true,
    });
    expect(all?.topics).toEqual(expected);
    expect(nonPersistent?.topics ?? []).toEqual([]);
    expect(nonPersistent?.topicsHash).toBe("00000000");
  });

  test("a pattern filters the list; the client's current hash gets changed=false and no topics", async () => {
    const c = await setUp();
    const pattern = "persistent://acme/ns/ord.*";
    c.send({ type: "GET_TOPICS_OF_NAMESPACE", body: { requestId: 1n, namespace: "acme/ns", topicsPattern: pattern } });
    const [first] = await c.waitFor("GET_TOPICS_OF_NAMESPACE_RESPONSE");
    expect(first).toMatchObject({
      topics: ["persistent://acme/ns/orders-partition-0", "persistent://acme/ns/orders-partition-1"],
      filtered: true,
      changed: true,
    });
    const body = { requestId: 2n, namespace: "acme/ns", topicsPattern: pattern, topicsHash: first?.topicsHash };
    c.send({ type: "GET_TOPICS_OF_NAMESPACE", body });
    const [, second] = await c.waitFor("GET_TOPICS_OF_NAMESPACE_RESPONSE", 2);
    // An empty repeated field is absent on the wire.
    expect(second).toEqual({
      requestId: 2n,
      filtered: true,
      topicsHash: first?.topicsHash,
      changed: false,
    });
  });

  test("a namespace name that is not tenant/namespace is answered ERROR", async () => {
    const c = await setUp();
    c.send({ type: "GET_TOPICS_OF_NAMESPACE", body: { requestId: 7n, namespace: "acme" } });
    expect((await c.waitFor("ERROR"))[0]).toMatchObject({ requestId: 7n, error: ServerError.InvalidTopicName });
  });
});
