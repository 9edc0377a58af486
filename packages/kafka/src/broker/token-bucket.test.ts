import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { TokenBucket } from "./token-bucket.js";

describe("TokenBucket", () => {
  test("starts full, refuses when empty, refills at its rate up to its capacity", () => {
    let now = 0;
    const bucket = new TokenBucket(10, 3, () => now);
    expect([bucket.tryTake(), bucket.tryTake(), bucket.tryTake(), bucket.tryTake()]).toEqual([true, true, true, false]);
    now = 99;
    expect(bucket.tryTake()).toBe(false);
    now = 100;
    expect([bucket.tryTake(), bucket.tryTake()]).toEqual([true, false]);
    now = 60_000;
    expect([bucket.tryTake(), bucket.tryTake(), bucket.tryTake(), bucket.tryTake()]).toEqual([true, true, true, false]);
  });

  test("over any schedule of takes, grants at most capacity + rate × elapsed, and every take while tokens are saved", () => {
    const schedule = fc.array(fc.nat({ max: 2_000 }), { minLength: 1, maxLength: 300 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 50 }),
        schedule,
        (rate, capacity, steps) => {
          let now = 0;
          const bucket = new TokenBucket(rate, capacity, () => now);
          let granted = 0;
          for (const step of steps) {
            now += step;
            if (bucket.tryTake()) granted += 1;
            expect(granted).toBeLessThanOrEqual(capacity + (rate * now) / 1000);
          }
          // After a quiet period long enough to fill it, exactly `capacity` takes in a row succeed.
          now += Math.ceil((capacity * 1000) / rate) + 1;
          const burst = Array.from({ length: capacity + 1 }, () => bucket.tryTake());
          expect(burst.filter(Boolean)).toHaveLength(capacity);
        },
      ),
    );
  });
});
