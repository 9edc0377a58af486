// Storage reclamation seen from Kafka clients (kafkajs 2.2.4): records that leave a topic by retention.ms or
// DeleteRecords, and topics deleted by DeleteTopics, give their bytes back. The broker collects with a 500 ms grace
// period and no minimum object age here, so a trimmed stream's objects go within about a second. Every check reads
// the object store from outside the broker (the objects directory of the embedded store — the "files" layout, one
// file per object, so a deleted object is a deleted file — or the cluster's keys in the s3proxy bucket) and the
// broker's /metrics. The bound after a trim: the retained batches' payload plus a fixed 4 KiB per retained batch for
// record-batch and object headers (each acks=-1 send is one WAL object here). Records at or above the new log start
// are read back byte for byte. DeleteTopics: of the objects shared by two topics, none goes while the other topic
// still needs it; once both are deleted, every object they were written to is gone.
import { randomBytes } from "node:crypto";
import { ConfigResourceTypes, type Kafka } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import type { BrokerConfigInput } from "../src/index.js";
import type { StorageKind } from "./support/broker-fixture.js";
import { KafkajsFixture, waitFor } from "./support/kafkajs-fixture.js";
import { storedObjects, totalBytes } from "./support/stored-objects.js";

const fixture = new KafkajsFixture();
const HOUR = 3_600_000;
const RECORD_BYTES = 4_096;
const RECORDS_PER_BATCH = 8;
const BATCH_PAYLOAD = RECORD_BYTES * RECORDS_PER_BATCH;
/** Header allowance per retained batch (record-batch and WAL object framing). */
const OVERHEAD_PER_BATCH = 4_096;

afterEach(() => fixture.cleanup());

interface Started {
  readonly kafka: Kafka;
  readonly config: BrokerConfigInput;
  readonly metrics: () => Promise<string>;
}

/**
 * A broker sweeping retention every 200 ms and collecting with a 500 ms grace. `walLingerMs` packs appends into
 * shared WAL objects, `materialization` (default: the broker's) says whether generation objects are built.
 */
async function start(
  kind: StorageKind,
  options: { readonly walLingerMs?: number; readonly materialization?: "off" } = {},
): Promise<Started> {
  const { walLingerMs, materialization } = options;
  const { broker, kafka } = await fixture.start(kind, {
    topics: { retentionCheckIntervalMs: 200 },
    storage: {
      reclamation: { graceMs: 500, minObjectAgeMs: 0, intervalMs: 1_000 },
      ...(kind === "embedded" ? { objects: { kind: "filesystem", layout: "files" } } : {}),
      ...(walLingerMs === undefined ? {} : { walLingerMs }),
      ...(materialization === undefined ? {} : { materialization }),
    },
  });
  const url = `http://127.0.0.1:${String(broker.broker.adminPort)}/metrics`;
  return { kafka, config: broker.config, metrics: async () => (await fetch(url)).text() };
}

/** The value of series `name` (with `labels`, e.g. `{kind="OBJECT_WAL"}`) in a scrape, or 0 when absent. */
function sample(scrape: string, name: string, labels = ""): number {
  const line = scrape.split("\n").find((candidate) => candidate.startsWith(`${name}${labels} `));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1));
}

/** One acks=-1 send per batch of random records; answers the values by offset (offsets start at `first`). */
async function produceBatches(kafka: Kafka, topic: string, batches: number, timestamp?: string): Promise<Buffer[]> {
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const values: Buffer[] = [];
  try {
    for (let batch = 0; batch < batches; batch++) {
      const messages = Array.from({ length: RECORDS_PER_BATCH }, () => randomBytes(RECORD_BYTES));
      await producer.send({
        topic,
        acks: -1,
        messages: messages.map((value) => ({ value, ...(timestamp === undefined ? {} : { timestamp }) })),
      });
      values.push(...messages);
    }
  } finally {
    await producer.disconnect();
  }
  return values;
}

/** Reads `topic` from the beginning until `count` records came; answers them by offset. */
async function readAll(kafka: Kafka, topic: string, count: number): Promise<Map<number, Buffer>> {
  const received = new Map<number, Buffer>();
  const consumer = fixture.consumer(kafka);
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      received.set(Number(message.offset), message.value ?? Buffer.alloc(0));
    },
  });
  await waitFor(`${String(count)} records of ${topic}`, () => received.size >= count);
  await consumer.stop();
  return received;
}

/** Every record from `logStart` on is read back exactly as produced, and none below it. */
async function expectReadBack(kafka: Kafka, topic: string, values: Buffer[], logStart: number): Promise<void> {
  const received = await readAll(kafka, topic, values.length - logStart);
  expect([...received.keys()].sort((a, b) => a - b)).toEqual(
    Array.from({ length: values.length - logStart }, (_, index) => logStart + index),
  );
  for (const [offset, value] of received) expect(value.equals(values[offset] as Buffer)).toBe(true);
}

async function createTopic(kafka: Kafka, topic: string): Promise<void> {
  const admin = await fixture.admin(kafka);
  expect(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true })).toBe(true);
}

describe.each<StorageKind>(["embedded", "cluster"])("storage reclamation on the %s storage", (kind) => {
  test("retention.ms: the expired batches' objects are deleted, the rest reads back byte for byte", async () => {
    const { kafka, config, metrics } = await start(kind);
    const topic = `aging-${randomBytes(4).toString("hex")}`;
    await createTopic(kafka, topic);
    const oldBatches = 24;
    const newBatches = 4;
    const values = [
      ...(await produceBatches(kafka, topic, oldBatches, String(Date.now() - 2 * HOUR))),
      ...(await produceBatches(kafka, topic, newBatches)),
    ];
    const before = totalBytes(await storedObjects(config));
    expect(before).toBeGreaterThanOrEqual((oldBatches + newBatches) * BATCH_PAYLOAD);

    const admin = await fixture.admin(kafka);
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
    const logStart = oldBatches * RECORDS_PER_BATCH;
    await waitFor(
      "the retention sweep",
      async () => (await admin.fetchTopicOffsets(topic))[0]?.low === String(logStart),
    );
    const bound = newBatches * (BATCH_PAYLOAD + OVERHEAD_PER_BATCH);
    let after = before;
    await waitFor(
      `the stored bytes to fall to ${String(bound)}`,
      async () => (after = totalBytes(await storedObjects(config))) <= bound,
      30_000,
    );
    console.log(`retention.ms on ${kind}: stored ${String(before)} bytes before, ${String(after)} after`);

    await expectReadBack(kafka, topic, values, logStart);
    const scrape = await metrics();
    expect(sample(scrape, "nereus_reclamation_bytes_freed_total", '{kind="OBJECT_WAL"}')).toBeGreaterThanOrEqual(
      oldBatches * BATCH_PAYLOAD,
    );
    expect(sample(scrape, "nereus_reclamation_objects_freed_total", '{kind="OBJECT_WAL"}')).toBeGreaterThanOrEqual(
      oldBatches,
    );
    expect(sample(scrape, "nereus_reclamation_runs_total")).toBeGreaterThan(0);
    expect(sample(scrape, "nereus_reclamation_failures_total")).toBe(0);
  });

  test("DeleteRecords: the objects below the new log start go", async () => {
    const { kafka, config, metrics } = await start(kind);
    const topic = `trimmed-${randomBytes(4).toString("hex")}`;
    await createTopic(kafka, topic);
    const batches = 12;
    const kept = 3;
    const values = await produceBatches(kafka, topic, batches);
    const before = totalBytes(await storedObjects(config));
    const logStart = (batches - kept) * RECORDS_PER_BATCH;
    const admin = await fixture.admin(kafka);
    expect((await admin.fetchTopicOffsets(topic))[0]?.high).toBe(String(values.length));
    await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: String(logStart) }] });
    const bound = kept * (BATCH_PAYLOAD + OVERHEAD_PER_BATCH);
    let after = before;
    await waitFor(
      `the stored bytes to fall to ${String(bound)}`,
      async () => (after = totalBytes(await storedObjects(config))) <= bound,
      30_000,
    );
    console.log(`DeleteRecords on ${kind}: stored ${String(before)} bytes before, ${String(after)} after`);
    await expectReadBack(kafka, topic, values, logStart);
    expect(
      sample(await metrics(), "nereus_reclamation_bytes_freed_total", '{kind="OBJECT_WAL"}'),
    ).toBeGreaterThanOrEqual((batches - kept) * BATCH_PAYLOAD);
  });

  test("DeleteTopics: objects shared with another topic stay until that topic is deleted too", async () => {
    // A linger packs the records of both topics of one produce request into one WAL object; without generations
    // (which would replace the WAL objects of the topic that stays) those shared objects are all that is left of it.
    const { kafka, config } = await start(kind, { walLingerMs: 50, materialization: "off" });
    const first = `first-${randomBytes(4).toString("hex")}`;
    const second = `second-${randomBytes(4).toString("hex")}`;
    await createTopic(kafka, first);
    await createTopic(kafka, second);
    await produceBatches(kafka, first, 4);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const shared = { first: [] as Buffer[], second: [] as Buffer[] };
    for (let batch = 0; batch < 4; batch++) {
      const firstValues = Array.from({ length: RECORDS_PER_BATCH }, () => randomBytes(RECORD_BYTES));
      const secondValues = Array.from({ length: RECORDS_PER_BATCH }, () => randomBytes(RECORD_BYTES));
      await producer.sendBatch({
        acks: -1,
        topicMessages: [
          { topic: first, messages: firstValues.map((value) => ({ value })) },
          { topic: second, messages: secondValues.map((value) => ({ value })) },
        ],
      });
      shared.first.push(...firstValues);
      shared.second.push(...secondValues);
    }
    await producer.disconnect();
    const written = await storedObjects(config);
    const writtenBytes = totalBytes(written);

    const admin = await fixture.admin(kafka);
    await admin.deleteTopics({ topics: [first] });
    // The first topic's own objects go; every object holding records of the second topic stays.
    const firstOnlyBytes = 4 * BATCH_PAYLOAD;
    let remaining: typeof written;
    await waitFor(
      "the first topic's own objects to go",
      async () => writtenBytes - totalBytes((remaining = await storedObjects(config))) >= firstOnlyBytes,
      30_000,
    );
    // Two more follow-up periods: nothing else goes. What is left are objects written before, each holding batches
    // of both topics (at least the 4 shared sends' payload of both).
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    remaining = await storedObjects(config);
    expect([...remaining.keys()].every((key) => written.has(key))).toBe(true);
    expect(totalBytes(remaining)).toBeGreaterThanOrEqual(2 * 4 * BATCH_PAYLOAD);
    await expectReadBack(kafka, second, shared.second, 0);
    console.log(
      `DeleteTopics on ${kind}: ${String(written.size)} objects / ${String(writtenBytes)} bytes written, ${String(remaining.size)} / ${String(totalBytes(remaining))} left with the second topic`,
    );

    await admin.deleteTopics({ topics: [second] });
    await waitFor(
      "every object the two topics were written to to go",
      async () => {
        const now = await storedObjects(config);
        return [...written.keys()].every((key) => !now.has(key));
      },
      30_000,
    );
  });
});
