import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import { RecordingConsumer } from "./test-fixtures/recording-consumer.js";
import { subscriptionFixture } from "./test-fixtures/subscription-fixture.js";

/** Core's in-memory stores for one fixture. */
const memoryStores = () => ({
  metadata: new InMemoryMetadataStore(),
  objects: new InMemoryObjectStore(),
  wal: new MemoryWalProvider({ walKind: "OBJECT" }),
});

const messages = (count: number) => Array.from({ length: count }, () => ({}));

describe("Shared", () => {
  it("round-robins over the consumers with permits, each entry to exactly one", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(9));
    const subscription = await fixture.durable("sub");
    const consumers = [1, 2, 3].map((id) => new RecordingConsumer(id));
    for (const consumer of consumers) subscription.addConsumer(consumer.options("Shared"));
    subscription.flow(1n, 10);
    subscription.flow(2n, 10);
    subscription.flow(3n, 1);
    await subscription.whenIdle();
    expect(consumers.map((consumer) => consumer.offsets())).toEqual([[0, 3, 5, 7], [1, 4, 6, 8], [2]]);
  });

  it("serves the best priority level first", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(5));
    const subscription = await fixture.durable("sub");
    const low = new RecordingConsumer(1);
    const high = new RecordingConsumer(2);
    subscription.addConsumer(low.options("Shared", { priorityLevel: 1 }));
    subscription.addConsumer(high.options("Shared", { priorityLevel: 0 }));
    subscription.flow(1n, 10);
    subscription.flow(2n, 3);
    await subscription.whenIdle();
    expect(high.offsets()).toEqual([0, 1, 2]);
    expect(low.offsets()).toEqual([3, 4]);
  });

  it("redelivers a closed consumer's unacknowledged entries to the others, not counted", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(4));
    const subscription = await fixture.durable("sub");
    const first = new RecordingConsumer(1);
    const second = new RecordingConsumer(2);
    subscription.addConsumer(first.options("Shared"));
    subscription.flow(1n, 4);
    await subscription.whenIdle();
    await subscription.acknowledge(1n, { kind: "individual", items: [{ offset: 1 }] });
    subscription.addConsumer(second.options("Shared"));
    subscription.flow(2n, 10);
    subscription.removeConsumer(1n);
    await subscription.whenIdle();
    expect(second.offsets()).toEqual([0, 2, 3]);
    expect(second.deliveries.map((delivery) => delivery.redeliveryCount)).toEqual([0, 0, 0]);
  });

  it("refuses cumulative acks", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(2));
    const subscription = await fixture.durable("sub");
    subscription.addConsumer(new RecordingConsumer(1).options("Shared"));
    await expect(subscription.acknowledge(1n, { kind: "cumulative", offset: 1 })).rejects.toMatchObject({
      reason: "NOT_ALLOWED",
    });
    expect(fixture.cursors.get("sub")?.markDeleteOffset).toBe(0);
  });

  it("redelivers negatively acknowledged entries with their redelivery count", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(3));
    const subscription = await fixture.durable("sub");
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Shared"));
    subscription.flow(1n, 3);
    await subscription.whenIdle();
    subscription.redeliver(1n, { offsets: [1, 7] });
    subscription.flow(1n, 1);
    await subscription.whenIdle();
    subscription.redeliver(1n, { offsets: [1] });
    subscription.flow(1n, 1);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0, 1, 2, 1, 1]);
    expect(consumer.deliveries.map((delivery) => delivery.redeliveryCount)).toEqual([0, 0, 0, 1, 2]);
    subscription.redeliver(1n);
    subscription.flow(1n, 3);
    await subscription.whenIdle();
    expect(consumer.offsets().slice(5)).toEqual([0, 1, 2]);
    expect(consumer.deliveries.slice(5).map((delivery) => delivery.redeliveryCount)).toEqual([1, 3, 1]);
  });

  it("hands entries past the redelivery limit to the dead-letter policy and acknowledges them", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(2));
    const deadLettered: Array<[number, number]> = [];
    const subscription = await fixture.durable("sub", "earliest", {
      deadLetter: {
        maxRedeliveries: 2,
        deliver: (entry, count) => {
          deadLettered.push([entry.offset, count]);
          return Promise.resolve();
        },
      },
    });
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Shared"));
    subscription.flow(1n, 100);
    await subscription.whenIdle();
    for (let round = 0; round < 3; round++) {
      subscription.redeliver(1n, { offsets: [0] });
      await subscription.whenIdle();
    }
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0, 1, 0, 0]);
    expect(deadLettered).toEqual([[0, 3]]);
    expect(fixture.cursors.get("sub")?.isAcked(0)).toBe(true);
  });
});
