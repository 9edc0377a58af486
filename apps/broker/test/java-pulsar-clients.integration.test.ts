// Apache Pulsar's Java client 4.2.4 (pulsar-client-original, the harness's "pulsar-client" Maven set) against the
// broker's Pulsar listener, on the embedded default and on etcd + s3proxy. The driver (clients/JavaPulsarClients.java)
// is compiled with javac per run and prints one line per fact; message payloads are derived from their index, and
// producer and consumers print a SHA-256 prefix of each payload, so "byte-identical" is checked per message.
// Counts: the produce/consume scenario sends 100,000 batched messages on the embedded default (10,000 on etcd +
// s3proxy) plus 2,000 unbatched ones to a 4-partition topic and consumes them through each subscription type; the
// consumer-group scenarios use 3,000 (Shared, Key_Shared) and 2,000 (Failover) unbatched messages, seeks 120, the
// redelivery scenarios 100, 100 and 50. Where Apache Pulsar 4.2.4 itself decides what the client sees (seek landings,
// redelivery counts) the expectations are what a standalone Apache Pulsar gave the same driver.
// With NEREUS_PULSAR_CONTROL_URL and NEREUS_PULSAR_CONTROL_ADMIN_PORT set (tooling/pulsar-baseline `pnpm control`),
// the same scenarios run against that broker instead, with the etcd + s3proxy counts: Apache Pulsar as the control.
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, type StorageKind, startInProcess, testConfig } from "./support/broker-fixture.js";
import {
  type DriverOptions,
  JavaPulsarDriver,
  type ReceivedMessage,
  type SentMessage,
  createPartitionedTopic,
  receivedMessages,
  sentMessages,
} from "./support/java-pulsar-driver.js";

let driver: JavaPulsarDriver;
const running: InProcessBroker[] = [];

beforeAll(async () => {
  driver = await JavaPulsarDriver.compile();
}, 600_000);
afterAll(() => driver.dispose());
afterEach(async () => {
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

interface Target {
  readonly url: string;
  readonly adminPort: number;
}

/** A broker started elsewhere (the Apache Pulsar control), when the environment names one. */
const control: Target | undefined = process.env["NEREUS_PULSAR_CONTROL_URL"]
  ? {
      url: process.env["NEREUS_PULSAR_CONTROL_URL"],
      adminPort: Number(process.env["NEREUS_PULSAR_CONTROL_ADMIN_PORT"]),
    }
  : undefined;

type TargetKind = StorageKind | "control";

async function startBroker(kind: TargetKind): Promise<Target> {
  if (kind === "control") return control!;
  const broker = await startInProcess(testConfig(kind, { overrides: { pulsar: { enabled: true, port: 0 } } }));
  running.push(broker);
  return { url: `pulsar://127.0.0.1:${String(broker.broker.pulsarPort)}`, adminPort: broker.broker.adminPort! };
}

function topicName(prefix: string): string {
  return `persistent://public/default/${prefix}-${randomBytes(4).toString("hex")}`;
}

async function produce(target: Target, topic: string, options: DriverOptions): Promise<SentMessage[]> {
  const lines = await driver.run("produce", { url: target.url, topic, ...options }, 170_000);
  const sent = sentMessages(lines);
  expect(lines.filter((line) => line.startsWith("SENDFAIL"))).toEqual([]);
  expect(sent).toHaveLength(Number(options["count"]));
  return sent;
}

interface Consumed {
  readonly received: ReceivedMessage[];
  readonly left: string[];
  readonly lines: string[];
}

async function consume(target: Target, topic: string, options: DriverOptions): Promise<Consumed> {
  const lines = await driver.run("consume", { url: target.url, topic, ...options }, 170_000);
  const left = lines.filter((line) => line.startsWith("LEFT ")).map((line) => line.split(" ")[1]!);
  expect(lines.at(-1)).toMatch(/^DONE /);
  return { received: receivedMessages(lines), left, lines };
}

/** Every sent message was received with the same message id, key and payload. */
function expectIdentical(sent: readonly SentMessage[], received: readonly ReceivedMessage[]): void {
  const byIndex = new Map(received.map((message) => [message.index, message]));
  const mismatched = sent.filter((message) => {
    const got = byIndex.get(message.index);
    return got?.sha !== message.sha || got.messageId !== message.messageId || got.key !== message.key;
  });
  expect(mismatched.slice(0, 5)).toEqual([]);
}

/** Within each group, in receive order, `rankOf` ascends strictly. */
function expectAscendingWithin(
  received: readonly ReceivedMessage[],
  groupOf: (message: ReceivedMessage) => string,
  rankOf: (message: ReceivedMessage) => number = (message) => message.index,
): void {
  const last = new Map<string, ReceivedMessage>();
  const disorders: string[] = [];
  for (const message of received) {
    const group = groupOf(message);
    const previous = last.get(group);
    if (previous !== undefined && rankOf(message) <= rankOf(previous)) {
      disorders.push(`${group}: ${message.messageId} (${String(message.index)}) after ${previous.messageId}`);
    }
    last.set(group, message);
  }
  expect(disorders.slice(0, 5)).toEqual([]);
}

/** A message's place in its partition: entry id, then batch index. */
function storageRank(message: ReceivedMessage): number {
  const [, entryId, , batchIndex] = message.messageId.split(":").map(Number);
  return entryId! * 1_000_000 + batchIndex! + 1;
}

async function waitUntil(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function countBy<T>(items: readonly T[], keyOf: (item: T) => string | number): Map<string | number, number> {
  const counts = new Map<string | number, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
}

const KINDS: TargetKind[] = control === undefined ? ["embedded", "cluster"] : ["control"];

describe.each<TargetKind>(KINDS)("Java pulsar-client 4.2.4 on the %s storage", (kind) => {
  const batched = kind === "embedded" ? 100_000 : 10_000;
  const unbatched = 2_000;

  test(`${String(batched)} batched and ${String(unbatched)} unbatched messages on 4 partitions come back byte-identical through Exclusive, Failover, Shared and Key_Shared`, async () => {
    const target = await startBroker(kind);
    const topic = topicName("java-all");
    await createPartitionedTopic(target.adminPort, topic, 4);
    const sent = [
      ...(await produce(target, topic, { count: batched, batching: true, keys: 64, name: "batched" })),
      ...(await produce(target, topic, { start: batched, count: unbatched, batching: false, keys: 64, name: "plain" })),
    ];
    expect(new Set(sent.map((message) => message.partition))).toEqual(new Set([0, 1, 2, 3]));
    expect(sent.some((message) => !message.messageId.endsWith(":-1"))).toBe(true);
    const types = ["Exclusive", "Failover", "Shared", "Key_Shared"];
    const runs = await Promise.all(
      types.map((type) => consume(target, topic, { sub: `sub-${type}`, type, count: sent.length })),
    );
    for (const [index, { received }] of runs.entries()) {
      const type = types[index]!;
      expect(received, type).toHaveLength(sent.length);
      expectIdentical(sent, received);
      // A key's messages keep their send order (key-based batching, key-routed partitions); Exclusive and Failover
      // also deliver each partition in storage order.
      if (type !== "Shared") expectAscendingWithin(received, (message) => message.key);
      if (type === "Exclusive" || type === "Failover") {
        expectAscendingWithin(received, (message) => String(message.partition), storageRank);
      }
    }
  });

  test("Shared: 3 consumers get each message exactly once; one leaving hands its unacknowledged messages to the others", async () => {
    const target = await startBroker(kind);
    const topic = topicName("java-shared");
    const count = 3_000;
    const sent = await produce(target, topic, { count, batching: false });
    const options = { sub: "shared", type: "Shared", consumers: 3, count, queue: 100, leaveAfter: 300 };
    const { received, left } = await consume(target, topic, { ...options, leaveUnacked: 30 });
    expect(left).toHaveLength(1);
    const leaver = left[0]!;
    const kept = new Set(received.filter((message) => message.verdict === "keep").map((message) => message.index));
    expect(kept.size).toBe(30);
    expectIdentical(sent, received);
    const deliveries = countBy(received, (message) => message.index);
    expect(deliveries.size).toBe(count);
    const twice = [...deliveries].filter(([, times]) => times !== 1).map(([index]) => index);
    expect(new Set(twice)).toEqual(kept);
    expect(Math.max(...deliveries.values())).toBe(2);
    // The kept messages came back to the other consumers, as first deliveries (a consumer leaving counts none).
    const again = received.filter((message) => kept.has(message.index) && message.consumer !== leaver);
    expect(again).toHaveLength(30);
    expect(again.every((message) => message.redeliveryCount === 0)).toBe(true);
    expect(countBy(received, (message) => message.consumer).size).toBe(3);
  });

  test("Key_Shared: per-key order holds across 3 consumers while one leaves with unacknowledged messages", async () => {
    const target = await startBroker(kind);
    const topic = topicName("java-keys");
    const count = 3_000;
    const sent = await produce(target, topic, { count, batching: false, keys: 16 });
    const options = { sub: "keys", type: "Key_Shared", consumers: 3, count, queue: 100, leaveAfter: 300 };
    const { received, left } = await consume(target, topic, { ...options, leaveUnacked: 30 });
    expect(left).toHaveLength(1);
    expectIdentical(sent, received);
    const kept = new Set(received.filter((message) => message.verdict === "keep").map((message) => message.index));
    const deliveries = countBy(received, (message) => message.index);
    expect(deliveries.size).toBe(count);
    expect(new Set([...deliveries].filter(([, times]) => times > 1).map(([index]) => index))).toEqual(kept);
    // Each consumer saw each key in order, and across consumers the last delivery of every message is in key order.
    expectAscendingWithin(received, (message) => `${message.consumer}/${message.key}`);
    const lastDelivery = new Map(received.map((message, position) => [message.index, position]));
    const final = received.filter((message, position) => lastDelivery.get(message.index) === position);
    expectAscendingWithin(final, (message) => message.key);
    expect(countBy(received, (message) => message.consumer).size).toBe(3);
  });

  test("Failover on 4 partitions: when an active consumer leaves, the other takes its partitions from the first unacknowledged message", async () => {
    const target = await startBroker(kind);
    const topic = topicName("java-failover");
    await createPartitionedTopic(target.adminPort, topic, 4);
    const count = 2_000;
    // Both consumers subscribe before anything is produced, so each partition has had one active consumer only.
    const options = { sub: "failover", type: "Failover", consumers: 2, count, queue: 50, leaveAfter: 200 };
    const consuming = driver.spawn("consume", { url: target.url, topic, ...options, leaveUnacked: 20 }, 150_000);
    await waitUntil("both consumers subscribed", () => consuming.lines.includes("SUBSCRIBED"));
    const sent = await produce(target, topic, { count, batching: false });
    expect(await consuming.exited, consuming.stderr()).toBe(0);
    const received = receivedMessages(consuming.lines);
    const left = consuming.lines.filter((line) => line.startsWith("LEFT ")).map((line) => line.split(" ")[1]!);
    expect(left).toHaveLength(1);
    const leaver = left[0]!;
    expectIdentical(sent, received);
    const byLeaver = received.filter((message) => message.consumer === leaver);
    const byOther = received.filter((message) => message.consumer !== leaver);
    // The partitions were spread, two to each consumer, as Apache Pulsar assigns them.
    expect(new Set(byLeaver.map((message) => message.partition)).size).toBe(2);
    for (const partition of [0, 1, 2, 3]) {
      const acked = new Set(
        byLeaver
          .filter((message) => message.partition === partition && message.verdict === "ack")
          .map((message) => message.index),
      );
      const expected = sent
        .filter((message) => message.partition === partition && !acked.has(message.index))
        .map((message) => message.index);
      const got = byOther.filter((message) => message.partition === partition).map((message) => message.index);
      expect(got, `partition ${String(partition)}`).toEqual(expected);
    }
  });

  test("seek by message id and by publish time lands where Apache Pulsar lands", async () => {
    const target = await startBroker(kind);
    const topic = topicName("java-seek");
    await produce(target, topic, { count: 60, batching: false, delayMs: 3 });
    await produce(target, topic, { start: 60, count: 60, batching: true, batchMax: 10 });
    const { received } = await consume(target, topic, { sub: "all", type: "Exclusive", count: 120 });
    const at = new Map(received.map((message) => [message.index, message]));
    const entryOf = (index: number): string => at.get(index)!.messageId.split(":").slice(0, 3).join(":");
    const firstOfEntry = Math.min(...received.filter((m) => entryOf(m.index) === entryOf(85)).map((m) => m.index));
    expect(at.get(29)!.publishTime).toBeLessThan(at.get(30)!.publishTime);
    const firstAtOrAfter = (time: number): number =>
      Math.min(...received.filter((message) => message.publishTime >= time).map((message) => message.index));
    const seeks: [string, number][] = [
      // Apache Pulsar: the client drops the message sought unless the consumer was built startMessageIdInclusive().
      [`id:${at.get(30)!.messageId}`, 31],
      [`id:${at.get(30)!.messageId}:inclusive`, 30],
      [`id:${at.get(85)!.messageId}`, 86],
      [`id:${at.get(85)!.messageId}:inclusive`, 85],
      // The entry of a batch without a batch index: the batch from its first message.
      [`id:${entryOf(85)}:-1`, firstOfEntry],
      // By publish time: the first entry published at or after it.
      [`time:${String(at.get(30)!.publishTime)}`, 30],
      [`time:${String(at.get(85)!.publishTime)}`, firstAtOrAfter(at.get(85)!.publishTime)],
    ];
    const lines = await driver.run("seek", {
      url: target.url,
      topic,
      sub: "seek",
      count: 2,
      seeks: seeks.map(([seek]) => seek).join(","),
    });
    expect(lines.filter((line) => line.startsWith("SEEKED "))).toHaveLength(seeks.length);
    const landings = seeks.map((_, index) =>
      receivedMessages(lines)
        .filter((message) => message.consumer === `seek${String(index)}`)
        .map((message) => message.index),
    );
    expect(landings).toEqual(seeks.map(([, first]) => [first, first + 1]));
  });

  test("negative acks and ack timeouts redeliver with a redelivery count; a dead-letter topic gets what exceeded maxRedeliverCount", async () => {
    const target = await startBroker(kind);
    const topic = topicName("java-redeliver");
    const sent = await produce(target, topic, { count: 100, batching: false });
    const shared = { type: "Shared", count: 100 };
    const [nacked, timedOut, deadLettered] = await Promise.all([
      consume(target, topic, { ...shared, sub: "n", ack: "redelivered", nack: true, until: "acked" }),
      consume(target, topic, { ...shared, sub: "t", ack: "redelivered", ackTimeoutMs: 1_000, until: "acked" }),
      // Always nacked: after maxRedeliverCount redeliveries the client moves the message to the dead-letter topic.
      consume(target, topic, {
        ...shared,
        count: 300,
        until: "deliveries",
        sub: "d",
        ack: "none",
        nack: true,
        nackDelayMs: 100,
        dlqMax: 2,
        settleMs: 2_000,
      }),
    ]);
    for (const [run, first] of [
      [nacked, "nack"],
      [timedOut, "keep"],
    ] as const) {
      const byIndex = countBy(run.received, (message) => `${String(message.redeliveryCount)} ${message.verdict}`);
      expect(Object.fromEntries(byIndex)).toEqual({ [`0 ${first}`]: 100, "1 ack": 100 });
    }
    const attempts = countBy(deadLettered.received, (message) => message.redeliveryCount);
    expect(Object.fromEntries(attempts)).toEqual({ 0: 100, 1: 100, 2: 100 });
    // The client moved each message to <topic>-<subscription>-DLQ and acknowledged it on the subscription.
    const dlq = await consume(target, `${topic}-d-DLQ`, { sub: "dlq", type: "Exclusive", count: 100 });
    expect(dlq.received).toHaveLength(100);
    expectIdentical(
      sent,
      dlq.received.map((message) => ({ ...message, messageId: sent[message.index]!.messageId })),
    );
    const after = await consume(target, topic, { sub: "d", type: "Shared", count: 1, idleMs: 2_000 });
    expect(after.received).toEqual([]);
  });
});
