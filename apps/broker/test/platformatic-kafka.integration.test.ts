// @platformatic/kafka 1.35.0, a pure-TypeScript client on flexible protocol versions: admin createTopics and
// Metadata v12, an idempotent producer (InitProducerId, Produce v9+), and a consumer group on the flexible group
// APIs (FindCoordinator v4 batches, JoinGroup v6+ with MEMBER_ID_REQUIRED, SyncGroup v5, Heartbeat v4, LeaveGroup
// v4+, OffsetCommit/OffsetFetch v8+): two members split the partitions, one leaves, the other takes over, and the
// offsets it commits are read back. Consuming records with this client needs Fetch v13+ (it always addresses
// fetches by topic id), which the broker does not advertise yet; the records are checked with kcat instead.
import { randomBytes } from "node:crypto";
import { Admin, Consumer, Producer, stringSerializers } from "@platformatic/kafka";
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
  return (consumer.assignments ?? []).filter((assignment) => assignment.topic === topic).flatMap((assignment) => assignment.partitions).sort();
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

    const producer = new Producer({ clientId: "plt-producer", bootstrapBrokers, serializers: stringSerializers, idempotent: true, acks: -1 });
    closers.push(() => producer.close());
    const messages = Array.from({ length: COUNT }, (_, index) => ({ topic, partition: index % 3, key: `k-${String(index)}`, value: `v-${String(index)}`, headers: new Map([["index", String(index)]]) }));
    for (let start = 0; start < COUNT; start += 100) await producer.send({ messages: messages.slice(start, start + 100) });
    const consumed = await runCommand("kcat", ["-b", broker.bootstrap, "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%k=%s %h\n"], { timeoutMs: 60_000 });
    const lines = new Set(consumed.stdout.toString("utf8").split("\n").filter((line) => line.length > 0));
    expect(lines.size).toBe(COUNT);
    for (let index = 0; index < COUNT; index += 1) expect(lines.has(`k-${String(index)}=v-${String(index)} index=${String(index)}`)).toBe(true);

    const groupId = `plt-group-${randomBytes(3).toString("hex")}`;
    const member = (clientId: string): Consumer => {
      const consumer = new Consumer({ groupId, clientId, bootstrapBrokers, sessionTimeout: 10_000, heartbeatInterval: 300, rebalanceTimeout: 10_000 });
      consumer.topics.track(topic);
      closers.push(() => consumer.close());
      return consumer;
    };
    const alice = member("plt-alice");
    const bob = member("plt-bob");
    await Promise.all([alice.joinGroup(), bob.joinGroup()]);
    await waitFor("both members assigned", () => partitionsOf(alice, topic).length + partitionsOf(bob, topic).length === 3 && alice.generationId === bob.generationId);
    expect([...partitionsOf(alice, topic), ...partitionsOf(bob, topic)].sort()).toEqual([0, 1, 2]);

    await alice.leaveGroup();
    await waitFor("bob owns every partition", () => partitionsOf(bob, topic).length === 3);
    await bob.commit({ offsets: [0, 1, 2].map((partition) => ({ topic, partition, offset: BigInt(100 + partition), leaderEpoch: 0 })) });
    const committed = await bob.listCommittedOffsets({ topics: [{ topic, partitions: [0, 1, 2] }] });
    expect(committed.get(topic)).toEqual([100n, 101n, 102n]);
  });
});
