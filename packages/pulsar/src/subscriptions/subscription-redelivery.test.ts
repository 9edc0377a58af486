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

describe("ack-timeout redelivery", () => {
  it("redelivers Shared entries not acknowledged in time, counting each redelivery", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(3));
    const subscription = await fixture.durable("sub");
    const slow = new RecordingConsumer(1);
    subscription.addConsumer(slow.options("Shared", { ackTimeoutMs: 1_000 }));
    subscription.flow(1n, 3);
    await subscription.whenIdle();
    await subscription.acknowledge(1n, { kind: "individual", items: [{ offset: 1 }] });
    fixture.clock.advance(999);
    await subscription.whenIdle();
    expect(slow.offsets()).toEqual([0, 1, 2]);
    const other = new RecordingConsumer(2);
    subscription.addConsumer(other.options("Shared"));
    subscription.flow(2n, 10);
    fixture.clock.advance(1);
    await subscription.whenIdle();
    expect(other.offsets()).toEqual([0, 2]);
    expect(other.deliveries.map((delivery) => delivery.redeliveryCount)).toEqual([1, 1]);
    expect(fixture.clock.pending).toBe(0);
  });

  it("rewinds an Exclusive consumer whose entries timed out", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(2));
    const subscription = await fixture.durable("sub");
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Exclusive", { ackTimeoutMs: 500 }));
    subscription.flow(1n, 1);
    await subscription.whenIdle();
    fixture.clock.advance(400);
    subscription.flow(1n, 1);
    await subscription.whenIdle();
    await subscription.acknowledge(1n, { kind: "individual", items: [{ offset: 1 }] });
    fixture.clock.advance(100);
    subscription.flow(1n, 5);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0, 1, 0]);
    expect(consumer.deliveries.map((delivery) => delivery.redeliveryCount)).toEqual([0, 0, 0]);
  });
});

describe("source failures", () => {
  it("reports a failed read and retries it after a delay", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(2));
    const errors: unknown[] = [];
    const subscription = await fixture.durable("sub", "earliest", { onError: (error) => errors.push(error) });
    const consumer = new RecordingConsumer(1);
    fixture.source.failNextRead = new Error("read failed");
    subscription.addConsumer(consumer.options("Shared"));
    subscription.flow(1n, 10);
    await subscription.whenIdle();
    expect(errors).toHaveLength(1);
    expect(consumer.offsets()).toEqual([]);
    fixture.clock.advance(100);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0, 1]);
  });
});

describe("readers (non-durable)", () => {
  it("start at an offset, at the end, or at the beginning, and keep acks in memory", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(4));
    const fromTwo = await fixture.reader(2);
    const latest = await fixture.reader("latest");
    const earliest = await fixture.reader("earliest");
    const consumers = [fromTwo, latest, earliest].map((subscription, index) => {
      const consumer = new RecordingConsumer(index);
      subscription.addConsumer(consumer.options("Exclusive"));
      subscription.flow(consumer.id, 10);
      return consumer;
    });
    await Promise.all([fromTwo, latest, earliest].map((subscription) => subscription.whenIdle()));
    expect(consumers.map((consumer) => consumer.offsets())).toEqual([[2, 3], [], [0, 1, 2, 3]]);
    await earliest.acknowledge(2n, { kind: "cumulative", offset: 1 });
    expect(earliest.markDeleteOffset).toBe(2);
    expect(await earliest.backlog()).toBe(2);
    expect(earliest.durable).toBe(false);
    expect(fixture.cursors.list()).toEqual([]);
    await fixture.source.append(messages(1));
    await latest.whenIdle();
    expect(consumers[1]?.offsets()).toEqual([4]);
    await earliest.seek({ offset: 1 });
    expect(earliest.markDeleteOffset).toBe(1);
  });
});
