// The factory-wide bound on appends in the store: slots are granted in call order, and with the bound below the
// store's budget many concurrent appends over several ledgers all commit (without it the store refuses some, and
// each refusal fails the entries admitted behind it).
import { describe, expect, test } from "vitest";
import { AppendSlots } from "./append-slots.js";
import { LedgerHarness } from "../../test/ledger-harness.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("AppendSlots", () => {
  test("grants up to the limit at once, then one per release, in call order", async () => {
    const slots = new AppendSlots(2);
    const granted: number[] = [];
    const calls = [0, 1, 2, 3, 4].map((index) => slots.acquire().then(() => granted.push(index)));
    await Promise.resolve();
    expect(granted).toEqual([0, 1]);
    expect([slots.used, slots.waiting]).toEqual([2, 3]);
    slots.release();
    slots.release();
    await Promise.resolve();
    expect(granted).toEqual([0, 1, 2, 3]);
    // A new caller queues behind the one still waiting even when a slot frees meanwhile.
    const late = slots.acquire().then(() => granted.push(5));
    slots.release();
    await Promise.all([calls[4], Promise.resolve()]);
    expect(granted).toEqual([0, 1, 2, 3, 4]);
    slots.release();
    await late;
    expect(granted).toEqual([0, 1, 2, 3, 4, 5]);
    expect([slots.used, slots.waiting]).toEqual([2, 0]);
    expect(() => new AppendSlots(0)).toThrow(/positive integer/);
  });
});

describe("appends bounded by the factory's slots", () => {
  async function appendMany(maxAppendsInFlight: number): Promise<PromiseSettledResult<{ offset: number }>[][]> {
    const harness = new LedgerHarness({ maxPendingAppends: 8 }, { maxAppendsInFlight });
    try {
      const ledgers = await Promise.all(["a", "b", "c"].map((name) => harness.factory.open(name)));
      return await Promise.all(
        ledgers.map((ledger) =>
          Promise.allSettled(Array.from({ length: 100 }, (_, index) => ledger.addEntry(bytes(`m${String(index)}`)))),
        ),
      );
    } finally {
      await harness.close();
    }
  }

  test("300 concurrent appends on 3 ledgers commit in order when the slots stay below the store's budget", async () => {
    const outcomes = await appendMany(8);
    for (const ledger of outcomes) {
      expect(ledger.map((outcome) => (outcome.status === "fulfilled" ? outcome.value.offset : -1))).toEqual([
        ...Array(100).keys(),
      ]);
    }
  });

  test("with more slots than the store's budget, the store refuses appends", async () => {
    const outcomes = await appendMany(1_000);
    expect(outcomes.flat().some((outcome) => outcome.status === "rejected")).toBe(true);
  });
});
