import { describe, expect, it } from "vitest";
import { CursorLane, type Settlement } from "./cursor-lane.js";

function recordingLane(maxWeight: number): { lane: CursorLane<number, number>; batches: number[][] } {
  const batches: number[][] = [];
  const lane = new CursorLane<number, number>(async (items) => {
    batches.push([...items]);
    await Promise.resolve();
    return items.map((item): Settlement<number> => ({ ok: true, value: item * 10 }));
  }, maxWeight);
  return { lane, batches };
}

describe("CursorLane", () => {
  it("takes items submitted in the same tick into one batch and resolves each with its own value", async () => {
    const { lane, batches } = recordingLane(100);
    const results = await Promise.all([1, 2, 3].map((item) => lane.submitBatchable(item, 1)));
    expect(results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it("coalesces items queued behind a batch in flight, up to the weight limit", async () => {
    const { lane, batches } = recordingLane(3);
    const first = lane.submitBatchable(0, 1);
    await Promise.resolve();
    await Promise.resolve();
    const rest = [1, 2, 3, 4, 5, 6, 7].map((item) => lane.submitBatchable(item, 1));
    await Promise.all([first, ...rest]);
    expect(batches).toEqual([[0], [1, 2, 3], [4, 5, 6], [7]]);
  });

  it("never reorders exclusive units and batchable items", async () => {
    const { lane, batches } = recordingLane(100);
    const order: string[] = [];
    const done = [
      lane.submitBatchable(1, 1),
      lane.submitBatchable(2, 1),
      lane.submitExclusive(async () => {
        order.push(`exclusive after ${String(batches.length)} batches`);
        return 0;
      }),
      lane.submitBatchable(3, 1),
    ];
    await Promise.all(done);
    expect(batches).toEqual([[1, 2], [3]]);
    expect(order).toEqual(["exclusive after 1 batches"]);
  });

  it("gives an item heavier than the limit a batch of its own", async () => {
    const { lane, batches } = recordingLane(2);
    await Promise.all([lane.submitBatchable(1, 5), lane.submitBatchable(2, 1)]);
    expect(batches).toEqual([[1], [2]]);
  });

  it("settles items one by one and rejects the whole batch when the commit throws", async () => {
    let fail = false;
    const lane = new CursorLane<number, number>(async (items) => {
      if (fail) throw new Error("boom");
      return items.map((item): Settlement<number> =>
        item % 2 === 0 ? { ok: true, value: item } : { ok: false, error: new Error(`odd ${String(item)}`) },
      );
    }, 10);
    const settled = await Promise.allSettled([lane.submitBatchable(1, 1), lane.submitBatchable(2, 1)]);
    expect(settled.map((result) => result.status)).toEqual(["rejected", "fulfilled"]);
    fail = true;
    await expect(lane.submitBatchable(4, 1)).rejects.toThrow("boom");
  });

  it("rejects an exclusive unit with its own error and keeps running later units", async () => {
    const { lane } = recordingLane(10);
    const failing = lane.submitExclusive(() => Promise.reject(new Error("exclusive failed")));
    const later = lane.submitBatchable(7, 1);
    await expect(failing).rejects.toThrow("exclusive failed");
    await expect(later).resolves.toBe(70);
    await lane.whenIdle();
    expect(lane.pending).toBe(0);
  });
});
