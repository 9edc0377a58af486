// Apache Kafka's Java client 4.1 (Maven Central, the harness's "kafka" artifact set): the default producer
// (idempotence on, acks=all) and a consumer group of two members sharing a 3-partition topic, on the embedded
// default and on etcd + s3proxy. The driver (clients/JavaKafkaClients.java) is compiled with javac once per run.
import { randomBytes } from "node:crypto";
import type { JavaProgram } from "@nereus/test-services";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, type StorageKind, startInProcess, testConfig } from "./support/broker-fixture.js";
import { compileJavaClient, runJavaClient } from "./support/java-client.js";

const COUNT = 500;
let program: JavaProgram | undefined;
const running: InProcessBroker[] = [];

beforeAll(async () => {
  program = await compileJavaClient("kafka", "JavaKafkaClients");
}, 600_000);

afterAll(() => program?.dispose());
afterEach(async () => {
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

function java(args: readonly string[]): Promise<string[]> {
  if (program === undefined) throw new Error("the driver did not compile");
  return runJavaClient(program, args, 150_000);
}

describe.each<StorageKind>(["embedded", "cluster"])("Java kafka-clients on the %s storage", (kind) => {
  test("idempotent producer and a two-member consumer group", async () => {
    const broker = await startInProcess(testConfig(kind, { overrides: { topics: { defaultPartitions: 3 } } }));
    running.push(broker);
    const topic = `java-${randomBytes(4).toString("hex")}`;
    const acks = (await java(["produce", broker.bootstrap, topic, String(COUNT)])).filter((line) =>
      line.startsWith("ACK "),
    );
    expect(acks).toHaveLength(COUNT);
    const position = new Map(
      acks.map((line) => {
        const [, key, partition, offset] = line.split(" ");
        return [key ?? "", `${partition ?? ""} ${offset ?? ""}`];
      }),
    );

    const lines = await java([
      "group",
      broker.bootstrap,
      topic,
      `java-group-${randomBytes(3).toString("hex")}`,
      String(COUNT),
    ]);
    const records = lines.filter((line) => line.startsWith("REC "));
    const assigned = lines.filter((line) => line.startsWith("ASSIGNED "));
    const seen = new Map<string, string>();
    for (const line of records) {
      const [, , key, value, header, partition, offset] = line.split(" ");
      const index = (key ?? "").slice("java-".length);
      expect(value).toBe(`value-${index}`);
      expect(header).toBe(index);
      seen.set(key ?? "", `${partition ?? ""} ${offset ?? ""}`);
    }
    expect(seen.size).toBe(COUNT);
    for (const [key, where] of position) expect(seen.get(key)).toBe(where);
    // Both members owned partitions: the group's generations gave each of them a share.
    const owners = new Set(assigned.filter((line) => !line.endsWith("[]")).map((line) => line.split(" ")[1]));
    expect([...owners].sort()).toEqual(["alpha", "beta"]);
  });
});
