// Automatic topic creation through a PulsarConnection over in-memory stores, by the broker's default and by
// namespace policy: PARTITIONED_METADATA creating partitioned metadata, producers and consumers on partitions,
// refusals (TopicNotFound when creation is off, NotAllowed for a partitioned topic's own name or a partition beyond
// its count), and the storage profile a new topic gets (broker default < namespace policy < topic policy).
import { afterEach, describe, expect, test } from "vitest";
import { PartitionedMetadataOutcome, ServerError } from "../protocol/index.js";
import { parseNamespaceName, parseTopicName } from "../topics/topic-name.js";
import type { AutoTopicCreation } from "../topics/topic-policies.js";
import { BrokerHarness, type TestClient } from "../../test/broker-harness.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function connect(autoTopicCreation?: AutoTopicCreation): Promise<{ h: BrokerHarness; c: TestClient }> {
  const h = (harness = new BrokerHarness(autoTopicCreation === undefined ? {} : { autoTopicCreation }));
  const c = h.connect();
  await c.handshake();
  return { h, c };
}

const PARTITIONED: AutoTopicCreation = { allowed: true, type: "partitioned", defaultPartitions: 3 };
const OFF: AutoTopicCreation = { allowed: false, type: "non-partitioned", defaultPartitions: 1 };

function producer(c: TestClient, topic: string, id: bigint): void {
  c.send({ type: "PRODUCER", body: { topic, producerId: id, requestId: id } });
}

describe("automatic topic creation", () => {
  test("Pulsar's default: PARTITIONED_METADATA answers 0 and a PRODUCER creates the topic, not partitioned", async () => {
    const { h, c } = await connect();
    c.send({ type: "PARTITIONED_METADATA", body: { topic: "fresh", requestId: 1n } });
    expect((await c.waitFor("PARTITIONED_METADATA_RESPONSE"))[0]).toEqual({
      requestId: 1n,
      partitions: 0,
      response: PartitionedMetadataOutcome.Success,
    });
    producer(c, "fresh", 2n);
    await c.waitFor("PRODUCER_SUCCESS");
    const ledgers = h.broker.context.ledgers;
    expect(await ledgers.partitionedTopics.get(parseTopicName("fresh"))).toBeUndefined();
    expect((await ledgers.topics.get(parseTopicName("fresh")))?.profile).toBe("OBJECT_WAL_SYNC_OBJECT");
  });

  test("type partitioned: PARTITIONED_METADATA creates the default partitions; partitions serve producers and consumers", async () => {
    const { h, c } = await connect(PARTITIONED);
    c.send({ type: "PARTITIONED_METADATA", body: { topic: "orders", requestId: 1n } });
    c.send({ type: "PARTITIONED_METADATA", body: { topic: "orders", requestId: 2n } });
    const answers = await c.waitFor("PARTITIONED_METADATA_RESPONSE", 2);
    expect(answers.map((answer) => answer.partitions)).toEqual([3, 3]);
    expect((await h.broker.context.ledgers.partitionedTopics.get(parseTopicName("orders")))?.partitionCount).toBe(3);
    producer(c, "orders-partition-2", 3n);
    c.send({
      type: "SUBSCRIBE",
      body: { topic: "orders-partition-0", subscription: "s", subType: 0, consumerId: 1n, requestId: 4n },
    });
    await c.waitFor("PRODUCER_SUCCESS");
    await c.waitFor("SUCCESS");
    producer(c, "orders-partition-3", 5n);
    producer(c, "orders", 6n);
    const errors = await c.waitFor("ERROR", 2);
    expect(errors.map((error) => [error.requestId, error.error])).toEqual([
      [5n, ServerError.NotAllowedError],
      [6n, ServerError.NotAllowedError],
    ]);
    expect(errors[1]?.message).toContain("is a partitioned topic");
  });

  test("a namespace policy overrides the broker default, for that namespace only", async () => {
    const { h, c } = await connect();
    await h.broker.context.policies.store.updateNamespacePolicies(parseNamespaceName("acme/parts"), {
      autoTopicCreation: { allowed: true, type: "partitioned", defaultPartitions: 2 },
    });
    c.send({ type: "PARTITIONED_METADATA", body: { topic: "acme/parts/a", requestId: 1n } });
    c.send({ type: "PARTITIONED_METADATA", body: { topic: "acme/other/a", requestId: 2n } });
    const answers = await c.waitFor("PARTITIONED_METADATA_RESPONSE", 2);
    expect(answers.map((answer) => answer.partitions)).toEqual([2, 0]);
  });

  test("creation off: unknown topics are TopicNotFound for producers and consumers; existing topics still serve", async () => {
    const { h, c } = await connect(OFF);
    c.send({ type: "PARTITIONED_METADATA", body: { topic: "ghost", requestId: 1n } });
    expect((await c.waitFor("PARTITIONED_METADATA_RESPONSE"))[0]?.partitions).toBe(0);
    producer(c, "ghost", 2n);
    c.send({
      type: "SUBSCRIBE",
      body: { topic: "ghost", subscription: "s", subType: 0, consumerId: 1n, requestId: 3n },
    });
    const errors = await c.waitFor("ERROR", 2);
    expect(errors.map((error) => [error.requestId, error.error])).toEqual([
      [2n, ServerError.TopicNotFound],
      [3n, ServerError.TopicNotFound],
    ]);
    expect(await h.broker.context.ledgers.topics.get(parseTopicName("ghost"))).toBeUndefined();
    await h.broker.context.ledgers.topics.createOrGet(parseTopicName("present"), "OBJECT_WAL_SYNC_OBJECT");
    await h.broker.context.ledgers.partitionedTopics.create(parseTopicName("split"), 2);
    producer(c, "present", 4n);
    producer(c, "split-partition-1", 5n);
    expect((await c.waitFor("PRODUCER_SUCCESS", 2)).map((success) => success.requestId)).toEqual([4n, 5n]);
  });

  test("metadataAutoCreationEnabled false or forceTopicCreation false create nothing", async () => {
    const { h, c } = await connect(PARTITIONED);
    c.send({
      type: "PARTITIONED_METADATA",
      body: { topic: "quiet", requestId: 1n, metadataAutoCreationEnabled: false },
    });
    expect((await c.waitFor("PARTITIONED_METADATA_RESPONSE"))[0]).toMatchObject({
      requestId: 1n,
      response: PartitionedMetadataOutcome.Failed,
      error: ServerError.TopicNotFound,
    });
    c.send({
      type: "SUBSCRIBE",
      body: { topic: "quiet", subscription: "s", subType: 0, consumerId: 1n, requestId: 2n, forceTopicCreation: false },
    });
    expect((await c.waitFor("ERROR"))[0]).toMatchObject({ requestId: 2n, error: ServerError.TopicNotFound });
    expect(await h.broker.context.ledgers.partitionedTopics.get(parseTopicName("quiet"))).toBeUndefined();
  });

  test("a new topic gets its effective storage profile, fixed for the incarnation", async () => {
    const { h, c } = await connect();
    const { store } = h.broker.context.policies;
    await store.updateNamespacePolicies(parseNamespaceName("acme/async"), {
      storageProfile: "OBJECT_WAL_ASYNC_OBJECT",
    });
    await store.updateTopicPolicies(parseTopicName("acme/async/pinned"), { storageProfile: "OBJECT_WAL_SYNC_OBJECT" });
    producer(c, "acme/async/free", 1n);
    producer(c, "acme/async/pinned", 2n);
    await c.waitFor("PRODUCER_SUCCESS", 2);
    const { topics } = h.broker.context.ledgers;
    expect((await topics.get(parseTopicName("acme/async/free")))?.profile).toBe("OBJECT_WAL_ASYNC_OBJECT");
    expect((await topics.get(parseTopicName("acme/async/pinned")))?.profile).toBe("OBJECT_WAL_SYNC_OBJECT");
    await store.updateNamespacePolicies(parseNamespaceName("acme/async"), { storageProfile: "OBJECT_WAL_SYNC_OBJECT" });
    producer(c, "acme/async/free", 3n);
    await c.waitFor("PRODUCER_SUCCESS", 3);
    expect((await topics.get(parseTopicName("acme/async/free")))?.profile).toBe("OBJECT_WAL_ASYNC_OBJECT");
  });

  test("many connections using a new topic at once share one creation", async () => {
    const { h } = await connect();
    const clients = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const c = h.connect();
        await c.handshake();
        return c;
      }),
    );
    clients.forEach((c, index) => {
      producer(c, `crowded-${String(index % 2)}`, 1n);
      c.send({
        type: "SUBSCRIBE",
        body: { topic: `crowded-${String(index % 2)}`, subscription: "s", subType: 1, consumerId: 1n, requestId: 2n },
      });
    });
    for (const c of clients) {
      await c.waitFor("PRODUCER_SUCCESS");
      await c.waitFor("SUCCESS");
    }
    const { topics } = h.broker.context.ledgers;
    expect((await topics.get(parseTopicName("crowded-0")))?.incarnation).toBe(1);
    expect((await topics.get(parseTopicName("crowded-1")))?.incarnation).toBe(1);
  });
});
