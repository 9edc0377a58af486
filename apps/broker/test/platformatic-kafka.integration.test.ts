// @platformatic/kafka 1.35.0, a pure-TypeScript client on flexible protocol versions: admin createTopics and
// Metadata v12, an idempotent producer (InitProducerId, Produce v9+), and a consumer group on the flexible group
// APIs (FindCoordinator v4 batches, JoinGroup v6+ with MEMBER_ID_REQUIRED, SyncGroup v5, Heartbeat v4, LeaveGroup
// v4+, OffsetCommit/OffsetFetch v8+): two members split the partitions, one leaves, the other takes over, and the
// offsets it commits are read back. Its consumer reads every record back through Fetch v13+ (it always addresses
// fetches by topic id; the broker resolves the ids Metadata reported), checked against kcat's view of the topic.
import { randomBytes } from "node:crypto";
import {
  Admin,
  Consumer,
  type Message,
  MessagesStreamModes,
  Producer,
  stringDeserializers,
  stringSerializers,
} from "@platformatic/kafka";
import { afterEach, describe, expect, test } from "vitest";
import { type InProcessBroker, type StorageKind, startInProcess, testConfig } from "./support/broker-fixture.js";
import { runCommand } from "./support/run-command.js";

const COUNT = 300;
const running: InProcessBroker[] = [];
const closers: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

async function waitFor(what: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function partitionsOf(consumer: Consumer, topic: string): number[] {
  return (consumer.assignments ?? [])
    .filter((assignment) => assignment.topic === topic)
    .flatMap((assignment) => assignment.partitions)
    .sort();
}

describe.each<StorageKind>(["embedded", "cluster"])("@platformatic/kafka on the %s storage", (kind) => {
  test("admin, idempotent producer and a consumer group on flexible versions", async () => {
    const broker = await startInProcess(testConfig(kind));
    running.push(broker);
    const topic = `plt-${randomBytes(4).toString("hex")}`;
    const bootstrapBrokers = [broker.bootstrap];

    const admin = new Admin({ clientId: "plt-admin", bootstrapBrokers });
    closers.push(() => admin.close());
    await admin.createTopics({ topics: [topic], partitions: 3, replicas: 1 });
    expect((await admin.metadata({ topics: [topic] })).topics.get(topic)?.partitionsCount).toBe(3);

    const producer = new Producer({
      clientId: "plt-producer",
      bootstrapBrokers,
      serializers: stringSerializers,
      idempotent: true,
      acks: -1,
    });
    closers.push(() => producer.close());
    const messages = Array.from({ length: COUNT }, (_, index) => ({
      topic,
      partition: index % 3,
      key: `k-${String(index)}`,
      value: `v-${String(index)}`,
      headers: new Map([["index", String(index)]]),
    }));
    for (let start = 0; start < COUNT; start += 100)
      await producer.send({ messages: messages.slice(start, start + 100) });
    const consumed = await runCommand(
      "kcat",
      ["-b", broker.bootstrap, "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%k=%s %h\n"],
      { timeoutMs: 60_000 },
    );
    const lines = new Set(
      consumed.stdout
        .toString("utf8")
        .split("\n")
        .filter((line) => line.length > 0),
    );
    expect(lines.size).toBe(COUNT);
    for (let index = 0; index < COUNT; index += 1)
      expect(lines.has(`k-${String(index)}=v-${String(index)} index=${String(index)}`)).toBe(true);

    // The client's own consumer (Fetch by topic id, v13+) reads every record once, with keys, values and headers,
    // from the partition and in the order it was produced to.
    const reader = new Consumer({
      groupId: `plt-reader-${randomBytes(3).toString("hex")}`,
      clientId: "plt-reader",
      bootstrapBrokers,
      deserializers: stringDeserializers,
      autocommit: false,
      sessionTimeout: 10_000,
      heartbeatInterval: 300,
      rebalanceTimeout: 10_000,
    });
    closers.push(
      () =>
        new Promise<void>((resolve, reject) =>
          reader.close(true, (error) => (error === null || error === undefined ? resolve() : reject(error))),
        ),
    );
    const read: Array<Message<string, string, string, string>> = [];
    const stream = await reader.consume({ topics: [topic], mode: MessagesStreamModes.EARLIEST, maxWaitTime: 500 });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`read ${String(read.length)} of ${String(COUNT)} records within 60 s`)),
        60_000,
      );
      stream.on("error", (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
      stream.on("data", (message: Message<string, string, string, string>) => {
        read.push(message);
        if (read.length === COUNT) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    await stream.close();
    expect(
      read.map((message) => `${message.key}=${message.value} index=${message.headers.get("index") ?? "?"}`).sort(),
    ).toEqual([...lines].sort());
    for (const partition of [0, 1, 2]) {
      const records = read.filter((message) => message.partition === partition);
      expect(records.map((message) => message.offset)).toEqual(records.map((_, index) => BigInt(index)));
      expect(
        records.every((message) => message.topic === topic && Number(message.key.slice(2)) % 3 === partition),
      ).toBe(true);
    }

    const groupId = `plt-group-${randomBytes(3).toString("hex")}`;
    const member = (clientId: string): Consumer => {
      const consumer = new Consumer({
        groupId,
        clientId,
        bootstrapBrokers,
        sessionTimeout: 10_000,
        heartbeatInterval: 300,
        rebalanceTimeout: 10_000,
      });
      consumer.topics.track(topic);
      closers.push(() => consumer.close());
      return consumer;
    };
    const alice = member("plt-alice");
    const bob = member("plt-bob");
    await Promise.all([alice.joinGroup(), bob.joinGroup()]);
    await waitFor(
      "both members assigned",
      () =>
        partitionsOf(alice, topic).length + partitionsOf(bob, topic).length === 3 &&
        alice.generationId === bob.generationId,
    );
    expect([...partitionsOf(alice, topic), ...partitionsOf(bob, topic)].sort()).toEqual([0, 1, 2]);

    await alice.leaveGroup();
    await waitFor("bob owns every partition", () => partitionsOf(bob, topic).length === 3);
    await bob.commit({
      offsets: [0, 1, 2].map((partition) => ({ topic, partition, offset: BigInt(100 + partition), leaderEpoch: 0 })),
    });
    const committed = await bob.listCommittedOffsets({ topics: [{ topic, partitions: [0, 1, 2] }] });
    expect(committed.get(topic)).toEqual([100n, 101n, 102n]);
  });
});
