// Two brokers of one cluster (membership on etcd + s3proxy), each with a plaintext and a TLS listener: Metadata and
// FindCoordinator on either listener of either broker name every broker at its address on that same listener, so a
// TLS client is never sent to a plaintext port (or the other way round), and kafkajs over TLS produces to and
// consumes from partitions led by both brokers.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { type TestCertificates, generateTestCertificates } from "./support/test-certificates.js";

let certs: TestCertificates;
const brokers: InProcessBroker[] = [];

beforeAll(async () => {
  certs = await generateTestCertificates();
  const cluster = `tls${randomBytes(4).toString("hex")}`;
  const tls = { certFile: certs.serverCertFile, keyFile: certs.serverKeyFile };
  for (const nodeId of [1, 2]) {
    brokers.push(
      await startInProcess(
        testConfig("cluster", {
          cluster,
          overrides: {
            nodeId,
            membership: { enabled: true, leaseTtlMs: 3_000 },
            pulsar: { enabled: false },
            kafka: {
              listeners: [
                { name: "INTERNAL", port: 0, securityProtocol: "PLAINTEXT" },
                { name: "EXTERNAL", port: 0, securityProtocol: "SSL", tls },
              ],
            },
          },
        }),
      ),
    );
  }
});

afterAll(async () => {
  for (const broker of brokers.splice(0)) await broker.broker.close("test finished");
});

function portsOn(listener: string): { nodeId: number; host: string; port: number }[] {
  return brokers.map((broker, index) => ({
    nodeId: index + 1,
    host: "127.0.0.1",
    port: broker.broker.kafkaListenerPorts.get(listener)!,
  }));
}

function client(broker: InProcessBroker, listener: string): Kafka {
  return new Kafka({
    clientId: `cluster-${listener}`,
    brokers: [`127.0.0.1:${String(broker.broker.kafkaListenerPorts.get(listener))}`],
    ...(listener === "EXTERNAL" ? { ssl: { ca: [fs.readFileSync(certs.caFile, "utf8")] } } : {}),
    logLevel: logLevel.NOTHING,
    retry: { retries: 8, initialRetryTime: 200, maxRetryTime: 1_000 },
  });
}

describe("listeners in a cluster", () => {
  test("Metadata on each listener names every broker at its address on that listener", async () => {
    for (const listener of ["INTERNAL", "EXTERNAL"]) {
      for (const broker of brokers) {
        const admin = client(broker, listener).admin();
        await admin.connect();
        try {
          const deadline = Date.now() + 30_000;
          let described = await admin.describeCluster();
          while (described.brokers.length < 2 && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 200));
            described = await admin.describeCluster();
          }
          expect([...described.brokers].sort((a, b) => a.nodeId - b.nodeId)).toEqual(portsOn(listener));
        } finally {
          await admin.disconnect();
        }
      }
    }
  });

  test("kafkajs over TLS produces to and consumes from partitions led by both brokers", async () => {
    const kafka = client(brokers[0]!, "EXTERNAL");
    const topic = `cluster-tls-${randomBytes(4).toString("hex")}`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 6 }], waitForLeaders: true });
    const leaders = new Set(
      (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]!.partitions.map((p) => p.leader),
    );
    await admin.disconnect();
    expect(leaders).toEqual(new Set([1, 2]));
    const producer = kafka.producer();
    await producer.connect();
    const values = Array.from({ length: 300 }, (_, index) => `v${String(index)}`);
    await producer.send({
      topic,
      acks: -1,
      messages: values.map((value, index) => ({ key: `k${String(index)}`, value })),
    });
    await producer.disconnect();
    const consumer = kafka.consumer({ groupId: `g-${topic}`, maxWaitTimeInMs: 200 });
    const read: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${String(read.length)}`)), 60_000);
      void consumer.run({
        eachMessage: async ({ message }) => {
          read.push(message.value!.toString());
          if (read.length === values.length) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
    await consumer.disconnect();
    expect(read.sort()).toEqual([...values].sort());
  });
});
