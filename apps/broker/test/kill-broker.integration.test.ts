// kill -9 of the broker process in the middle of an acks=all produce loop (kafkajs idempotent producer, retries
// spanning the restart): after the broker comes back on the same data, every acknowledged record is in the log
// exactly once and in acknowledgement order. On the embedded default and on etcd + s3proxy.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerProcess, type StorageKind, freePort, tempDir, testConfig } from "./support/broker-fixture.js";
import { runCommand } from "./support/run-command.js";

const TOTAL = 600;
const KILL_AFTER = 200;
const processes: BrokerProcess[] = [];

afterEach(async () => {
  for (const broker of processes.splice(0)) await broker.stop("SIGKILL");
});

describe.each<StorageKind>(["embedded", "cluster"])("kill -9 during a produce loop on the %s storage", (kind) => {
  test("every acknowledged record is present exactly once, in order, after the restart", async () => {
    const port = await freePort();
    const config = testConfig(kind, { kafkaPort: port });
    const configFile = path.join(tempDir("kill-config"), "broker.json");
    let broker = await BrokerProcess.start(config, configFile);
    processes.push(broker);
    const bootstrap = `127.0.0.1:${String(port)}`;
    const topic = `kill-${randomBytes(4).toString("hex")}`;
    const kafka = new Kafka({
      clientId: "kill-test",
      brokers: [bootstrap],
      logLevel: logLevel.NOTHING,
      retry: { retries: 60, initialRetryTime: 100, maxRetryTime: 1_000 },
    });
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true });
    await producer.connect();

    const acknowledged: string[] = [];
    let restarted: Promise<void> | undefined;
    for (let index = 0; index < TOTAL; index += 1) {
      if (index === KILL_AFTER) {
        // Kill while the next sends are in flight; restart without waiting for the loop.
        const victim = broker;
        restarted = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 15));
          await victim.stop("SIGKILL");
          broker = await BrokerProcess.start(config, configFile);
          processes.push(broker);
        })();
      }
      const value = `record-${String(index).padStart(5, "0")}`;
      await producer.send({ topic, acks: -1, messages: [{ key: value, value }] });
      acknowledged.push(value);
    }
    await restarted;
    await producer.disconnect();
    expect(acknowledged).toHaveLength(TOTAL);

    const consumed = await runCommand(
      "kcat",
      ["-b", bootstrap, "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%s\n"],
      { timeoutMs: 60_000 },
    );
    expect(consumed.code).toBe(0);
    const log = consumed.stdout
      .toString("utf8")
      .split("\n")
      .filter((line) => line.length > 0);
    const counts = new Map<string, number>();
    for (const value of log) counts.set(value, (counts.get(value) ?? 0) + 1);
    expect(acknowledged.filter((value) => counts.get(value) !== 1)).toEqual([]);
    const acknowledgedSet = new Set(acknowledged);
    expect(log.filter((value) => acknowledgedSet.has(value))).toEqual(acknowledged);
    expect((await broker.stop("SIGTERM")).code).toBe(0);
  });
});
