// After a restart (the stream's cursors opened again by a new cursor store), dispatch starts at the cursor's first
// unacknowledged entry and delivers every entry not acknowledged before — whole, or the remaining batch indexes —
// and nothing that was acknowledged.
import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { ackedBatchIndexes, batchBitsAcking } from "@nereus/cursor";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AckRequest, SubscriptionType } from "./subscription-types.js";
import { RecordingConsumer } from "./test-fixtures/recording-consumer.js";
import { subscriptionFixture } from "./test-fixtures/subscription-fixture.js";

/** Core's in-memory stores for one fixture. */
const memoryStores = () => ({
  metadata: new InMemoryMetadataStore(),
  objects: new InMemoryObjectStore(),
  wal: new MemoryWalProvider({ walKind: "OBJECT" }),
});

type Ack =
  | { readonly kind: "whole"; readonly entry: number }
  | { readonly kind: "indexes"; readonly entry: number; readonly indexes: readonly number[] }
  | { readonly kind: "cumulative"; readonly entry: number };

const scenario = fc.record({
  type: fc.constantFrom<SubscriptionType>("Exclusive", "Shared"),
  batchSizes: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 25 }),
  delivered: fc.nat(),
  acks: fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant("whole" as const), entry: fc.nat() }),
      fc.record({ kind: fc.constant("indexes" as const), entry: fc.nat(), indexes: fc.array(fc.nat({ max: 4 })) }),
      fc.record({ kind: fc.constant("cumulative" as const), entry: fc.nat() }),
    ),
    { maxLength: 15 },
  ),
});

/** Acked batch indexes per entry, as the client knows them once each ack resolved. */
class AckModel {
  readonly #acked = new Map<number, Set<number>>();

  constructor(readonly batchSizes: readonly number[]) {}

  ackAll(entry: number): void {
    this.ackIndexes(
      entry,
      Array.from({ length: this.batchSizes[entry]! }, (_, index) => index),
    );
  }

  ackIndexes(entry: number, indexes: readonly number[]): void {
    const set = this.#acked.get(entry) ?? new Set<number>();
    for (const index of indexes) set.add(index);
    this.#acked.set(entry, set);
  }

  unackedIndexes(entry: number): number[] {
    const acked = this.#acked.get(entry) ?? new Set<number>();
    return Array.from({ length: this.batchSizes[entry]! }, (_, index) => index).filter((index) => !acked.has(index));
  }
}

describe("restart", () => {
  it("delivers exactly what was not acknowledged, never skipping an unacknowledged entry", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ type, batchSizes, delivered, acks }) => {
        const fixture = await subscriptionFixture(memoryStores());
        await fixture.source.append(batchSizes.map((numMessages) => ({ numMessages })));
        const before = await fixture.durable("sub");
        const consumer = new RecordingConsumer(1);
        before.addConsumer(consumer.options(type));
        before.flow(1n, 1 + (delivered % (5 * batchSizes.length)));
        await before.whenIdle();
        const model = new AckModel(batchSizes);
        for (const ack of acks) {
          const entry = ack.entry % batchSizes.length;
          const request = ackRequest(ack, entry, batchSizes[entry]!, type);
          if (request === undefined) continue;
          // A request that throws fails the property: every generated request is valid.
          await before.acknowledge(1n, request);
          if (ack.kind === "cumulative" && type === "Exclusive") {
            for (let earlier = 0; earlier <= entry; earlier++) model.ackAll(earlier);
          } else if (ack.kind === "indexes") {
            model.ackIndexes(
              entry,
              ack.indexes.map((index) => index % batchSizes[entry]!),
            );
          } else {
            model.ackAll(entry);
          }
        }
        await before.close();

        await fixture.reopen();
        const after = await fixture.durable("sub");
        const restarted = new RecordingConsumer(2);
        after.addConsumer(restarted.options(type));
        after.flow(2n, 1_000);
        await after.whenIdle();
        const expected = batchSizes
          .map((_, entry) => ({ entry, unacked: model.unackedIndexes(entry) }))
          .filter(({ unacked }) => unacked.length > 0);
        expect(restarted.offsets()).toEqual(expected.map(({ entry }) => entry));
        for (const delivery of restarted.deliveries) {
          const entry = delivery.entry.offset;
          const size = batchSizes[entry]!;
          const acked =
            delivery.ackSet === undefined ? [] : ackedBatchIndexes({ batchSize: size, remaining: delivery.ackSet });
          expect(Array.from({ length: size }, (_, index) => index).filter((index) => !acked.includes(index))).toEqual(
            model.unackedIndexes(entry),
          );
          expect(delivery.permits).toBe(model.unackedIndexes(entry).length);
        }
      }),
      { numRuns: 60 },
    );
  });
});

function ackRequest(ack: Ack, entry: number, size: number, type: SubscriptionType): AckRequest | undefined {
  if (ack.kind === "cumulative") return type === "Exclusive" ? { kind: "cumulative", offset: entry } : undefined;
  if (ack.kind === "indexes" && size === 1 && ack.indexes.length === 0) return undefined;
  if (ack.kind === "whole" || size === 1) return { kind: "individual", items: [{ offset: entry }] };
  const batch = batchBitsAcking(size, new Set(ack.indexes.map((index) => index % size)));
  return { kind: "individual", items: [{ offset: entry, batch }] };
}
