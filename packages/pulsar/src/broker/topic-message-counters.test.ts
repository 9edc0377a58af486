// Per-topic message counters: counts and rates over a window on a manual clock, the bound on topics counted by
// name; and end to end, SENDs stored and MESSAGEs dispatched through in-process connections show in the admin API's
// topic stats (a duplicate is not counted in).
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness } from "../../test/broker-harness.js";
import { TOPIC, messageEntry, openProducer, sendAnswers, sendEntry } from "../../test/producer-frames.js";
import { createPulsarAdmin } from "../admin/pulsar-admin.js";
import { InitialPosition, SubscriptionType } from "../protocol/index.js";
import { OTHER_TOPICS, RATE_WINDOW_MS, TopicMessageCounters } from "./topic-message-counters.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("TopicMessageCounters", () => {
  test("counts in and out per topic; rates cover the last completed window", () => {
    let now = 1_000;
    const counters = new TopicMessageCounters({ clock: () => now });
    counters.recordIn("a", 3, 300);
    counters.recordOut("a", 1, 100);
    expect(counters.trafficOf("a")).toMatchObject({
      msgInCounter: 3,
      bytesInCounter: 300,
      msgOutCounter: 1,
      bytesOutCounter: 100,
      msgRateIn: 0,
    });
    now += RATE_WINDOW_MS;
    expect(counters.trafficOf("a")).toMatchObject({ msgRateIn: 0.3, msgThroughputIn: 30, msgRateOut: 0.1 });
    counters.recordIn("a", 20, 2_000);
    now += RATE_WINDOW_MS / 2;
    expect(counters.trafficOf("a").msgRateIn).toBe(0.3);
    now += RATE_WINDOW_MS / 2;
    expect(counters.trafficOf("a")).toMatchObject({ msgInCounter: 23, msgRateIn: 2, msgThroughputIn: 200 });
    now += RATE_WINDOW_MS;
    expect(counters.trafficOf("a")).toMatchObject({ msgInCounter: 23, msgRateIn: 0, msgRateOut: 0 });
    expect(counters.trafficOf("never")).toMatchObject({ msgInCounter: 0, msgRateIn: 0 });
  });

  test("topics beyond the bound are counted together under one name", () => {
    const counters = new TopicMessageCounters({ maxTopics: 2 });
    counters.recordIn("a", 1, 10);
    counters.recordIn("b", 1, 10);
    counters.recordIn("c", 2, 20);
    counters.recordIn("d", 3, 30);
    counters.recordIn("a", 1, 10);
    const names = [...counters.counts()].map(([name]) => name);
    expect(names).toEqual(["a", "b", OTHER_TOPICS]);
    expect(counters.trafficOf(OTHER_TOPICS)).toMatchObject({ msgInCounter: 5, bytesInCounter: 50 });
    expect(counters.trafficOf("a").msgInCounter).toBe(2);
  });
});

describe("message counters in the admin topic stats", () => {
  test("stored SENDs count in (a duplicate does not), dispatched MESSAGEs count out", async () => {
    const h = (harness = new BrokerHarness({ deduplication: true }));
    const admin = createPulsarAdmin({
      broker: h.broker.context,
      metadata: h.metadata,
      cluster: "pulsar-broker-test",
      serviceUrl: "http://broker.test:8080",
    });
    const producer = h.connect();
    await producer.handshake();
    await openProducer(producer, { producerId: 1n, requestId: 1n, producerName: "p" });
    const entries = [0n, 1n, 2n].map((id) => messageEntry("p", id, `m${String(id)}`));
    entries.forEach((entry, index) => sendEntry(producer, 1n, BigInt(index), entry));
    sendEntry(producer, 1n, 2n, entries[2]!);
    await producer.waitUntil(() => sendAnswers(producer).length === 4);
    const bytesIn = entries.reduce((sum, entry) => sum + entry.length, 0);

    const consumer = h.connect();
    await consumer.handshake();
    consumer.send({
      type: "SUBSCRIBE",
      body: {
        topic: TOPIC,
        subscription: "s",
        subType: SubscriptionType.Exclusive,
        consumerId: 1n,
        requestId: 1n,
        initialPosition: InitialPosition.Earliest,
      },
    });
    await consumer.waitFor("SUCCESS");
    consumer.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 2 } });
    await consumer.waitFor("MESSAGE", 2);

    const response = await admin.handle({
      method: "GET",
      segments: "persistent/public/default/orders/stats".split("/"),
      query: new Map(),
      body: undefined,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      msgInCounter: 3,
      bytesInCounter: bytesIn,
      msgOutCounter: 2,
      bytesOutCounter: entries[0]!.length + entries[1]!.length,
    });
  });
});
