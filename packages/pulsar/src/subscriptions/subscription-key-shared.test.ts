import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import { stickyKeySlot } from "./sticky-key-hash.js";
import { RecordingConsumer } from "./test-fixtures/recording-consumer.js";
import { keyOf } from "./test-fixtures/stream-entry-source.js";
import { subscriptionFixture } from "./test-fixtures/subscription-fixture.js";

/** Core's in-memory stores for one fixture. */
const memoryStores = () => ({
  metadata: new InMemoryMetadataStore(),
  objects: new InMemoryObjectStore(),
  wal: new MemoryWalProvider({ walKind: "OBJECT" }),
});

const encoder = new TextEncoder();

/** A key whose slot is in the lower half (taken by the second consumer) or the upper half (kept by the first). */
function keyIn(half: "lower" | "upper", skip = 0): string {
  let found = 0;
  for (let index = 0; ; index++) {
    const key = `key-${index}`;
    const slot = stickyKeySlot(encoder.encode(key));
    if ((half === "lower") === slot <= 32_768 && found++ === skip) return key;
  }
}

describe("Key_Shared", () => {
  it("sends each key to one consumer, by the auto-split hash ranges", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    const lower = keyIn("lower");
    const upper = keyIn("upper");
    await fixture.source.append([{ key: lower }, { key: upper }, { key: lower }, { key: upper }, { key: lower }]);
    const subscription = await fixture.durable("sub");
    const first = new RecordingConsumer(1);
    const second = new RecordingConsumer(2);
    subscription.addConsumer(first.options("Key_Shared"));
    subscription.addConsumer(second.options("Key_Shared"));
    subscription.flow(1n, 10);
    subscription.flow(2n, 10);
    await subscription.whenIdle();
    expect(first.offsets()).toEqual([1, 3]);
    expect(second.offsets()).toEqual([0, 2, 4]);
  });

  it("holds a key back from a joining consumer until the previous owner acknowledged it", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    const moving = keyIn("lower");
    const staying = keyIn("upper");
    await fixture.source.append([{ key: moving }, { key: staying }]);
    const subscription = await fixture.durable("sub");
    const first = new RecordingConsumer(1);
    subscription.addConsumer(first.options("Key_Shared"));
    subscription.flow(1n, 10);
    await subscription.whenIdle();
    expect(first.offsets()).toEqual([0, 1]);

    const second = new RecordingConsumer(2);
    subscription.addConsumer(second.options("Key_Shared"));
    subscription.flow(2n, 10);
    await fixture.source.append([{ key: moving }, { key: staying }, { key: moving }]);
    await subscription.whenIdle();
    expect(first.offsets()).toEqual([0, 1, 3]);
    expect(second.offsets()).toEqual([]);

    await subscription.acknowledge(1n, { kind: "individual", items: [{ offset: 0 }] });
    await subscription.whenIdle();
    expect(second.offsets()).toEqual([2, 4]);
    expect(second.deliveries.map((delivery) => keyOf(delivery.entry))).toEqual([moving, moving]);
  });

  it("redelivers a leaving consumer's keys in order to their new owner", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    const keys = [keyIn("lower"), keyIn("upper"), keyIn("lower", 1)];
    await fixture.source.append([0, 1, 2, 0, 1, 2].map((index) => ({ key: keys[index] })));
    const subscription = await fixture.durable("sub");
    const first = new RecordingConsumer(1);
    const second = new RecordingConsumer(2);
    subscription.addConsumer(first.options("Key_Shared"));
    subscription.addConsumer(second.options("Key_Shared"));
    subscription.flow(1n, 10);
    subscription.flow(2n, 2);
    await subscription.whenIdle();
    expect(second.offsets()).toEqual([0, 2]);
    expect(first.offsets()).toEqual([1, 4]);
    subscription.removeConsumer(2n);
    await subscription.whenIdle();
    expect(first.offsets()).toEqual([1, 4, 0, 2, 3, 5]);
  });

  it("keeps other keys flowing while one key waits for its consumer's permits", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    const lower = keyIn("lower");
    const upper = keyIn("upper");
    await fixture.source.append([{ key: lower }, { key: lower }, { key: upper }, { key: upper }]);
    const subscription = await fixture.durable("sub");
    const first = new RecordingConsumer(1);
    const second = new RecordingConsumer(2);
    subscription.addConsumer(first.options("Key_Shared"));
    subscription.addConsumer(second.options("Key_Shared"));
    subscription.flow(1n, 10);
    await subscription.whenIdle();
    expect(first.offsets()).toEqual([2, 3]);
    subscription.flow(2n, 1);
    await subscription.whenIdle();
    expect(second.offsets()).toEqual([0]);
    subscription.flow(2n, 1);
    await subscription.whenIdle();
    expect(second.offsets()).toEqual([0, 1]);
  });

  it("treats entries without a key as one key", async () => {
    const fixture = await subscriptionFixture(memoryStores());
    await fixture.source.append([{}, {}, {}]);
    const subscription = await fixture.durable("sub");
    const first = new RecordingConsumer(1);
    const second = new RecordingConsumer(2);
    subscription.addConsumer(first.options("Key_Shared"));
    subscription.addConsumer(second.options("Key_Shared"));
    subscription.flow(1n, 10);
    subscription.flow(2n, 10);
    await subscription.whenIdle();
    expect([first.offsets(), second.offsets()].sort()).toEqual([[], [0, 1, 2]]);
  });
});
