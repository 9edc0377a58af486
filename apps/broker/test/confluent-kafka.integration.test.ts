// python3-confluent-kafka (Debian's /usr/bin/python3, librdkafka 2.0.2): an idempotent producer (InitProducerId,
// sequence numbers, acks=all) and a consumer group member reading everything back, keys and headers included; and
// its AdminClient adding partitions (CreatePartitions) and changing topic configs (AlterConfigs).
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { type InProcessBroker, type StorageKind, startInProcess, testConfig } from "./support/broker-fixture.js";
import { runCommand } from "./support/run-command.js";

const SCRIPT = path.join(import.meta.dirname, "clients/confluent_roundtrip.py");
const COUNT = 2_000;
const running: InProcessBroker[] = [];

afterEach(async () => {
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

async function python(args: readonly string[]): Promise<Record<string, unknown>> {
  const result = await runCommand("/usr/bin/python3", [SCRIPT, ...args], { timeoutMs: 150_000 });
  if (result.code !== 0)
    throw new Error(
      `confluent_roundtrip.py ${args[0] ?? ""} failed (${String(result.code)}): ${result.stderr}${result.stdout.toString()}`,
    );
  return JSON.parse(result.stdout.toString("utf8")) as Record<string, unknown>;
}

describe.each<StorageKind>(["embedded", "cluster"])("confluent-kafka on the %s storage", (kind) => {
  test("idempotent producer and consumer group round trip", async () => {
    const broker = await startInProcess(testConfig(kind, { overrides: { topics: { defaultPartitions: 3 } } }));
    running.push(broker);
    const topic = `py-${randomBytes(4).toString("hex")}`;
    const produced = (await python(["produce", broker.bootstrap, topic, String(COUNT)])) as {
      delivered: Array<{ key: string; partition: number; offset: number }>;
      errors: string[];
      undelivered: number;
    };
    expect(produced.errors).toEqual([]);
    expect(produced.undelivered).toBe(0);
    expect(produced.delivered).toHaveLength(COUNT);
    expect(new Set(produced.delivered.map((entry) => entry.partition)).size).toBeGreaterThan(1);

    const consumed = (await python([
      "consume",
      broker.bootstrap,
      topic,
      `py-group-${randomBytes(3).toString("hex")}`,
      String(COUNT),
    ])) as {
      received: Array<{ key: string; value: string; headers: [string, string][]; partition: number; offset: number }>;
    };
    expect(consumed.received).toHaveLength(COUNT);
    const byKey = new Map(consumed.received.map((message) => [message.key, message]));
    for (const delivery of produced.delivered) {
      const index = Number(delivery.key.slice(3));
      const message = byKey.get(delivery.key);
      expect(message).toMatchObject({
        partition: delivery.partition,
        offset: delivery.offset,
        value: `value-${String(index)}-${"x".repeat(index % 97)}`,
      });
      expect(message?.headers).toEqual([
        ["index", String(index)],
        ["lang", "python"],
      ]);
    }
    // Offsets are dense per partition: no duplicate from the idempotent producer's retries.
    for (const partition of new Set(consumed.received.map((message) => message.partition))) {
      const offsets = consumed.received
        .filter((message) => message.partition === partition)
        .map((message) => message.offset);
      expect(offsets).toEqual(offsets.map((_, index) => index));
    }
  });

  test("AdminClient adds partitions and changes configs; a bad value and a lower count are refused", async () => {
    const broker = await startInProcess(testConfig(kind));
    running.push(broker);
    const topic = `py-admin-${randomBytes(4).toString("hex")}`;
    expect(await python(["admin", broker.bootstrap, topic])).toEqual({
      partitions: 4,
      configs: { "cleanup.policy": "delete", "retention.ms": "3600000" },
      refusedConfig: "INVALID_CONFIG",
      refusedPartitions: "INVALID_PARTITIONS",
    });
  });
});
