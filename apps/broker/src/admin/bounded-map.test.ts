import { describe, expect, test } from "vitest";
import { mapBounded } from "./bounded-map.js";

describe("mapBounded", () => {
  test("keeps list order and never runs more than `concurrency` calls at once", async () => {
    let running = 0;
    let most = 0;
    const results = await mapBounded([30, 5, 20, 1, 10, 2], 2, async (delay, index) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, delay));
      running -= 1;
      return `${String(index)}:${String(delay)}`;
    });
    expect(results).toEqual(["0:30", "1:5", "2:20", "3:1", "4:10", "5:2"]);
    expect(most).toBe(2);
    expect(await mapBounded([], 4, () => Promise.resolve(1))).toEqual([]);
  });

  test("rejects with the first failure", async () => {
    await expect(
      mapBounded([1, 2, 3], 3, (value) => (value === 2 ? Promise.reject(new Error("two")) : Promise.resolve(value))),
    ).rejects.toThrow("two");
  });
});
