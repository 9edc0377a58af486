// Model-checked properties of dispatch over the real cursor and stream stores: random interleavings of appends,
// permits, acks, negative acks and consumers joining and leaving.
import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Subscription } from "./subscription.js";
import type { ConsumerListener, Delivery, SubscriptionType } from "./subscription-types.js";
import { keyOf } from "./test-fixtures/stream-entry-source.js";
import { subscriptionFixture } from "./test-fixtures/subscription-fixture.js";

/** Core's in-memory stores for one fixture. */
const memoryStores = () => ({
  metadata: new InMemoryMetadataStore(),
  objects: new InMemoryObjectStore(),
  wal: new MemoryWalProvider({ walKind: "OBJECT" }),
});

type Op =
  | { readonly kind: "append"; readonly entries: readonly { readonly key: number; readonly numMessages: number }[] }
  | { readonly kind: "flow"; readonly slot: number; readonly permits: number }
  | { readonly kind: "ack"; readonly slot: number; readonly pick: number }
  | { readonly kind: "ackAll"; readonly slot: number }
  | { readonly kind: "nack"; readonly slot: number; readonly pick: number }
  | { readonly kind: "join"; readonly slot: number }
  | { readonly kind: "leave"; readonly slot: number };

const SLOTS = 3;
const slot = fc.integer({ min: 0, max: SLOTS - 1 });
/** Operation mix: weights of negative acks, of acks, and of consumers joining and leaving. */
interface Mix {
  readonly nacks: number;
  readonly acks: number;
  readonly churn: number;
}

const opArbitrary = ({ nacks, acks, churn }: Mix): fc.Arbitrary<Op> =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("append" as const),
        entries: fc.array(
          fc.record({ key: fc.integer({ min: 0, max: 3 }), numMessages: fc.integer({ min: 1, max: 3 }) }),
          { minLength: 1, maxLength: 6 },
        ),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant("flow" as const), slot, permits: fc.integer({ min: 1, max: 12 }) }),
    },
    { weight: acks, arbitrary: fc.record({ kind: fc.constant("ack" as const), slot, pick: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("ackAll" as const), slot }) },
    { weight: nacks, arbitrary: fc.record({ kind: fc.constant("nack" as const), slot, pick: fc.nat() }) },
    { weight: churn, arbitrary: fc.record({ kind: fc.constant("join" as const), slot }) },
    { weight: churn, arbitrary: fc.record({ kind: fc.constant("leave" as const), slot }) },
  );

/** The client side of the model: who holds what, what each connection was granted and charged. */
class Model {
  readonly holder = new Map<number, bigint>();
  readonly acked = new Set<number>();
  readonly granted = new Map<bigint, number>();
  readonly charged = new Map<bigint, number>();
  readonly deliveries = new Map<bigint, Delivery[]>();
  readonly firstDelivered: number[] = [];
  violations: string[] = [];

  listener(id: bigint, type: SubscriptionType): ConsumerListener {
    this.deliveries.set(id, []);
    return {
      deliver: (delivery) => this.#onDelivery(id, type, delivery),
      // A Failover hand-over may give the new active consumer what the previous one still held.
      activeChanged: (active) => {
        if (!active) this.release(id, this.held(id));
      },
    };
  }

  held(id: bigint): number[] {
    return [...this.holder].filter(([, holder]) => holder === id).map(([offset]) => offset);
  }

  release(id: bigint, offsets: readonly number[]): void {
    for (const offset of offsets) if (this.holder.get(offset) === id) this.holder.delete(offset);
  }

  #onDelivery(id: bigint, type: SubscriptionType, delivery: Delivery): void {
    const offset = delivery.entry.offset;
    const charged = (this.charged.get(id) ?? 0) + delivery.permits;
    this.charged.set(id, charged);
    if (charged > (this.granted.get(id) ?? 0)) this.violations.push(`consumer ${id} charged beyond its permits`);
    if (this.acked.has(offset)) this.violations.push(`acked entry ${offset} delivered again`);
    const current = this.holder.get(offset);
    if (current !== undefined && current !== id) this.violations.push(`entry ${offset} held by ${current} and ${id}`);
    if (type === "Key_Shared") this.#checkKeyOrder(id, delivery);
    if (!this.firstDelivered.includes(offset)) this.firstDelivered.push(offset);
    this.holder.set(offset, id);
    this.deliveries.get(id)!.push(delivery);
  }

  #checkKeyOrder(id: bigint, delivery: Delivery): void {
    const key = keyOf(delivery.entry);
    for (const [offset, holder] of this.holder) {
      if (holder === id) continue;
      const other = [...this.deliveries.get(holder)!].reverse().find((earlier) => earlier.entry.offset === offset);
      if (other !== undefined && keyOf(other.entry) === key) {
        this.violations.push(`key ${key} at ${delivery.entry.offset} to ${id} while ${holder} holds ${offset}`);
      }
    }
    const earlier = this.deliveries.get(id)!.filter((previous) => keyOf(previous.entry) === key);
    const last = earlier[earlier.length - 1];
    if (last !== undefined && last.entry.offset >= delivery.entry.offset) {
      this.violations.push(`key ${key}: consumer ${id} got ${delivery.entry.offset} after ${last.entry.offset}`);
    }
  }
}

interface Run {
  readonly subscription: Subscription;
  readonly model: Model;
  readonly connections: Map<number, bigint>;
  appended: number;
}

async function runOps(
  type: SubscriptionType,
  ops: readonly Op[],
): Promise<Run & { fixture: Awaited<ReturnType<typeof subscriptionFixture>> }> {
  const fixture = await subscriptionFixture(memoryStores());
  const subscription = await fixture.durable("sub");
  const model = new Model();
  const run = { subscription, model, connections: new Map<number, bigint>(), appended: 0, fixture };
  let nextId = 1n;
  for (const op of ops) {
    const id = "slot" in op ? run.connections.get(op.slot) : undefined;
    switch (op.kind) {
      case "append":
        await fixture.source.append(
          op.entries.map((entry) => ({ key: `k${entry.key}`, numMessages: entry.numMessages })),
        );
        run.appended += op.entries.length;
        break;
      case "join":
        if (id !== undefined) break;
        run.connections.set(op.slot, nextId);
        subscription.addConsumer({
          consumerId: nextId,
          consumerName: `c${nextId}`,
          type,
          listener: model.listener(nextId, type),
        });
        nextId += 1n;
        break;
      case "leave":
        if (id === undefined) break;
        run.connections.delete(op.slot);
        subscription.removeConsumer(id);
        model.release(id, model.held(id));
        break;
      case "flow":
        if (id === undefined) break;
        model.granted.set(id, (model.granted.get(id) ?? 0) + op.permits);
        subscription.flow(id, op.permits);
        break;
      case "ack":
      case "ackAll": {
        if (id === undefined) break;
        const held = model.held(id);
        const chosen = op.kind === "ackAll" ? held : held.slice(op.pick % Math.max(1, held.length)).slice(0, 1);
        if (chosen.length === 0) break;
        await subscription.acknowledge(id, { kind: "individual", items: chosen.map((offset) => ({ offset })) });
        model.release(id, chosen);
        for (const offset of chosen) model.acked.add(offset);
        break;
      }
      case "nack": {
        if (id === undefined) break;
        const held = model.held(id);
        const chosen = held[op.pick % Math.max(1, held.length)];
        if (chosen === undefined) break;
        model.release(id, [chosen]);
        subscription.redeliver(id, { offsets: [chosen] });
        break;
      }
    }
    await subscription.whenIdle();
    expect(model.violations).toEqual([]);
  }
  return run;
}

/** Leaves one consumer with ample permits and acknowledges until everything appended is acknowledged. */
async function drain(run: Run, type: SubscriptionType): Promise<void> {
  const { subscription, model } = run;
  const id = 1_000n;
  if (type !== "Exclusive") {
    subscription.addConsumer({ consumerId: id, consumerName: "drain", type, listener: model.listener(id, type) });
  }
  // The others leave without acknowledging: what they held must reach the drain consumer.
  for (const [slotIndex, other] of run.connections) {
    subscription.removeConsumer(other);
    model.release(other, model.held(other));
    run.connections.delete(slotIndex);
  }
  if (type === "Exclusive") {
    subscription.addConsumer({ consumerId: id, consumerName: "drain", type, listener: model.listener(id, type) });
  }
  model.granted.set(id, 1_000_000);
  subscription.flow(id, 1_000_000);
  for (let round = 0; round < 10 && model.acked.size < run.appended; round++) {
    await subscription.whenIdle();
    const held = model.held(id);
    if (held.length > 0)
      await subscription.acknowledge(id, { kind: "individual", items: held.map((offset) => ({ offset })) });
    model.release(id, held);
    for (const offset of held) model.acked.add(offset);
  }
  expect(model.violations).toEqual([]);
  expect(model.acked.size).toBe(run.appended);
  expect(await subscription.backlog()).toBe(0);
}

/** Scripts start with every consumer slot joined, then run random operations. */
const ops = (mix: Mix) =>
  fc
    .array(opArbitrary(mix), { minLength: 10, maxLength: 60 })
    .map((script): Op[] => [
      ...Array.from({ length: SLOTS }, (_, index) => ({ kind: "join" as const, slot: index })),
      ...script,
    ]);

describe("dispatch properties", () => {
  it("Shared: every entry is with exactly one consumer until acked, permits are never exceeded, nothing is lost", async () => {
    await fc.assert(
      fc.asyncProperty(ops({ nacks: 2, acks: 3, churn: 1 }), async (script) => {
        const run = await runOps("Shared", script);
        await drain(run, "Shared");
      }),
      { numRuns: 40 },
    );
  });

  it("Key_Shared: a key's entries are with one consumer at a time, in order, across joins and leaves", async () => {
    await fc.assert(
      fc.asyncProperty(ops({ nacks: 0, acks: 1, churn: 3 }), async (script) => {
        const run = await runOps("Key_Shared", script);
        await drain(run, "Key_Shared");
        const byKey = new Map<string, number[]>();
        for (const offset of run.model.firstDelivered) {
          const delivery = [...run.model.deliveries.values()]
            .flat()
            .find((candidate) => candidate.entry.offset === offset)!;
          const key = keyOf(delivery.entry)!;
          byKey.set(key, [...(byKey.get(key) ?? []), offset]);
        }
        for (const offsets of byKey.values()) expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
      }),
      { numRuns: 150 },
    );
  });

  it("Failover: the active consumer gets entries in order and nothing unacked is skipped on hand-over", async () => {
    await fc.assert(
      fc.asyncProperty(ops({ nacks: 0, acks: 3, churn: 2 }), async (script) => {
        const run = await runOps("Failover", script);
        await drain(run, "Failover");
      }),
      { numRuns: 25 },
    );
  });
});
