// kafkajs 2.2.4: a producer and a consumer group of two members share a 4-partition topic; one member leaves and
// the other takes over its partitions; committed offsets survive a broker restart, so a new member of the
// group resumes exactly after what was consumed. On the embedded default and on etcd + s3proxy.
import { randomBytes } from "node:crypto";
import { type Consumer, Kafka, logLevel } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import {
  type InProcessBroker,
  type StorageKind,
  freePort,
  startInProcess,
  testConfig,
} from "./support/broker-fixture.js";

const running: InProcessBroker[] = [];
const consumers: Consumer[] = [];

afterEach(async () => {
  for (const consumer of consumers.splice(0)) await consumer.disconnect().catch(() => undefined);
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

function client(bootstrap: string, clientId: string): Kafka {
  return new Kafka({
    clientId,
    brokers: [bootstrap],
    logLevel: logLevel.NOTHING,
    retry: { retries: 10, initialRetryTime: 100, maxRetryTime: 1_000 },
  });
}

async function waitFor(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Member {
  readonly consumer: Consumer;
  readonly received: string[];
  assigned: number[];
}

async function member(kafka: Kafka, groupId: string, topic: string): Promise<Member> {
  const consumer = kafka.consumer({
    groupId,
    sessionTimeout: 10_000,
    heartbeatInterval: 500,
    rebalanceTimeout: 10_000,
    maxWaitTimeInMs: 200,
  });
  consumers.push(consumer);
  const state: Member = { consumer, received: [], assigned: [] };
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    state.assigned = [...(event.payload.memberAssignment[topic] ?? [])].sort();
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      state.received.push(message.value?.toString() ?? "");
    },
  });
  return state;
}

async function produce(kafka: Kafka, topic: string, values: readonly string[]): Promise<void> {
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    for (let start = 0; start < values.length; start += 50) {
      await producer.send({
        topic,
        acks: -1,
        messages: values
          .slice(start, start + 50)
          .map((value) => ({ key: value, value, headers: { origin: "kafkajs" } })),
      });
    }
  } finally {
    await producer.disconnect();
  }
}

describe.each<StorageKind>(["embedded", "cluster"])("kafkajs consumer group on the %s storage", (kind) => {
  test("two members share the partitions, the survivor takes over, committed offsets resume after a restart", async () => {
    const config = testConfig(kind, { kafkaPort: await freePort() });
    let broker = await startInProcess(config);
    running.push(broker);
    const topic = `orders-${randomBytes(4).toString("hex")}`;
    const groupId = `group-${randomBytes(4).toString("hex")}`;
    const kafka = client(broker.bootstrap, "nereus-test");
    const admin = kafka.admin();
    await admin.connect();
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 4 }], waitForLeaders: true })).toBe(true);
    await admin.disconnect();

    const first = Array.from({ length: 400 }, (_, index) => `a-${String(index)}`);
    await produce(kafka, topic, first);
    const alice = await member(kafka, groupId, topic);
    const bob = await member(kafka, groupId, topic);
    await waitFor(
      "both members assigned",
      () => alice.assigned.length > 0 && bob.assigned.length > 0 && alice.assigned.length + bob.assigned.length === 4,
    );
    expect([...alice.assigned, ...bob.assigned].sort()).toEqual([0, 1, 2, 3]);
    await waitFor("the first 400 consumed", () => new Set([...alice.received, ...bob.received]).size === 400);

    // Alice leaves (LeaveGroup); Bob takes over all four partitions and consumes what comes next.
    await alice.consumer.disconnect();
    await waitFor("bob owns every partition", () => bob.assigned.length === 4);
    const second = Array.from({ length: 100 }, (_, index) => `b-${String(index)}`);
    await produce(kafka, topic, second);
    await waitFor("bob consumed the next 100", () => second.every((value) => bob.received.includes(value)));
    expect(alice.received.some((value) => value.startsWith("b-"))).toBe(false);
    await bob.consumer.disconnect();

    // Restart the broker: membership is gone, committed offsets are not.
    await broker.broker.close("restart");
    running.splice(running.indexOf(broker), 1);
    broker = await startInProcess(config);
    running.push(broker);
    const third = Array.from({ length: 50 }, (_, index) => `c-${String(index)}`);
    const afterRestart = client(broker.bootstrap, "nereus-test-2");
    await produce(afterRestart, topic, third);
    const carol = await member(afterRestart, groupId, topic);
    await waitFor("carol consumed the 50 new messages", () => third.every((value) => carol.received.includes(value)));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(carol.received.filter((value) => !value.startsWith("c-"))).toEqual([]);
    expect(carol.received).toHaveLength(50);

    const groupAdmin = afterRestart.admin();
    await groupAdmin.connect();
    const described = await groupAdmin.describeGroups([groupId]);
    expect(described.groups[0]).toMatchObject({ groupId, state: "Stable", protocolType: "consumer" });
    const listed = await groupAdmin.listGroups();
    expect(listed.groups.map((group) => group.groupId)).toContain(groupId);
    await groupAdmin.disconnect();
  });
});
