// Apache Pulsar's Java client 4.2.4 on a topic of a BookKeeper profile: the broker runs on the shared etcd + s3proxy
// with the test services' BookKeeper (ZooKeeper and three bookies, quorums 3/2/2), the topic's storage-profile policy
// names BOOKKEEPER_WAL_SYNC_OBJECT, and its stream is written through the BookKeeper WAL (its writer state is in
// etcd). The Java driver (clients/JavaPulsarClients.java) produces 5,000 batched and 1,000 unbatched messages and an
// Exclusive subscription gets every one back byte-identical with the message id its send was acknowledged with; after
// the broker is closed and started again on the same cluster, a new subscription reads them all again from the
// earliest position, the first subscription's acknowledgements held (it gets nothing more), and 500 messages produced
// after the restart follow the earlier ones on the same ledger.
import { randomBytes } from "node:crypto";
import { loadServices } from "@nereus/test-services";
import { Etcd3 } from "etcd3";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { BrokerConfigInput } from "../src/index.js";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import {
  JavaPulsarDriver,
  type ReceivedMessage,
  type SentMessage,
  receivedMessages,
  sentMessages,
} from "./support/java-pulsar-driver.js";

const PROFILE = "BOOKKEEPER_WAL_SYNC_OBJECT";
const services = loadServices();
const etcd = new Etcd3({ hosts: services.etcd.endpoint });
let driver: JavaPulsarDriver;
const running: InProcessBroker[] = [];

beforeAll(async () => {
  driver = await JavaPulsarDriver.compile();
}, 600_000);
afterAll(async () => {
  driver.dispose();
  etcd.close();
});
afterEach(async () => {
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

/** A broker of `cluster` on etcd + s3proxy with the services' BookKeeper, its Pulsar listener on. */
function bookkeeperConfig(cluster: string): BrokerConfigInput {
  const { zookeeper, bookkeeper } = services;
  if (zookeeper === undefined || bookkeeper === undefined) throw new Error("the test services run no BookKeeper");
  return testConfig("cluster", {
    cluster,
    overrides: {
      pulsar: { enabled: true, port: 0 },
      storage: {
        bookkeeper: {
          zooKeeper: zookeeper.connectString,
          ledgersRoot: bookkeeper.zkLedgersRoot,
          password: `pw-${randomBytes(6).toString("hex")}`,
        },
      },
    },
  });
}

async function start(config: BrokerConfigInput): Promise<{ url: string; adminPort: number }> {
  const broker = await startInProcess(config);
  running.push(broker);
  return { url: `pulsar://127.0.0.1:${String(broker.broker.pulsarPort)}`, adminPort: broker.broker.adminPort! };
}

async function setTopicProfile(adminPort: number, topic: string, profile: string): Promise<void> {
  const path = topic.replace(/^persistent:\/\//, "persistent/");
  const response = await fetch(`http://127.0.0.1:${String(adminPort)}/admin/v2/${path}/storageProfile`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(profile),
  });
  expect(response.status, await response.text()).toBe(204);
}

/** Streams of `cluster` the BookKeeper WAL has written (each has a writer state). */
async function bookKeeperStreams(cluster: string): Promise<number> {
  const keys = await etcd.getAll().prefix(`/nereus/clusters/${cluster}/streams/`).keys();
  return keys.filter((key) => key.endsWith("/bookkeeper/v1/writer-state")).length;
}

async function produce(url: string, topic: string, options: Record<string, string | number | boolean>) {
  const lines = await driver.run("produce", { url, topic, ...options }, 120_000);
  expect(lines.filter((line) => line.startsWith("SENDFAIL"))).toEqual([]);
  const sent = sentMessages(lines);
  expect(sent).toHaveLength(Number(options["count"]));
  return sent;
}

async function consume(url: string, topic: string, sub: string, count: number) {
  const lines = await driver.run("consume", { url, topic, sub, type: "Exclusive", count }, 120_000);
  expect(lines.at(-1)).toMatch(/^DONE /);
  return receivedMessages(lines);
}

/** Every sent message was received once, in send order, with its message id, key and payload. */
function expectIdentical(sent: readonly SentMessage[], received: readonly ReceivedMessage[]): void {
  expect(received).toHaveLength(sent.length);
  const mismatched = sent.filter((message, at) => {
    const got = received[at];
    return got?.index !== message.index || got.sha !== message.sha || got.messageId !== message.messageId;
  });
  expect(mismatched.slice(0, 5)).toEqual([]);
}

describe("Java pulsar-client 4.2.4 on a BookKeeper profile", () => {
  test(`batched and unbatched messages on ${PROFILE} come back byte-identical, before and after a restart`, async () => {
    const cluster = `jbk${randomBytes(4).toString("hex")}`;
    const config = bookkeeperConfig(cluster);
    let target = await start(config);
    const topic = `persistent://public/default/java-bk-${randomBytes(4).toString("hex")}`;
    await setTopicProfile(target.adminPort, topic, PROFILE);
    const sent = [
      ...(await produce(target.url, topic, { count: 5_000, batching: true, keys: 16, name: "batched" })),
      ...(await produce(target.url, topic, { start: 5_000, count: 1_000, batching: false, name: "plain" })),
    ];
    expect(sent.filter((message) => !message.messageId.endsWith(":-1")).length).toBeGreaterThan(2_500);
    expect(await bookKeeperStreams(cluster)).toBe(1);
    expectIdentical(sent, await consume(target.url, topic, "before", sent.length));

    await running.pop()!.broker.close("restart");
    target = await start(config);
    expectIdentical(sent, await consume(target.url, topic, "after", sent.length));
    const later = await produce(target.url, topic, { start: 6_000, count: 500, batching: false, name: "later" });
    const ledgerOf = (message: SentMessage) => message.messageId.split(":")[0];
    expect(new Set(later.map(ledgerOf))).toEqual(new Set(sent.map(ledgerOf)));
    // The first subscription acknowledged everything before the restart: it gets exactly what came after.
    expectIdentical(later, await consume(target.url, topic, "before", later.length));
    expect(await bookKeeperStreams(cluster)).toBe(1);
  });
});
