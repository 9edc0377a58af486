import { describe, expect, test } from "vitest";
import { RequestMemoryBudget } from "./request-memory-budget.js";

describe("RequestMemoryBudget", () => {
  test("reserves while there is room, and one frame larger than the budget when nothing is held", () => {
    const budget = new RequestMemoryBudget(100);
    expect(budget.tryReserve(60)).toBe(true);
    expect(budget.tryReserve(50)).toBe(false);
    expect(budget.tryReserve(40)).toBe(true);
    expect(budget.tryReserve(0)).toBe(false);
    budget.release(100);
    expect(budget.tryReserve(500)).toBe(true);
    expect(budget.usedBytes).toBe(500);
  });

  test("waiters are let in first come, first served, and newcomers do not jump the line", () => {
    const budget = new RequestMemoryBudget(100);
    budget.charge(90);
    const granted: string[] = [];
    const big = {};
    const small = {};
    budget.wait(big, 80, () => granted.push("big"));
    budget.wait(small, 10, () => granted.push("small"));
    expect(budget.tryReserve(5)).toBe(false);
    budget.release(20);
    expect(granted).toEqual([]);
    budget.release(70);
    expect(granted).toEqual(["big", "small"]);
    expect(budget.usedBytes).toBe(90);
  });

  test("a cancelled waiter is never granted and does not block the line", () => {
    const budget = new RequestMemoryBudget(10);
    budget.charge(10);
    const granted: string[] = [];
    const gone = {};
    budget.wait(gone, 10, () => granted.push("gone"));
    budget.wait({}, 0, () => granted.push("reader"));
    budget.cancel(gone);
    budget.release(1);
    expect(granted).toEqual(["reader"]);
  });
});
