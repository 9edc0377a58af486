// kafkajs 2.2.4 deletes records (Admin deleteTopicRecords → DeleteRecords): the low watermark it then reads
// (ListOffsets earliest) is the requested offset, a new consumer group reading from the beginning starts exactly
// there, and produce continues at the same end. On the embedded default and on etcd + s3proxy.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import type { StorageKind } from "./support/broker-fixture.js";
import { KafkajsFixture, waitFor } from "./support/kafkajs-fixture.js";

const fixture = new KafkajsFixture();

afterEach(() => fixture.cleanup());

describe.each<StorageKind>(["embedded", "cluster"])("kafkajs deleteTopicRecords on the %s storage", (kind) => {
  test("the low watermark moves to the requested offset and a new group starts there", async () => {
    const { kafka } = await fixture.start(kind);
    const topic = `trimmed-${randomBytes(4).toString("hex")}`;
    const admin = await fixture.admin(kafka);
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true })).toBe(true);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    // Four batches of five: offset 7 lies inside the second batch.
    for (let batch = 0; batch < 4; batch += 1) {
      await producer.send({
        topic,
        acks: -1,
        messages: Array.from({ length: 5 }, (_, index) => ({ value: `m-${String(batch * 5 + index)}` })),
      });
    }
    // kafkajs finds the partition leaders in the metadata it holds: read the offsets first (Kafka needs that too).
    expect(await admin.fetchTopicOffsets(topic)).toEqual([{ partition: 0, offset: "20", high: "20", low: "0" }]);
    await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: "7" }] });
    expect(await admin.fetchTopicOffsets(topic)).toEqual([{ partition: 0, offset: "20", high: "20", low: "7" }]);
    // An offset below the low watermark changes nothing.
    await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: "3" }] });
    expect((await admin.fetchTopicOffsets(topic))[0]?.low).toBe("7");

    const { received } = await fixture.readFromBeginning(kafka, topic);
    await waitFor("the 13 records from offset 7", () => received.length >= 13);
    await producer.send({ topic, acks: -1, messages: [{ value: "m-20" }] });
    await producer.disconnect();
    await waitFor("the record produced after the deletion", () => received.length >= 14);
    expect(received).toEqual(Array.from({ length: 14 }, (_, index) => `${String(index + 7)}:m-${String(index + 7)}`));
  });
});
