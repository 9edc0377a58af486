// kafkajs 2.2.4 adds partitions (Admin createPartitions → CreatePartitions): the topic's metadata lists them, a
// producer writes to the new ones, a consumer group reading from the beginning gets every record of every partition,
// and the old partitions keep their data; asking for fewer partitions is refused. On the embedded default and on
// etcd + s3proxy; there, a second broker of the same cluster sees the new partitions and a changed config without a
// restart (its topic watch on etcd).
import { randomBytes } from "node:crypto";
import { ConfigResourceTypes } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import type { StorageKind } from "./support/broker-fixture.js";
import { KafkajsFixture, waitFor } from "./support/kafkajs-fixture.js";

const fixture = new KafkajsFixture();

afterEach(() => fixture.cleanup());

describe.each<StorageKind>(["embedded", "cluster"])("kafkajs createPartitions on the %s storage", (kind) => {
  test("new partitions appear, take records, and the old ones keep theirs", async () => {
    const { kafka } = await fixture.start(kind);
    const topic = `growing-${randomBytes(4).toString("hex")}`;
    const admin = await fixture.admin(kafka);
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true })).toBe(true);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    await producer.send({
      topic,
      acks: -1,
      messages: [0, 1].map((partition) => ({ partition, value: `before-${String(partition)}` })),
    });
    await admin.createPartitions({ topicPartitions: [{ topic, count: 4 }] });
    await expect(admin.createPartitions({ topicPartitions: [{ topic, count: 3 }] })).rejects.toMatchObject({
      type: "INVALID_PARTITIONS",
    });
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    expect(metadata.topics[0]?.partitions.map((partition) => partition.partitionId).sort()).toEqual([0, 1, 2, 3]);
    // The producer learns of the new partitions from fresh metadata.
    await producer.disconnect();
    const after = kafka.producer({ allowAutoTopicCreation: false });
    await after.connect();
    await after.send({
      topic,
      acks: -1,
      messages: [0, 1, 2, 3].map((partition) => ({ partition, value: `after-${String(partition)}` })),
    });
    await after.disconnect();
    const offsets = await admin.fetchTopicOffsets(topic);
    expect(offsets.map((entry) => [entry.partition, entry.high]).sort()).toEqual([
      [0, "2"],
      [1, "2"],
      [2, "1"],
      [3, "1"],
    ]);

    const { received } = await fixture.readFromBeginning(kafka, topic);
    await waitFor("all 6 records", () => received.length >= 6);
    expect(received.map((record) => record.slice(record.indexOf(":") + 1)).sort()).toEqual([
      "after-0",
      "after-1",
      "after-2",
      "after-3",
      "before-0",
      "before-1",
    ]);
  });
});

describe("two brokers of one etcd + s3proxy cluster", () => {
  test("the second broker sees partitions and configs the first one changed", async () => {
    const cluster = `t${randomBytes(5).toString("hex")}`;
    const first = await fixture.start("cluster", { cluster });
    const second = await fixture.start("cluster", { cluster });
    const topic = `shared-${randomBytes(4).toString("hex")}`;
    const adminA = await fixture.admin(first.kafka);
    const adminB = await fixture.admin(second.kafka);
    expect(await adminA.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true })).toBe(true);
    const partitionsSeenByB = async (): Promise<number> =>
      (await adminB.fetchTopicMetadata({ topics: [topic] })).topics[0]?.partitions.length ?? 0;
    expect(await partitionsSeenByB()).toBe(1);
    await adminA.createPartitions({ topicPartitions: [{ topic, count: 3 }] });
    await waitFor("the second broker to list 3 partitions", async () => (await partitionsSeenByB()) === 3, 10_000);
    await adminA.alterConfigs({
      validateOnly: false,
      resources: [
        { type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name: "retention.ms", value: "3600000" }] },
      ],
    });
    const retentionSeenByB = async (): Promise<string | undefined> =>
      (
        await adminB.describeConfigs({
          includeSynonyms: false,
          resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ["retention.ms"] }],
        })
      ).resources[0]?.configEntries[0]?.configValue;
    await waitFor(
      "the second broker to report the new retention.ms",
      async () => (await retentionSeenByB()) === "3600000",
      10_000,
    );
  });
});
