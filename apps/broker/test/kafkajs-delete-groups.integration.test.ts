// kafkajs 2.2.4 deletes consumer groups (Admin deleteGroups → DeleteGroups): a group with a connected member is
// refused (NON_EMPTY_GROUP); once it left, the group and its committed offsets go, ListGroups no longer lists it,
// and a new member of the same group id starts from the beginning again. On the embedded default and on
// etcd + s3proxy.
import { randomBytes } from "node:crypto";
import type { Consumer } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import type { StorageKind } from "./support/broker-fixture.js";
import { KafkajsFixture, waitFor } from "./support/kafkajs-fixture.js";

const fixture = new KafkajsFixture();

afterEach(() => fixture.cleanup());

describe.each<StorageKind>(["embedded", "cluster"])("kafkajs deleteGroups on the %s storage", (kind) => {
  test("a group with a member is refused; an empty group goes with its committed offsets", async () => {
    const { kafka } = await fixture.start(kind);
    const topic = `grouped-${randomBytes(4).toString("hex")}`;
    const groupId = `group-${randomBytes(4).toString("hex")}`;
    const admin = await fixture.admin(kafka);
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true })).toBe(true);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ value: "a" }, { value: "b" }, { value: "c" }] });
    await producer.disconnect();

    const read = async (): Promise<{ consumer: Consumer; received: string[] }> => {
      const received: string[] = [];
      const consumer = fixture.consumer(kafka, groupId);
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        autoCommitThreshold: 1,
        eachMessage: async ({ message }) => void received.push(message.value?.toString() ?? ""),
      });
      return { consumer, received };
    };
    const first = await read();
    await waitFor("the 3 records", () => first.received.length >= 3);
    await waitFor(
      "the committed offset",
      async () => (await admin.fetchOffsets({ groupId, topics: [topic] }))[0]?.partitions[0]?.offset === "3",
    );
    await expect(admin.deleteGroups([groupId])).rejects.toMatchObject({
      groups: [{ groupId, error: { type: "NON_EMPTY_GROUP" } }],
    });
    await first.consumer.disconnect();

    expect(await admin.deleteGroups([groupId])).toEqual([{ groupId, errorCode: 0 }]);
    expect((await admin.listGroups()).groups.map((group) => group.groupId)).not.toContain(groupId);
    expect((await admin.fetchOffsets({ groupId, topics: [topic] }))[0]?.partitions[0]?.offset).toBe("-1");
    // The same group id starts over: fromBeginning applies again because nothing is committed.
    const second = await read();
    await waitFor("the 3 records again", () => second.received.length >= 3);
    expect(second.received).toEqual(["a", "b", "c"]);
  });
});
