import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { describe, expect, it, vi } from "vitest";
import type { EntrySource } from "./entry-source.js";
import { openDurableSubscription } from "./open-subscription.js";
import { SubscriptionRefusedError } from "./subscription-refused-error.js";
import { RecordingConsumer } from "./test-fixtures/recording-consumer.js";
import { subscriptionFixture } from "./test-fixtures/subscription-fixture.js";

/** Core's in-memory stores for one fixture. */
const memoryStores = () => ({
  metadata: new InMemoryMetadataStore(),
  objects: new InMemoryObjectStore(),
  wal: new MemoryWalProvider({ walKind: "OBJECT" }),
});

const messages = (count: number) => Array.from({ length: count }, () => ({}));

describe("Exclusive", () => {
  it("delivers every entry in order, never more than the permits", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(10));
    const subscription = await fixture.durable("sub");
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Exclusive"));
    await subscription.whenIdle();
    expect(consumer.deliveries).toEqual([]);
    subscription.flow(1n, 4);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0, 1, 2, 3]);
    subscription.flow(1n, 100);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(consumer.deliveries.every((delivery) => delivery.redeliveryCount === 0 && delivery.epoch === 0n)).toBe(true);
    expect(consumer.activeChanges).toEqual([true]);
    await fixture.source.append(messages(2));
    await subscription.whenIdle();
    expect(consumer.offsets().slice(10)).toEqual([10, 11]);
    expect(subscription.consumers()[0]).toMatchObject({ permits: 92, unackedEntries: 12, active: true });
  });

  it("refuses a second consumer and a consumer of another type", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    const subscription = await fixture.durable("sub");
    subscription.addConsumer(new RecordingConsumer(1).options("Exclusive"));
    const second = new RecordingConsumer(2).options("Exclusive");
    expect(() => subscription.addConsumer(second)).toThrow(SubscriptionRefusedError);
    expect(() => subscription.addConsumer(second)).toThrow(expect.objectContaining({ reason: "CONSUMER_BUSY" }));
    expect(() => subscription.addConsumer(new RecordingConsumer(2).options("Shared"))).toThrow(/type Exclusive/);
    expect(() => subscription.addConsumer(new RecordingConsumer(1).options("Exclusive"))).toThrow(/already connected/);
    subscription.removeConsumer(1n);
    subscription.addConsumer(new RecordingConsumer(2).options("Shared"));
    expect(subscription.type).toBe("Shared");
  });

  it("charges a batch its messages and waits until the permits cover it", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append([{ numMessages: 5 }, { numMessages: 1 }]);
    const subscription = await fixture.durable("sub");
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Exclusive"));
    subscription.flow(1n, 4);
    await subscription.whenIdle();
    expect(consumer.deliveries).toEqual([]);
    subscription.flow(1n, 1);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0]);
    expect(consumer.deliveries[0]?.permits).toBe(5);
    subscription.flow(1n, 1);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0, 1]);
  });

  it("with permit overdraft hands a whole batch to any positive balance", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append([{ numMessages: 5 }, { numMessages: 5 }]);
    const subscription = await fixture.durable("sub", "earliest", { permitOverdraft: true });
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Exclusive"));
    subscription.flow(1n, 2);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0]);
    expect(subscription.consumers()[0]?.permits).toBe(-3);
  });

  it("rewinds to the first unacknowledged entry on redeliver, with the new epoch", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(5));
    const subscription = await fixture.durable("sub");
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Exclusive"));
    subscription.flow(1n, 5);
    await subscription.whenIdle();
    await subscription.acknowledge(1n, { kind: "cumulative", offset: 1 });
    await subscription.acknowledge(1n, { kind: "individual", items: [{ offset: 3 }] });
    subscription.redeliver(1n, { epoch: 1n });
    subscription.flow(1n, 5);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0, 1, 2, 3, 4, 2, 4]);
    expect(consumer.deliveries.slice(5).map((delivery) => delivery.epoch)).toEqual([1n, 1n]);
  });
});

describe("Failover", () => {
  it("elects by priority then name, notifies changes, and the next takes over from the first unacked entry", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(6));
    const subscription = await fixture.durable("sub");
    const b = new RecordingConsumer(1);
    const a = new RecordingConsumer(2);
    const low = new RecordingConsumer(3);
    subscription.addConsumer({ ...b.options("Failover"), consumerName: "b" });
    subscription.addConsumer({ ...a.options("Failover"), consumerName: "a" });
    subscription.addConsumer({ ...low.options("Failover"), consumerName: "0-low", priorityLevel: 1 });
    expect(subscription.activeConsumerId).toBe(2n);
    expect(b.activeChanges).toEqual([true, false]);
    expect(a.activeChanges).toEqual([true]);
    expect(low.activeChanges).toEqual([false]);
    for (const id of [1n, 2n, 3n]) subscription.flow(id, 10);
    await subscription.whenIdle();
    expect(a.offsets()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(b.deliveries.length + low.deliveries.length).toBe(0);
    await subscription.acknowledge(2n, { kind: "cumulative", offset: 2 });
    await subscription.acknowledge(2n, { kind: "individual", items: [{ offset: 4 }] });
    subscription.removeConsumer(2n);
    expect(subscription.activeConsumerId).toBe(1n);
    expect(b.activeChanges).toEqual([true, false, true]);
    await subscription.whenIdle();
    expect(b.offsets()).toEqual([3, 5]);
  });

  it("with a failover delay, dispatch waits after each change of active consumer; acks made meanwhile count", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(6));
    const subscription = await fixture.durable("sub", "earliest", { failoverDelayMs: 1_000 });
    const b = new RecordingConsumer(1);
    const a = new RecordingConsumer(2);
    subscription.addConsumer({ ...b.options("Failover"), consumerName: "b" });
    subscription.flow(1n, 10);
    await subscription.whenIdle();
    fixture.clock.advance(500);
    await subscription.whenIdle();
    // A second consumer joins during the wait: the wait is not extended and only the new active one gets entries.
    subscription.addConsumer({ ...a.options("Failover"), consumerName: "a" });
    subscription.flow(2n, 10);
    await subscription.whenIdle();
    expect(a.deliveries.length + b.deliveries.length).toBe(0);
    fixture.clock.advance(500);
    await subscription.whenIdle();
    expect(b.offsets()).toEqual([]);
    expect(a.offsets()).toEqual([0, 1, 2, 3, 4, 5]);
    // The active consumer leaves after acknowledging some; others it acknowledges no more. The next one waits too.
    await subscription.acknowledge(2n, { kind: "individual", items: [{ offset: 0 }, { offset: 2 }] });
    subscription.removeConsumer(2n);
    expect(subscription.activeConsumerId).toBe(1n);
    fixture.clock.advance(999);
    await subscription.whenIdle();
    expect(b.offsets()).toEqual([]);
    fixture.clock.advance(1);
    await subscription.whenIdle();
    expect(b.offsets()).toEqual([1, 3, 4, 5]);
  });

  it("with a failover delay, the outgoing consumer's acks during the wait are not redelivered", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(4));
    const subscription = await fixture.durable("sub", "earliest", { failoverDelayMs: 1_000 });
    const b = new RecordingConsumer(1);
    const a = new RecordingConsumer(2);
    subscription.addConsumer({ ...b.options("Failover"), consumerName: "b" });
    subscription.flow(1n, 10);
    fixture.clock.advance(1_000);
    await subscription.whenIdle();
    expect(b.offsets()).toEqual([0, 1, 2, 3]);
    subscription.addConsumer({ ...a.options("Failover"), consumerName: "a" });
    subscription.flow(2n, 10);
    await subscription.acknowledge(1n, { kind: "cumulative", offset: 1 });
    fixture.clock.advance(1_000);
    await subscription.whenIdle();
    expect(a.offsets()).toEqual([2, 3]);
  });

  it("with a failover delay, a read in flight when the active consumer leaves delivers nothing during the wait", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(messages(4));
    // Reads wait for the test to let them finish.
    let releaseRead: (() => void) | undefined;
    const source: EntrySource = {
      read: async (from, maxEntries) => {
        await new Promise<void>((resolve) => (releaseRead = resolve));
        return fixture.source.read(from, maxEntries);
      },
      endOffset: () => fixture.source.endOffset(),
      findByPublishTime: (time) => fixture.source.findByPublishTime(time),
      onEntriesAvailable: (listener) => fixture.source.onEntriesAvailable(listener),
    };
    const subscription = await openDurableSubscription({
      cursors: fixture.cursors,
      name: "sub",
      source,
      initialPosition: "earliest",
      options: { clock: fixture.clock, failoverDelayMs: 1_000 },
    });
    const a = new RecordingConsumer(1);
    const b = new RecordingConsumer(2);
    subscription.addConsumer({ ...a.options("Failover"), consumerName: "a" });
    subscription.addConsumer({ ...b.options("Failover"), consumerName: "b" });
    subscription.flow(1n, 10);
    subscription.flow(2n, 10);
    fixture.clock.advance(1_000);
    await vi.waitFor(() => expect(releaseRead).toBeDefined());
    subscription.removeConsumer(1n);
    releaseRead!();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(a.offsets()).toEqual([]);
    expect(b.offsets()).toEqual([]);
    fixture.clock.advance(1_000);
    await vi.waitFor(() => {
      releaseRead?.();
      expect(b.offsets()).toEqual([0, 1, 2, 3]);
    });
    await subscription.close();
  });

  it("spreads active consumers over partitions among the best priority level", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    const actives: bigint[] = [];
    for (const partitionIndex of [0, 1, 2, 3]) {
      const subscription = await fixture.durable(`sub-${partitionIndex}`, "earliest", { partitionIndex });
      for (const [id, name] of [
        [1, "x"],
        [2, "y"],
      ] as const) {
        subscription.addConsumer({ ...new RecordingConsumer(id).options("Failover"), consumerName: name });
      }
      subscription.addConsumer({
        ...new RecordingConsumer(3).options("Failover"),
        consumerName: "a",
        priorityLevel: 5,
      });
      actives.push(subscription.activeConsumerId!);
    }
    expect(actives).toEqual([1n, 2n, 1n, 2n]);
  });
});
