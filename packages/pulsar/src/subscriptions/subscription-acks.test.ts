import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { batchBitsAcking } from "@nereus/cursor";
import { describe, expect, it } from "vitest";
import { RecordingConsumer } from "./test-fixtures/recording-consumer.js";
import { subscriptionFixture } from "./test-fixtures/subscription-fixture.js";

/** Core's in-memory stores for one fixture. */
const memoryStores = () => ({
  metadata: new InMemoryMetadataStore(),
  objects: new InMemoryObjectStore(),
  wal: new MemoryWalProvider({ walKind: "OBJECT" }),
});

describe("acknowledgements", () => {
  it("resolves an ack once the cursor holds it, and an ack a restart sees", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append([{}, {}, {}]);
    const subscription = await fixture.durable("sub");
    subscription.addConsumer(new RecordingConsumer(1).options("Shared"));
    subscription.flow(1n, 3);
    await subscription.whenIdle();
    const receipt = await subscription.acknowledge(1n, { kind: "individual", items: [{ offset: 0 }, { offset: 2 }] });
    expect(receipt).toEqual({ alreadyApplied: false });
    const again = await subscription.acknowledge(1n, { kind: "individual", items: [{ offset: 0 }] });
    expect(again).toEqual({ alreadyApplied: true });
    const reopened = await fixture.reopen();
    expect(reopened.get("sub")?.markDeleteOffset).toBe(1);
    expect(reopened.get("sub")?.isAcked(2)).toBe(true);
    expect(subscription.consumers()[0]?.unackedEntries).toBe(1);
  });

  it("acknowledges batch indexes, delivers the remaining ack set and charges only the unacknowledged messages", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append([{ numMessages: 4 }]);
    const subscription = await fixture.durable("sub");
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Shared"));
    subscription.flow(1n, 4);
    await subscription.whenIdle();
    expect(consumer.deliveries[0]).toMatchObject({ permits: 4 });
    expect(consumer.deliveries[0]?.ackSet).toBeUndefined();
    await subscription.acknowledge(1n, {
      kind: "individual",
      items: [{ offset: 0, batch: batchBitsAcking(4, [0, 2]) }],
    });
    expect(subscription.consumers()[0]?.unackedEntries).toBe(1);
    subscription.redeliver(1n);
    subscription.flow(1n, 2);
    await subscription.whenIdle();
    expect(consumer.deliveries[1]).toMatchObject({ permits: 2, ackSet: [0b1010n], redeliveryCount: 1 });
    await subscription.acknowledge(1n, {
      kind: "individual",
      items: [{ offset: 0, batch: batchBitsAcking(4, [1, 3]) }],
    });
    expect(fixture.cursors.get("sub")?.isAcked(0)).toBe(true);
    expect(subscription.consumers()[0]?.unackedEntries).toBe(0);
  });

  it("refuses a bit map whose batch size differs from the entry's, before writing", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append([{ numMessages: 4 }]);
    const subscription = await fixture.durable("sub");
    subscription.addConsumer(new RecordingConsumer(1).options("Exclusive"));
    subscription.flow(1n, 4);
    await subscription.whenIdle();
    await expect(
      subscription.acknowledge(1n, { kind: "individual", items: [{ offset: 0, batch: batchBitsAcking(3, [0]) }] }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(
      subscription.acknowledge(1n, {
        kind: "individual",
        items: [{ offset: 0, batch: { batchSize: 4, remaining: [0b10000n] } }],
      }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(subscription.acknowledge(9n, { kind: "individual", items: [{ offset: 0 }] })).rejects.toMatchObject({
      reason: "CONSUMER_NOT_FOUND",
    });
    expect(fixture.cursors.get("sub")?.isAcked(0, 0)).toBe(false);
  });

  it("takes the batch size of a bit map sent without one from the entry, delivered or not", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append([{ numMessages: 70 }, { numMessages: 5 }]);
    const subscription = await fixture.durable("sub");
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Shared"));
    subscription.flow(1n, 70);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0]);
    // As the Java client sends them: the remaining bits only, trailing zero words left out.
    const evenAcked = batchBitsAcking(70, new Set(Array.from({ length: 35 }, (_, index) => index * 2)));
    const notDelivered = batchBitsAcking(5, [0, 1, 2, 3]);
    await subscription.acknowledge(1n, {
      kind: "individual",
      items: [
        { offset: 0, batch: { remaining: evenAcked.remaining } },
        { offset: 1, batch: { remaining: notDelivered.remaining } },
      ],
    });
    const cursor = fixture.cursors.get("sub")!;
    expect([cursor.isAcked(0), cursor.isAcked(0, 0), cursor.isAcked(0, 1), cursor.isAcked(0, 68)]).toEqual([
      false,
      true,
      false,
      true,
    ]);
    expect([cursor.isAcked(1, 3), cursor.isAcked(1, 4)]).toEqual([true, false]);
    await expect(
      subscription.acknowledge(1n, { kind: "individual", items: [{ offset: 1, batch: { remaining: [0b100000n] } }] }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(
      subscription.acknowledge(1n, { kind: "individual", items: [{ offset: 2, batch: { remaining: [1n] } }] }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });

    await subscription.close();
    await fixture.reopen();
    const after = await fixture.durable("sub");
    const restarted = new RecordingConsumer(2);
    after.addConsumer(restarted.options("Shared"));
    after.flow(2n, 100);
    await after.whenIdle();
    expect(restarted.offsets()).toEqual([0, 1]);
    expect(restarted.deliveries.map((delivery) => [delivery.permits, delivery.ackSet])).toEqual([
      [35, evenAcked.remaining],
      [1, [0b10000n]],
    ]);
  });

  it("acknowledges cumulatively with a partial batch at the end", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append([{}, { numMessages: 3 }, {}]);
    const subscription = await fixture.durable("sub");
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Failover"));
    subscription.flow(1n, 10);
    await subscription.whenIdle();
    await subscription.acknowledge(1n, { kind: "cumulative", offset: 1, batch: batchBitsAcking(3, [0]) });
    expect(subscription.markDeleteOffset).toBe(1);
    subscription.redeliver(1n);
    subscription.flow(1n, 10);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0, 1, 2, 1, 2]);
    expect(consumer.deliveries[3]).toMatchObject({ permits: 2, ackSet: [0b110n] });
  });

  it("splits individual acks beyond the cursor's per-request limit", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(Array.from({ length: 1_500 }, () => ({})));
    const subscription = await fixture.durable("sub");
    subscription.addConsumer(new RecordingConsumer(1).options("Shared"));
    subscription.flow(1n, 1_500);
    await subscription.whenIdle();
    const items = Array.from({ length: 1_500 }, (_, offset) => ({ offset }));
    await subscription.acknowledge(1n, { kind: "individual", items });
    expect(fixture.cursors.get("sub")?.markDeleteOffset).toBe(1_500);
    expect(await subscription.backlog()).toBe(0);
  });
});
