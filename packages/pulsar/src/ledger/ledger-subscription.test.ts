// The facade under the subscription layer: a durable subscription over an open ledger's cursors and entry source
// delivers the stored entries as they were sent, and its acknowledgements let the ledger trim.
import { afterEach, describe, expect, test, vi } from "vitest";
import { encodeMessageEntry } from "../protocol/index.js";
import { openDurableSubscription } from "../subscriptions/open-subscription.js";
import type { Delivery } from "../subscriptions/subscription-types.js";
import { ledgerEntrySource } from "./ledger-entry-source.js";
import { LedgerHarness } from "../../test/ledger-harness.js";

let harness: LedgerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("a subscription over the managed ledger", () => {
  test("delivers what was added, byte-exact and in order; acknowledged entries can be trimmed", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("subscribed");
    const subscription = await openDurableSubscription({
      cursors: ledger.cursors,
      name: "sub",
      source: ledgerEntrySource(ledger),
      initialPosition: "earliest",
    });
    const deliveries: Delivery[] = [];
    subscription.addConsumer({
      consumerId: 1n,
      consumerName: "c",
      type: "Exclusive",
      listener: { deliver: (delivery) => deliveries.push(delivery) },
    });
    subscription.flow(1n, 100);
    const sent = [0, 1, 2].map((sequence) =>
      encodeMessageEntry(
        { producerName: "p", sequenceId: BigInt(sequence), publishTime: 1n },
        new Uint8Array([sequence]),
      ),
    );
    for (const bytes of sent) await ledger.addEntry(bytes);
    await vi.waitFor(() => expect(deliveries).toHaveLength(3));
    expect(deliveries.map((delivery) => delivery.entry.bytes)).toEqual(sent);
    await subscription.acknowledge(1n, { kind: "cumulative", offset: 1 });
    expect(await ledger.trimConsumed()).toBe(2);
    await subscription.close();
  });
});
