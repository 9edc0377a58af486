import { batchBitsAcking } from "@nereus/cursor";
import { describe, expect, it } from "vitest";
import { MemoryAcks } from "./memory-acks.js";

describe("MemoryAcks", () => {
  it("folds whole acks into markDelete and answers dispatch queries", async () => {
    const acks = new MemoryAcks(10);
    await acks.individualAck([{ offset: 12 }, { offset: 11 }]);
    expect(acks.firstUnacked()).toBe(10);
    expect(acks.nextUnacked(11)).toBe(13);
    await acks.individualAck([{ offset: 10 }]);
    expect(acks.markDeleteOffset).toBe(13);
    expect(acks.backlog(20)).toBe(7);
    expect(await acks.individualAck([{ offset: 10 }])).toEqual({ alreadyApplied: true });
  });

  it("AND-merges batch bit maps and promotes an empty map to a whole ack", async () => {
    const acks = new MemoryAcks(0);
    await acks.individualAck([{ offset: 1, batch: batchBitsAcking(3, [0]) }]);
    await acks.individualAck([{ offset: 1, batch: batchBitsAcking(3, [2]) }]);
    expect(acks.remaining(1, 3)).toEqual([0b010n]);
    await expect(acks.individualAck([{ offset: 1, batch: batchBitsAcking(4, [1]) }])).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await acks.individualAck([{ offset: 1, batch: batchBitsAcking(3, [1]) }]);
    expect(acks.isAcked(1)).toBe(true);
  });

  it("acknowledges cumulatively (with a partial end) and resets with a new state epoch", async () => {
    const acks = new MemoryAcks(0);
    await acks.cumulativeAck(4, batchBitsAcking(2, [1]));
    expect(acks.markDeleteOffset).toBe(4);
    expect(acks.remaining(4, 2)).toEqual([0b1n]);
    await acks.cumulativeAck(2);
    expect(acks.markDeleteOffset).toBe(4);
    const epoch = acks.stateEpoch;
    await acks.reset(1);
    expect([acks.markDeleteOffset, acks.stateEpoch, acks.remaining(4, 2)]).toEqual([1, epoch + 1, undefined]);
    await expect(acks.reset(-1)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
