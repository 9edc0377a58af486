// The Kafka acceptance run on secured backends, CI-sized: a broker on etcd with mutual TLS and user/password
// authentication and on s3proxy with credentials serves Apache Kafka's Java client (idempotent producer, a
// two-member consumer group on three partitions, every record where its acknowledgement said) and kafkajs (admin
// calls, committed group offsets); after a restart on the same secured etcd, the committed offsets, the records and
// the topics are all there.
import { randomBytes } from "node:crypto";
import type { JavaProgram } from "@nereus/test-services";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { compileJavaClient, runJavaClient } from "./support/java-client.js";
import { type SecuredEtcd, startSecuredEtcd } from "./support/secured-etcd.js";

const COUNT = 300;
let program: JavaProgram | undefined;
let secured: SecuredEtcd;
const running: InProcessBroker[] = [];

beforeAll(async () => {
  [program, secured] = await Promise.all([compileJavaClient("kafka", "JavaKafkaClients"), startSecuredEtcd()]);
}, 600_000);

afterAll(async () => {
  program?.dispose();
  await secured?.stop();
});

afterEach(async () => {
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

function java(args: readonly string[]): Promise<string[]> {
  if (program === undefined) throw new Error("the driver did not compile");
  return runJavaClient(program, args, 150_000);
}

/** A broker of `cluster` on the secured etcd and s3proxy with credentials. */
async function securedBroker(cluster: string): Promise<InProcessBroker> {
  const config = testConfig("cluster", {
    cluster,
    overrides: { topics: { defaultPartitions: 3 }, pulsar: { enabled: false } },
  });
  const broker = await startInProcess({
    ...config,
    storage: { ...config.storage, metadata: secured.metadataConfig() },
  });
  running.push(broker);
  return broker;
}

describe("Kafka clients on etcd with mutual TLS + authentication and s3proxy with credentials", () => {
  test("Java producer and consumer group, kafkajs admin and offsets, and a restart keeps it all", async () => {
    const cluster = `secured${randomBytes(4).toString("hex")}`;
    let broker = await securedBroker(cluster);
    const topic = `acceptance-${randomBytes(4).toString("hex")}`;
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
    const lines = await java(["group", broker.bootstrap, topic, `java-group-${cluster}`, String(COUNT)]);
    const seen = new Map<string, string>();
    for (const line of lines.filter((entry) => entry.startsWith("REC "))) {
      const [, , key, value, , partition, offset] = line.split(" ");
      expect(value).toBe(`value-${(key ?? "").slice("java-".length)}`);
      seen.set(key ?? "", `${partition ?? ""} ${offset ?? ""}`);
    }
    expect(seen.size).toBe(COUNT);
    for (const [key, where] of position) expect(seen.get(key)).toBe(where);
    const owners = new Set(
      lines.filter((line) => line.startsWith("ASSIGNED ") && !line.endsWith("[]")).map((line) => line.split(" ")[1]),
    );
    expect([...owners].sort()).toEqual(["alpha", "beta"]);

    const kafkaOf = (bootstrap: string) =>
      new Kafka({ brokers: [bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 3 } });
    const admin = kafkaOf(broker.bootstrap).admin();
    await admin.connect();
    const second = `${topic}-second`;
    await admin.createTopics({ topics: [{ topic: second, numPartitions: 2 }], waitForLeaders: true });
    const groupId = `kafkajs-${cluster}`;
    await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: "7" }] });
    const ends = await admin.fetchTopicOffsets(topic);
    await admin.disconnect();
    expect(ends.reduce((sum, partition) => sum + Number(partition.high), 0)).toBe(COUNT);

    await broker.broker.close("restart");
    running.splice(running.indexOf(broker), 1);
    broker = await securedBroker(cluster);
    const again = kafkaOf(broker.bootstrap).admin();
    await again.connect();
    try {
      expect((await again.listTopics()).sort()).toEqual([second, topic].sort());
      const committed = await again.fetchOffsets({ groupId, topics: [topic] });
      expect(committed[0]?.partitions.find((partition) => partition.partition === 0)?.offset).toBe("7");
      const endsAfter = await again.fetchTopicOffsets(topic);
      expect(endsAfter.map((partition) => partition.high).sort()).toEqual(
        ends.map((partition) => partition.high).sort(),
      );
    } finally {
      await again.disconnect();
    }
  });
});
