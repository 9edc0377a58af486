import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, batchOf } from "../../test/broker-harness.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

describe("per-topic traffic metrics", () => {
  test("produce and fetch count records and bytes per topic, besides the broker-wide totals", async () => {
    const broker = new BrokerHarness();
    harness = broker;
    const client = broker.connect();
    await client.createTopic("orders", 2);
    await client.createTopic("quiet");
    const three = batchOf(["a", "b", "c"]);
    const two = batchOf(["d", "e"]);
    await client.produce("orders", 0, three);
    await client.produce("orders", 1, two);
    await client.fetch("orders", 0, 0);
    await client.fetch("orders", 0, 0);
    await client.fetch("quiet", 0, 0);
    const families = broker.broker.metrics.collect();
    const perTopic = (name: string): Record<string, number> =>
      Object.fromEntries(
        (families.find((family) => family.name === name)?.samples ?? []).map((sample) => [
          sample.labels.topic,
          sample.value,
        ]),
      );
    expect(perTopic("nereus_kafka_topic_produced_records_total")).toEqual({ orders: 5 });
    expect(perTopic("nereus_kafka_topic_produced_bytes_total")).toEqual({ orders: three.length + two.length });
    expect(perTopic("nereus_kafka_topic_fetched_records_total")).toEqual({ orders: 6 });
    expect(perTopic("nereus_kafka_topic_fetched_bytes_total")).toEqual({ orders: three.length * 2 });
  });
});
