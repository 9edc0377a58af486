// kill -9 of the broker process under the Java pulsar-client 4.2.4 (broker-side deduplication on), on the embedded
// default and on etcd + s3proxy; the broker comes back on the same ports and storage while the clients reconnect by
// themselves. During produce: two producers (one batching, one not; 10,000 messages each, sends that never time out)
// — afterwards every send is stored exactly once, byte-identical, in each producer's order. During consume: two
// Shared consumers with batch-index acks (8,000 batched messages) — none skips a message, nothing acknowledged before
// the kill comes back, and the subscription's backlog holds at most the messages whose acks were never confirmed.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { BrokerProcess, type StorageKind, freePort, tempDir, testConfig } from "./support/broker-fixture.js";
import { JavaPulsarDriver, type SpawnedDriver, receivedMessages, sentMessages } from "./support/java-pulsar-driver.js";

let driver: JavaPulsarDriver;
const processes: BrokerProcess[] = [];
const clients: SpawnedDriver[] = [];

beforeAll(async () => {
  driver = await JavaPulsarDriver.compile();
}, 600_000);
afterAll(() => driver.dispose());
afterEach(async () => {
  for (const client of clients.splice(0)) if (client.child.exitCode === null) client.child.kill("SIGKILL");
  for (const broker of processes.splice(0)) await broker.stop("SIGKILL");
});

async function waitUntil(what: string, condition: () => boolean, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A broker child process on a fixed Pulsar port that can be killed and started again on the same storage. */
async function killableBroker(kind: StorageKind): Promise<{ url: string; restart: () => Promise<void> }> {
  const pulsarPort = await freePort();
  const config = testConfig(kind, { overrides: { pulsar: { enabled: true, port: pulsarPort, deduplication: true } } });
  const configFile = path.join(tempDir("java-pulsar-kill"), "broker.json");
  processes.push(await BrokerProcess.start(config, configFile));
  return {
    url: `pulsar://127.0.0.1:${String(pulsarPort)}`,
    async restart() {
      await processes.at(-1)!.stop("SIGKILL");
      processes.push(await BrokerProcess.start(config, configFile));
    },
  };
}

function spawnClient(command: string, options: Parameters<JavaPulsarDriver["spawn"]>[1]): SpawnedDriver {
  const client = driver.spawn(command, options, 150_000);
  clients.push(client);
  return client;
}

async function finished(client: SpawnedDriver): Promise<string[]> {
  const code = await client.exited;
  if (code !== 0)
    throw new Error(`driver exited ${String(code)}: ${client.lines.slice(-5).join("\n")}\n${client.stderr()}`);
  return client.lines;
}

describe.each<StorageKind>(["embedded", "cluster"])(
  "kill -9 under the Java pulsar-client on the %s storage",
  (kind) => {
    test("during produce: every send is stored exactly once, byte-identical, in each producer's order", async () => {
      const broker = await killableBroker(kind);
      const topic = `persistent://public/default/java-kill-produce-${randomBytes(4).toString("hex")}`;
      const count = 10_000;
      const common = { url: broker.url, topic, count, sendTimeoutMs: 0, pauseEvery: 20, pauseMs: 10 };
      const producers = [
        spawnClient("produce", { ...common, batching: true, name: "batched" }),
        spawnClient("produce", { ...common, start: count, batching: false, name: "plain" }),
      ];
      const acked = (client: SpawnedDriver): number => client.lines.filter((line) => line.startsWith("ACK ")).length;
      await waitUntil("a quarter of the sends acknowledged", () => producers.every((p) => acked(p) >= count / 4));
      // Killed mid-stream: sends in flight may be stored without their receipt; the clients send them again.
      const ackedAtKill = producers.map(acked);
      await broker.restart();
      expect(ackedAtKill.every((done) => done < count)).toBe(true);
      const sent = [];
      for (const producer of producers) {
        const lines = await finished(producer);
        expect(lines.filter((line) => line.startsWith("SENDFAIL"))).toEqual([]);
        expect(lines.at(-1)).toBe(`PRODUCED ${String(count)}`);
        sent.push(...sentMessages(lines));
      }

      const lines = await driver.run(
        "consume",
        { url: broker.url, topic, sub: "check", type: "Exclusive", count: 2 * count, settleMs: 2_000 },
        150_000,
      );
      const received = receivedMessages(lines);
      const times = new Map<number, number>();
      for (const message of received) times.set(message.index, (times.get(message.index) ?? 0) + 1);
      expect([...times].filter(([, seen]) => seen !== 1).slice(0, 5)).toEqual([]);
      expect(times.size).toBe(2 * count);
      const shaOf = new Map(sent.map((message) => [message.index, message.sha]));
      expect(received.filter((message) => shaOf.get(message.index) !== message.sha).slice(0, 5)).toEqual([]);
      for (const first of [0, count]) {
        const order = received.filter((m) => m.index >= first && m.index < first + count).map((m) => m.index);
        expect(order).toEqual(Array.from({ length: count }, (_, index) => first + index));
      }
    });

    test("during consume: no consumer skips an unacknowledged message and acknowledged ones stay acknowledged", async () => {
      const broker = await killableBroker(kind);
      const topic = `persistent://public/default/java-kill-consume-${randomBytes(4).toString("hex")}`;
      const count = 8_000;
      const produced = await driver.run("produce", { url: broker.url, topic, count, batching: true, batchMax: 100 });
      expect(sentMessages(produced)).toHaveLength(count);
      const consume = { url: broker.url, topic, sub: "killed", type: "Shared", batchIndexAck: true };
      const consumer = spawnClient("consume", {
        ...consume,
        consumers: 2,
        count,
        queue: 200,
        settleMs: 2_000,
        pauseEvery: 50,
        pauseMs: 25,
      });
      const receivedSoFar = (): number => consumer.lines.filter((line) => line.startsWith("RECV ")).length;
      await waitUntil("a quarter of the messages received", () => receivedSoFar() >= count / 4);
      const killedAt = consumer.lines.length;
      await broker.restart();
      const lines = await finished(consumer);

      const received = receivedMessages(lines);
      expect(new Set(received.map((message) => message.index)).size).toBe(count);
      expect(receivedMessages(lines.slice(killedAt)).length).toBeGreaterThan(0);
      const ackedBefore = new Set(
        lines
          .slice(0, killedAt)
          .filter((line) => line.startsWith("ACKED "))
          .map((line) => Number(line.split(" ")[2])),
      );
      expect(ackedBefore.size).toBeGreaterThan(0);
      const redelivered = receivedMessages(lines.slice(killedAt)).filter((message) => ackedBefore.has(message.index));
      expect(redelivered.slice(0, 5)).toEqual([]);

      const confirmed = new Set(
        lines.filter((line) => line.startsWith("ACKED ")).map((line) => Number(line.split(" ")[2])),
      );
      const rest = await driver.run("consume", { ...consume, count, idleMs: 2_000 });
      const leftover = receivedMessages(rest).filter((message) => confirmed.has(message.index));
      expect(leftover.slice(0, 5)).toEqual([]);
    });
  },
);
