// Real clients against createKafkaBroker through an in-test TCP listener, on the in-memory metadata store and
// memory WAL (@nereus/kafka may not import a concrete provider, even in tests; apps/broker runs the same clients
// on SQLite + filesystem and on etcd + S3). kcat (librdkafka 2.0.2) produces 10,000 keyed messages with headers
// and consumes them back byte-identical, also with an idempotent producer and gzip; kafkajs 2.2.4 produces
// idempotently and consumes through a consumer group (the group coordinator as groupHandlers).
import { randomBytes } from "node:crypto";
import { InMemoryMetadataStore, MemoryWalProvider } from "@nereus/core/testing";
import { afterEach, describe, expect, test } from "vitest";
import { createGroupCoordinator, type GroupCoordinator } from "../src/groups/group-coordinator.js";
import { readRecordBatchHeader } from "../src/protocol/records/record-batch-header.js";
import { BrokerHarness } from "./broker-harness.js";
import { spawn } from "node:child_process";
import { KCAT } from "./client-scenarios.js";
import { type TestListener, startTestListener } from "./tcp-listener.js";

interface Running {
  readonly harness: BrokerHarness;
  readonly listener: TestListener;
  readonly coordinator: GroupCoordinator;
  readonly bootstrap: string;
}

let running: Running | undefined;
afterEach(async () => {
  if (running === undefined) return;
  expect(running.harness.errors()).toEqual([]);
  await running.listener.close();
  await running.coordinator.close();
  await running.harness.close();
  running = undefined;
});

async function start(): Promise<Running> {
  const listener = await startTestListener();
  const metadata = new InMemoryMetadataStore();
  const coordinator = createGroupCoordinator({
    metadata,
    cluster: "kafka-test",
    nodeId: 1,
    host: "127.0.0.1",
    port: listener.port,
    initialRebalanceDelayMs: 0,
  });
  const harness = new BrokerHarness(
    { advertisedPort: listener.port, groupHandlers: coordinator.handlers, maxFetchWaitMs: 500 },
    {},
    { metadata, objectWal: new MemoryWalProvider({ walKind: "OBJECT" }) },
  );
  listener.serve(harness.broker);
  running = { harness, listener, coordinator, bootstrap: `127.0.0.1:${String(listener.port)}` };
  return running;
}

/** Runs kcat to completion (killed after `timeoutMs`); stdout is kept as raw bytes. */
function runKcat(
  args: readonly string[],
  input?: string,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(KCAT, args, { stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(stdout), stderr });
    });
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(input);
  });
}

/** 10,000 lines `key-i:value-i …` with varied printable content (kcat -P is line based). */
function messages(count: number): Array<{ key: string; value: string }> {
  return Array.from({ length: count }, (_, index) => ({
    key: `key-${String(index % 97)}`,
    value: `value-${String(index)}-${randomBytes(8 + (index % 40)).toString("base64")}-ünïcødé`,
  }));
}

describe("kcat (librdkafka 2.0.2)", () => {
  for (const variant of [
    { name: "plain", args: [] as string[], idempotent: false, compression: 0 },
    {
      name: "idempotent, gzip",
      args: ["-X", "enable.idempotence=true", "-z", "gzip"],
      idempotent: true,
      compression: 1,
    },
  ]) {
    test(`produces 10,000 messages with keys and headers and consumes them back byte-identical (${variant.name})`, async () => {
      const { bootstrap, harness } = await start();
      const topic = `kcat-${variant.name.replaceAll(/[^a-z]/g, "")}`;
      const sent = messages(10_000);
      const input = sent.map((message) => `${message.key}:${message.value}\n`).join("");
      const produced = await runKcat(
        [
          "-b",
          bootstrap,
          "-P",
          "-t",
          topic,
          "-K",
          ":",
          "-H",
          "source=kcat",
          "-H",
          "trace=ab\u00e7",
          "-X",
          "linger.ms=20",
          ...variant.args,
        ],
        input,
      );
      expect(produced.code, produced.stderr).toBe(0);
      const consumed = await runKcat([
        "-b",
        bootstrap,
        "-C",
        "-t",
        topic,
        "-o",
        "beginning",
        "-e",
        "-f",
        "%o|%k|%s|%h\n",
      ]);
      expect(consumed.code, consumed.stderr).toBe(0);
      // Byte-identical: the consumed bytes are exactly the produced keys, values and headers, at offsets 0..9999.
      const expected = sent
        .map((message, offset) => `${String(offset)}|${message.key}|${message.value}|source=kcat,trace=ab\u00e7\n`)
        .join("");
      expect(consumed.stdout.equals(Buffer.from(expected, "utf8"))).toBe(true);
      // The batches were stored as produced: compressed by the client, with a producer id when idempotent.
      const stored = await harness.connect().fetch(topic, 0, 0, { partitionMaxBytes: 64 * 1024 });
      const header = readRecordBatchHeader(stored?.records ?? new Uint8Array());
      expect(header.compression).toBe(variant.compression);
      expect(header.producerId >= 0n).toBe(variant.idempotent);
      const initProducerIds = harness.broker.metrics
        .collect()
        .find((family) => family.name === "nereus_kafka_requests_total")
        ?.samples.find((sample) => sample.labels["api"] === "InitProducerId");
      expect((initProducerIds?.value ?? 0) > 0).toBe(variant.idempotent);
    }, 120_000);
  }
});

describe("kafkajs 2.2.4", () => {
  test("an idempotent producer and a consumer group member see every message once, in order", async () => {
    const { bootstrap } = await start();
    const { Kafka, logLevel } = await import("kafkajs");
    const kafka = new Kafka({ clientId: "nereus-test", brokers: [bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: "kafkajs", numPartitions: 2 }] });
    await admin.disconnect();
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const sent: string[] = [];
    for (let batch = 0; batch < 20; batch += 1) {
      const messages = Array.from({ length: 50 }, (_, index) => {
        const value = `m-${String(batch * 50 + index)}`;
        sent.push(value);
        return { key: `k${String(index % 5)}`, value, headers: { batch: String(batch) } };
      });
      await producer.send({ topic: "kafkajs", messages });
    }
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: "kafkajs-group", maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic: "kafkajs", fromBeginning: true });
    const received: Array<{ partition: number; offset: string; key: string; value: string; batch: string }> = [];
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ partition, message }) => {
            received.push({
              partition,
              offset: message.offset,
              key: message.key?.toString() ?? "",
              value: message.value?.toString() ?? "",
              batch: message.headers?.["batch"]?.toString() ?? "",
            });
            if (received.length === sent.length) resolve();
          },
        })
        .catch(reject);
    });
    await consumer.disconnect();
    expect(received.map((message) => message.value).sort()).toEqual([...sent].sort());
    for (const partition of [0, 1]) {
      const ofPartition = received.filter((message) => message.partition === partition);
      expect(ofPartition.map((message) => Number(message.offset))).toEqual(ofPartition.map((_, index) => index));
      // Within a partition the order is the send order.
      const order = ofPartition.map((message) => sent.indexOf(message.value));
      expect([...order].sort((left, right) => left - right)).toEqual(order);
    }
    expect(received.every((message) => message.batch === String(Math.floor(Number(message.value.slice(2)) / 50)))).toBe(
      true,
    );
  }, 120_000);
});
