import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import { stickyKeySlot } from "./sticky-key-hash.js";
import { RecordingConsumer } from "./test-fixtures/recording-consumer.js";
import { subscriptionFixture } from "./test-fixtures/subscription-fixture.js";

/** Core's in-memory stores for one fixture. */
const memoryStores = () => ({
  metadata: new InMemoryMetadataStore(),
  objects: new InMemoryObjectStore(),
  wal: new MemoryWalProvider({ walKind: "OBJECT" }),
});

const timed = (count: number) => Array.from({ length: count }, (_, index) => ({ publishTime: 100 * (index + 1) }));

describe("seek", () => {
  it("resets the cursor to an offset and disconnects the consumers; they resume there", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(timed(6));
    const subscription = await fixture.durable("sub");
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Exclusive"));
    subscription.flow(1n, 10);
    await subscription.whenIdle();
    await subscription.acknowledge(1n, { kind: "cumulative", offset: 4 });
    await subscription.seek({ offset: 2 });
    expect(consumer.disconnects).toEqual(["seek"]);
    expect(subscription.consumers()).toEqual([]);
    expect(fixture.cursors.get("sub")?.markDeleteOffset).toBe(2);
    const again = new RecordingConsumer(1);
    subscription.addConsumer(again.options("Exclusive"));
    subscription.flow(1n, 10);
    await subscription.whenIdle();
    expect(again.offsets()).toEqual([2, 3, 4, 5]);
  });

  it("seeks into a batch named without its size: the cleared indexes count as acknowledged", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append([{}, { numMessages: 4 }, {}]);
    const subscription = await fixture.durable("sub", "latest");
    // A seek to batch index 2 of entry 1, as the Java client sends it: indexes 0 and 1 cleared, no batch size.
    await subscription.seek({ offset: 1, partial: { remaining: [0b1100n] } });
    expect(fixture.cursors.get("sub")?.isAcked(1, 1)).toBe(true);
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Exclusive"));
    subscription.flow(1n, 10);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([1, 2]);
    expect(consumer.deliveries[0]).toMatchObject({ permits: 2, ackSet: [0b1100n] });
    await expect(subscription.seek({ offset: 1, partial: { remaining: [0b10000n] } })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    expect(consumer.disconnects).toEqual([]);
  });

  it("seeks by publish time to the first entry published at or after it", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(timed(6));
    const subscription = await fixture.durable("sub", "latest");
    await subscription.seek({ publishTime: 250 });
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Shared"));
    subscription.flow(1n, 10);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([2, 3, 4, 5]);
  });

  it("lands on the first stored entry when the target was trimmed, and refuses bad targets before any change", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(timed(6));
    const subscription = await fixture.durable("sub", "latest");
    await fixture.cursors.raiseFloor();
    await fixture.cursors.trim(3, "test");
    await subscription.seek({ offset: 0 });
    expect(fixture.cursors.get("sub")?.markDeleteOffset).toBe(3);
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Exclusive"));
    await expect(subscription.seek({ offset: -1 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(consumer.disconnects).toEqual([]);
  });

  it("refuses subscribes while the reset runs", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(timed(2));
    const subscription = await fixture.durable("sub");
    const seeking = subscription.seek({ offset: 1 });
    expect(() => subscription.addConsumer(new RecordingConsumer(1).options("Shared"))).toThrow(/busy with seek/);
    await seeking;
    subscription.addConsumer(new RecordingConsumer(1).options("Shared"));
  });

  it("restarts dispatch when the cursor is reset behind the subscription's back", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append(timed(4));
    const subscription = await fixture.durable("sub");
    const consumer = new RecordingConsumer(1);
    subscription.addConsumer(consumer.options("Exclusive"));
    subscription.flow(1n, 2);
    await subscription.whenIdle();
    await fixture.cursors.resetCursor("sub", 3);
    subscription.flow(1n, 2);
    await subscription.whenIdle();
    expect(consumer.offsets()).toEqual([0, 1, 3]);
  });
});

describe("unsubscribe", () => {
  it("deletes the cursor for the only consumer and refuses while others are connected", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    const subscription = await fixture.durable("sub");
    const first = new RecordingConsumer(1);
    subscription.addConsumer(first.options("Shared"));
    subscription.addConsumer(new RecordingConsumer(2).options("Shared"));
    await expect(subscription.unsubscribe(1n)).rejects.toMatchObject({ reason: "CONSUMER_BUSY" });
    subscription.removeConsumer(2n);
    await subscription.unsubscribe(1n);
    expect(fixture.cursors.get("sub")).toBeUndefined();
    expect(first.disconnects).toEqual([]);
    expect(() => subscription.addConsumer(first.options("Shared"))).toThrow(/closed/);
  });
});

describe("cursor operations made elsewhere", () => {
  it("frees Key_Shared keys held by entries a skip acknowledged", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append([{ key: "a" }, { key: "a" }]);
    const subscription = await fixture.durable("sub");
    const first = new RecordingConsumer(1);
    subscription.addConsumer(first.options("Key_Shared"));
    subscription.flow(1n, 1);
    await subscription.whenIdle();
    const second = new RecordingConsumer(2);
    subscription.addConsumer(second.options("Key_Shared"));
    subscription.flow(2n, 5);
    subscription.flow(1n, 5);
    await subscription.whenIdle();
    // Key "a" hashes into the lower half, which the second consumer takes: entry 1 waits for entry 0's ack.
    expect(stickyKeySlot(new TextEncoder().encode("a"))).toBeLessThanOrEqual(32_768);
    expect([first.offsets(), second.offsets()]).toEqual([[0], []]);
    await fixture.cursors.get("sub")!.skip(1, { committedEnd: 2 });
    subscription.flow(1n, 0);
    await subscription.whenIdle();
    expect(second.offsets()).toEqual([1]);
  });
});
