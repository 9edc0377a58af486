// Produce requests whose batches are malformed below the header — record count that does not match the records,
// trailing bytes, out-of-order offset deltas, a record length overrunning the batch, compressed payloads that do
// not inflate, a gzip bomb — sent over a raw socket to a real broker: each is refused with Kafka's error code for
// its partition only, nothing is stored, and kcat (librdkafka) then reads the partition from offset 0 cleanly.
// kcat's own gzip, snappy, lz4 and zstd batches and kafkajs's gzip batches are accepted and read back.
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { protocol } from "@nereus/kafka";
import { CompressionTypes } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { forgeBatch, sectionOf } from "./support/forge-batch.js";
import { KafkajsFixture, waitFor } from "./support/kafkajs-fixture.js";
import { RawKafkaClient } from "./support/raw-kafka-client.js";
import { runCommand } from "./support/run-command.js";

const { KafkaErrorCode, CompressionCodec, encodeRecordBatch } = protocol;
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const running: InProcessBroker[] = [];
const clients: RawKafkaClient[] = [];
const fixture = new KafkajsFixture();

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
  await fixture.cleanup();
});

async function start(): Promise<{ bootstrap: string; client: RawKafkaClient }> {
  const broker = await startInProcess(testConfig("embedded"));
  running.push(broker);
  const client = await RawKafkaClient.connect(broker.bootstrap);
  clients.push(client);
  return { bootstrap: broker.bootstrap, client };
}

async function createTopic(client: RawKafkaClient, name: string, partitions: number): Promise<void> {
  const response = await client.request(19, 7, {
    topics: [{ name, numPartitions: partitions, replicationFactor: 1, assignments: [], configs: [] }],
    timeoutMs: 5000,
    validateOnly: false,
  });
  expect(response.topics[0]?.errorCode).toBe(0);
}

async function produce(client: RawKafkaClient, topic: string, partitions: ReadonlyArray<[number, Uint8Array]>) {
  const response = await client.request(0, 9, {
    transactionalId: null,
    acks: -1,
    timeoutMs: 5000,
    topicData: [{ name: topic, partitionData: partitions.map(([index, records]) => ({ index, records })) }],
  });
  return response.responses[0]?.partitionResponses ?? [];
}

async function kcatProduce(
  bootstrap: string,
  topic: string,
  lines: readonly string[],
  extra: readonly string[] = [],
): Promise<void> {
  const result = await runCommand("kcat", ["-b", bootstrap, "-P", "-t", topic, "-p", "0", "-X", "acks=all", ...extra], {
    input: `${lines.join("\n")}\n`,
    timeoutMs: 60_000,
  });
  expect(result.stderr.toString()).not.toMatch(/fail|error/i);
  expect(result.code).toBe(0);
}

async function kcatConsume(bootstrap: string, topic: string, count: number): Promise<string[]> {
  const result = await runCommand(
    "kcat",
    [
      "-b",
      bootstrap,
      "-C",
      "-t",
      topic,
      "-p",
      "0",
      "-o",
      "beginning",
      "-e",
      "-c",
      String(count),
      "-q",
      "-f",
      "%o %s\n",
    ],
    { timeoutMs: 60_000 },
  );
  expect(result.stderr.toString()).not.toMatch(/fail|error/i);
  expect(result.code).toBe(0);
  return result.stdout.toString("utf8").trimEnd().split("\n");
}

const batchOf = (values: readonly string[]): Uint8Array =>
  encodeRecordBatch({ baseTimestamp: Date.now(), records: values.map((value) => ({ value: utf8(value) })) });

describe("malformed Produce batches against the real broker", () => {
  test("each shape is refused with Kafka's code for its partition only, and kcat then reads offsets 0.. cleanly", async () => {
    const { bootstrap, client } = await start();
    const topic = `hostile-${randomBytes(4).toString("hex")}`;
    await createTopic(client, topic, 2);
    const one = batchOf(["w".repeat(60)]);
    const three = batchOf(["x".repeat(60), "y".repeat(60), "z".repeat(60)]);
    const overrun = sectionOf(one).slice();
    overrun[0] = (overrun[0] ?? 0) + 40;
    const shapes: ReadonlyArray<[string, Uint8Array, number]> = [
      ["count says 5, holds 1", forgeBatch(one, { recordCount: 5, lastOffsetDelta: 4 }), KafkaErrorCode.INVALID_RECORD],
      [
        "count says 1, holds 3",
        forgeBatch(three, { recordCount: 1, lastOffsetDelta: 0 }),
        KafkaErrorCode.INVALID_RECORD,
      ],
      [
        "trailing bytes",
        forgeBatch(one, { section: new Uint8Array([...sectionOf(one), 9, 9, 9]) }),
        KafkaErrorCode.INVALID_RECORD,
      ],
      [
        "out-of-order offset deltas",
        encodeRecordBatch({
          baseTimestamp: Date.now(),
          records: [{ value: utf8("p") }, { value: utf8("q"), offsetDelta: 2 }, { value: utf8("r"), offsetDelta: 1 }],
        }),
        KafkaErrorCode.INVALID_RECORD,
      ],
      ["record length overrun", forgeBatch(one, { section: overrun }), KafkaErrorCode.INVALID_RECORD],
      [
        "garbage gzip",
        forgeBatch(one, { compression: CompressionCodec.gzip, section: utf8("not gzip at all, not at all") }),
        KafkaErrorCode.CORRUPT_MESSAGE,
      ],
      [
        "garbage snappy",
        forgeBatch(one, { compression: CompressionCodec.snappy, section: utf8("\u0005not snappy at all") }),
        KafkaErrorCode.CORRUPT_MESSAGE,
      ],
      [
        "garbage lz4",
        forgeBatch(one, { compression: CompressionCodec.lz4, section: utf8("not an lz4 frame at all") }),
        KafkaErrorCode.CORRUPT_MESSAGE,
      ],
      [
        "garbage zstd",
        forgeBatch(one, { compression: CompressionCodec.zstd, section: utf8("not a zstd frame at all") }),
        KafkaErrorCode.CORRUPT_MESSAGE,
      ],
      [
        "gzip bomb",
        forgeBatch(one, { compression: CompressionCodec.gzip, section: gzipSync(new Uint8Array(65 << 20)) }),
        KafkaErrorCode.CORRUPT_MESSAGE,
      ],
    ];
    await kcatProduce(bootstrap, topic, ["before-0", "before-1"]);
    for (const [name, batch, errorCode] of shapes) {
      // Partition 1 gets a good batch in the same request: only partition 0 is refused.
      const [bad, good] = await produce(client, topic, [
        [0, batch],
        [1, batchOf([`beside ${name}`])],
      ]);
      expect({ name, errorCode: bad?.errorCode, baseOffset: bad?.baseOffset }).toEqual({
        name,
        errorCode,
        baseOffset: -1,
      });
      expect(good?.errorCode).toBe(0);
    }
    await kcatProduce(
      bootstrap,
      topic,
      Array.from({ length: 20 }, (_, index) => `after-${String(index)}`),
    );
    const expected = [
      ...["before-0", "before-1"],
      ...Array.from({ length: 20 }, (_, index) => `after-${String(index)}`),
    ].map((value, offset) => `${String(offset)} ${value}`);
    expect(await kcatConsume(bootstrap, topic, expected.length)).toEqual(expected);
  });

  test.each(["gzip", "snappy", "lz4", "zstd"])(
    "kcat's %s batches pass the record walk and read back with their offsets",
    async (codec) => {
      const { bootstrap, client } = await start();
      const topic = `codec-${codec}-${randomBytes(4).toString("hex")}`;
      await createTopic(client, topic, 1);
      const lines = Array.from({ length: 3000 }, (_, index) => `${codec}-${String(index)}-${"v".repeat(index % 200)}`);
      await kcatProduce(bootstrap, topic, lines, ["-z", codec, "-X", "linger.ms=20", "-X", "batch.num.messages=500"]);
      expect(await kcatConsume(bootstrap, topic, lines.length)).toEqual(
        lines.map((line, offset) => `${String(offset)} ${line}`),
      );
    },
  );

  test("kafkajs gzip batches are accepted and read back", async () => {
    const { kafka } = await fixture.start("embedded");
    const topic = `kafkajs-gzip-${randomBytes(4).toString("hex")}`;
    const admin = await fixture.admin(kafka);
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true })).toBe(true);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const sent = await producer.send({
      topic,
      acks: -1,
      compression: CompressionTypes.GZIP,
      messages: Array.from({ length: 50 }, (_, index) => ({ value: `g-${String(index)}` })),
    });
    await producer.disconnect();
    expect(sent[0]).toMatchObject({ errorCode: 0, baseOffset: "0" });
    expect(await admin.fetchTopicOffsets(topic)).toEqual([{ partition: 0, offset: "50", high: "50", low: "0" }]);
    const { received } = await fixture.readFromBeginning(kafka, topic);
    await waitFor("the 50 gzip records", () => received.length >= 50);
    expect(received).toEqual(Array.from({ length: 50 }, (_, index) => `${String(index)}:g-${String(index)}`));
  });
});
