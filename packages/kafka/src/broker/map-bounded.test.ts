import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { mapBounded } from "./map-bounded.js";

describe("mapBounded", () => {
  test("answers in item order with never more than the limit in flight", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: 3 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 20 }),
        async (delays, limit) => {
          let inFlight = 0;
          let most = 0;
          const results = await mapBounded(delays, limit, async (delay, index) => {
            inFlight += 1;
            most = Math.max(most, inFlight);
            for (let turn = 0; turn < delay; turn += 1) await Promise.resolve();
            inFlight -= 1;
            return index * 2;
          });
          expect(results).toEqual(delays.map((_, index) => index * 2));
          expect(most).toBeLessThanOrEqual(limit);
        },
      ),
    );
  });

  test("rejects with the first failure and starts nothing after it", async () => {
    const started: number[] = [];
    const run = mapBounded([0, 1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      await Promise.resolve();
      if (item === 1) throw new Error("boom");
      return item;
    });
    await expect(run).rejects.toThrow("boom");
    expect(started).toEqual([0, 1, 2]);
  });
});
