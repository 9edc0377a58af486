// Storage reclamation of the BookKeeper profiles seen from Kafka clients (kafkajs 2.2.4), on etcd + s3proxy +
// ZooKeeper + three bookies: a topic on BOOKKEEPER_WAL_ONLY whose ledgers roll over every 4 entries (one entry per
// acks=-1 batch) loses, after DeleteRecords, exactly the ledgers wholly below the new log start — they leave
// BookKeeper's metadata (the bookies garbage-collect their entries) — while every record from the log start on reads
// back byte for byte. A restarted broker's start-up pass sweeps the ledgers: one of this cluster that never got a
// root (an allocation that crashed) is deleted, and the pass logs what it resumed. The ledger inventory is read from
// outside the broker (ZooKeeper, through @nereus/bookkeeper's client).
import { randomBytes } from "node:crypto";
import { type BookKeeperClient, createBookKeeperClient } from "@nereus/bookkeeper";
import { loadServices } from "@nereus/test-services";
import type { Kafka } from "kafkajs";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import type { BrokerConfigInput } from "../src/index.js";
import { KafkajsFixture, waitFor } from "./support/kafkajs-fixture.js";

const services = loadServices();
const fixture = new KafkajsFixture();
const PASSWORD = `pw-${randomBytes(6).toString("hex")}`;
const RECORD_BYTES = 2_048;
const RECORDS_PER_BATCH = 4;
const ENTRIES_PER_LEDGER = 4;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

function inspector(): BookKeeperClient {
  const { zookeeper, bookkeeper } = services;
  if (zookeeper === undefined || bookkeeper === undefined) throw new Error("the test services run no BookKeeper");
  return createBookKeeperClient({
    zooKeeperConnectString: zookeeper.connectString,
    ledgersRoot: bookkeeper.zkLedgersRoot,
  });
}
const bk = inspector();

afterEach(() => fixture.cleanup());
afterAll(() => bk.close());

/** The ledgers BookKeeper holds for `cluster` (custom metadata `nereus.cluster`), by id. */
async function ledgersOf(cluster: string): Promise<Set<bigint>> {
  const found = new Set<bigint>();
  for await (const ledgerId of bk.listLedgerIds()) {
    const metadata = await bk.getLedgerMetadata(ledgerId);
    const owner = metadata?.metadata.customMetadata["nereus.cluster"];
    if (owner !== undefined && decoder.decode(owner) === cluster) found.add(ledgerId);
  }
  return found;
}

function storage(): BrokerConfigInput["storage"] {
  const { zookeeper, bookkeeper } = services;
  if (zookeeper === undefined || bookkeeper === undefined) throw new Error("the test services run no BookKeeper");
  return {
    defaultProfile: "BOOKKEEPER_WAL_ONLY",
    bookkeeper: {
      zooKeeper: zookeeper.connectString,
      ledgersRoot: bookkeeper.zkLedgersRoot,
      password: PASSWORD,
      ledgerRollover: { maxEntries: ENTRIES_PER_LEDGER },
    },
    reclamation: { graceMs: 500, minObjectAgeMs: 0, intervalMs: 1_000, orphanAgeMs: 0 },
  };
}

async function produceBatches(kafka: Kafka, topic: string, batches: number): Promise<Buffer[]> {
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const values: Buffer[] = [];
  try {
    for (let batch = 0; batch < batches; batch++) {
      const messages = Array.from({ length: RECORDS_PER_BATCH }, () => randomBytes(RECORD_BYTES));
      await producer.send({ topic, acks: -1, messages: messages.map((value) => ({ value })) });
      values.push(...messages);
    }
  } finally {
    await producer.disconnect();
  }
  return values;
}

async function expectReadBack(kafka: Kafka, topic: string, values: Buffer[], logStart: number): Promise<void> {
  const received = new Map<number, Buffer>();
  const consumer = fixture.consumer(kafka);
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      received.set(Number(message.offset), message.value ?? Buffer.alloc(0));
    },
  });
  await waitFor("every retained record", () => received.size >= values.length - logStart);
  await consumer.stop();
  expect([...received.keys()].sort((a, b) => a - b)).toEqual(
    Array.from({ length: values.length - logStart }, (_, index) => logStart + index),
  );
  for (const [offset, value] of received) expect(value.equals(values[offset] as Buffer)).toBe(true);
}

function sample(scrape: string, name: string, labels = ""): number {
  const line = scrape.split("\n").find((candidate) => candidate.startsWith(`${name}${labels} `));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("storage reclamation of the BookKeeper profiles", () => {
  test("DeleteRecords deletes the ledgers below the log start; a restart's start-up pass deletes an orphan ledger", async () => {
    const { broker, kafka } = await fixture.start("cluster", { storage: storage(), log: { level: "info" } });
    const cluster = String(broker.config.cluster);
    const topic = `ledgers-${randomBytes(4).toString("hex")}`;
    const admin = await fixture.admin(kafka);
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true })).toBe(true);
    const batches = 3 * ENTRIES_PER_LEDGER;
    const values = await produceBatches(kafka, topic, batches);
    const before = await ledgersOf(cluster);
    expect(before.size).toBeGreaterThanOrEqual(3);

    // The first two ledgers hold batches 0..7 and go; the third keeps batch 8's range and the ones after it.
    const logStart = (2 * ENTRIES_PER_LEDGER + 1) * RECORDS_PER_BATCH;
    expect((await admin.fetchTopicOffsets(topic))[0]?.high).toBe(String(values.length));
    await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: String(logStart) }] });
    const oldest = [...before].sort((a, b) => (a < b ? -1 : 1)).slice(0, 2);
    let after = before;
    await waitFor(
      "the two ledgers below the log start to leave BookKeeper",
      async () => {
        after = await ledgersOf(cluster);
        return oldest.every((ledgerId) => !after.has(ledgerId));
      },
      30_000,
    );
    expect(after.size).toBe(before.size - 2);
    console.log(
      `DeleteRecords on BOOKKEEPER_WAL_ONLY: ${String(before.size)} ledgers before, ${String(after.size)} after`,
    );
    await expectReadBack(kafka, topic, values, logStart);
    const scrape = await (await fetch(`http://127.0.0.1:${String(broker.broker.adminPort)}/metrics`)).text();
    expect(sample(scrape, "nereus_reclamation_objects_freed_total", '{kind="BOOKKEEPER_LEDGER"}')).toBe(2);
    expect(sample(scrape, "nereus_reclamation_failures_total")).toBe(0);

    // An allocation that crashed between creating its ledger and writing the root leaves a ledger naming this cluster.
    const orphan = await bk.createLedger({
      password: PASSWORD,
      customMetadata: {
        "nereus.cluster": encoder.encode(cluster),
        "nereus.stream": encoder.encode(`orphan-${randomBytes(4).toString("hex")}`),
        "nereus.segment": encoder.encode("0"),
        "nereus.allocation": encoder.encode(randomBytes(8).toString("hex")),
        "nereus.writer": encoder.encode("crashed-broker@1"),
      },
    });
    await orphan.addEntry(encoder.encode("never committed"));
    await broker.broker.close();
    const restarted = await fixture.start("cluster", { cluster, storage: storage(), log: { level: "info" } });
    await waitFor(
      "the start-up pass",
      () => restarted.broker.logs.some((line) => line.includes("storage reclamation start-up pass")),
      30_000,
    );
    const pass = restarted.broker.logs.find((line) => line.includes("storage reclamation start-up pass")) ?? "";
    expect(JSON.parse(pass)).toMatchObject({ orphanLedgersFound: 1, failures: 0 });
    expect(await bk.getLedgerMetadata(orphan.ledgerId)).toBeUndefined();
    await expectReadBack(restarted.kafka, topic, values, logStart);
  }, 85_000);
});
