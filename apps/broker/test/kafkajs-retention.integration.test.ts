// Retention with kafkajs 2.2.4. retention.ms: a topic created with a one-hour retention gets records stamped two
// hours ago and records stamped now; the broker's own retention sweep (every 200 ms here) moves the low watermark
// past the old ones, a consumer group reading from the beginning gets exactly the recent ones, and DescribeConfigs
// reports the topic's retention. retention.bytes: of ten ~1 KiB batches the oldest go until three are left. Admin
// alterConfigs (AlterConfigs) gives an existing topic a retention, which the next sweep applies; a bad value is
// refused and changes nothing. On the embedded default and on etcd + s3proxy.
import { randomBytes } from "node:crypto";
import { ConfigResourceTypes, type Kafka } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import type { StorageKind } from "./support/broker-fixture.js";
import { KafkajsFixture, waitFor } from "./support/kafkajs-fixture.js";

const fixture = new KafkajsFixture();
let metricsUrl = "";
const HOUR = 3_600_000;

afterEach(() => fixture.cleanup());

/** A broker sweeping retention every 200 ms, and its metrics endpoint. */
async function connect(kind: StorageKind): Promise<Kafka> {
  const { broker, kafka } = await fixture.start(kind, { topics: { retentionCheckIntervalMs: 200 } });
  metricsUrl = `http://127.0.0.1:${String(broker.broker.adminPort)}/metrics`;
  return kafka;
}

describe.each<StorageKind>(["embedded", "cluster"])("kafkajs and retention on the %s storage", (kind) => {
  test("records older than retention.ms leave the log; the rest stays readable from the new low watermark", async () => {
    const kafka = await connect(kind);
    const topic = `aging-${randomBytes(4).toString("hex")}`;
    const admin = await fixture.admin(kafka);
    expect(
      await admin.createTopics({
        topics: [{ topic, numPartitions: 1, configEntries: [{ name: "retention.ms", value: String(HOUR) }] }],
        waitForLeaders: true,
      }),
    ).toBe(true);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const old = String(Date.now() - 2 * HOUR);
    // Two batches of old records, then one of recent records.
    await producer.send({
      topic,
      acks: -1,
      messages: Array.from({ length: 4 }, (_, index) => ({ value: `old-${String(index)}`, timestamp: old })),
    });
    await producer.send({
      topic,
      acks: -1,
      messages: Array.from({ length: 3 }, (_, index) => ({ value: `old-${String(index + 4)}`, timestamp: old })),
    });
    await producer.send({
      topic,
      acks: -1,
      messages: Array.from({ length: 5 }, (_, index) => ({ value: `new-${String(index)}` })),
    });
    await waitFor(
      "the retention sweep to delete the 7 old records",
      async () => (await admin.fetchTopicOffsets(topic))[0]?.low === "7",
    );
    expect(await admin.fetchTopicOffsets(topic)).toEqual([{ partition: 0, offset: "12", high: "12", low: "7" }]);
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ["retention.ms"] }],
    });
    expect(described.resources[0]?.configEntries.map((entry) => [entry.configName, entry.configValue])).toEqual([
      ["retention.ms", String(HOUR)],
    ]);

    const { received } = await fixture.readFromBeginning(kafka, topic);
    await waitFor("the 5 recent records", () => received.length >= 5);
    await producer.disconnect();
    expect(received).toEqual(Array.from({ length: 5 }, (_, index) => `${String(index + 7)}:new-${String(index)}`));
    const sweeps = await (await fetch(metricsUrl)).text();
    expect(sweeps).toMatch(/nereus_kafka_retention_deleted_records_total [1-9]/);
  });

  test("retention.bytes keeps the newest batches that make up at least that many bytes", async () => {
    const kafka = await connect(kind);
    const topic = `sized-${randomBytes(4).toString("hex")}`;
    const admin = await fixture.admin(kafka);
    expect(
      await admin.createTopics({
        topics: [{ topic, numPartitions: 1, configEntries: [{ name: "retention.bytes", value: "3000" }] }],
        waitForLeaders: true,
      }),
    ).toBe(true);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    // Ten batches of one 1,000-byte record (a little over 1 KiB each stored): three of them exceed 3,000 bytes, two do not.
    for (let index = 0; index < 10; index += 1)
      await producer.send({ topic, acks: -1, messages: [{ value: `${String(index)}`.padEnd(1000, ".") }] });
    await producer.disconnect();
    await waitFor(
      "the retention sweep to keep the last three batches",
      async () => (await admin.fetchTopicOffsets(topic))[0]?.low === "7",
    );
    const { received } = await fixture.readFromBeginning(kafka, topic);
    await waitFor("the 3 kept records", () => received.length >= 3);
    expect(received.map((record) => record.slice(0, record.indexOf(".")))).toEqual(["7:7", "8:8", "9:9"]);
  });

  test("alterConfigs gives an existing topic a retention the next sweep applies; a bad value changes nothing", async () => {
    const kafka = await connect(kind);
    const topic = `altered-${randomBytes(4).toString("hex")}`;
    const admin = await fixture.admin(kafka);
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true })).toBe(true);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ value: "old", timestamp: String(Date.now() - 2 * HOUR) }] });
    await producer.send({ topic, acks: -1, messages: [{ value: "new" }] });
    await producer.disconnect();
    const retention = async (): Promise<string | undefined> => {
      const described = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ["retention.ms"] }],
      });
      return described.resources[0]?.configEntries[0]?.configValue;
    };
    expect(await retention()).toBe("604800000");
    await expect(
      admin.alterConfigs({
        validateOnly: false,
        resources: [
          { type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name: "retention.ms", value: "soon" }] },
        ],
      }),
    ).rejects.toThrow();
    expect(await retention()).toBe("604800000");
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: topic,
          configEntries: [{ name: "retention.ms", value: String(HOUR) }],
        },
      ],
    });
    expect(await retention()).toBe(String(HOUR));
    await waitFor(
      "the retention sweep to delete the old record",
      async () => (await admin.fetchTopicOffsets(topic))[0]?.low === "1",
    );
    expect(await admin.fetchTopicOffsets(topic)).toEqual([{ partition: 0, offset: "2", high: "2", low: "1" }]);
  });
});
