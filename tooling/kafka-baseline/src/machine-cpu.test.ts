import { describe, expect, it } from "vitest";
import { busyFraction, machineCpuTicks, machineCpuTicksFromStat } from "./machine-cpu.js";

describe("machineCpuTicksFromStat", () => {
  it("counts user, nice, system, irq, softirq and steal as busy, idle and iowait as not", () => {
    const stat = "cpu  100 5 40 800 30 2 3 10 7 0\ncpu0 50 2 20 400 15 1 1 5 3 0\nintr 1 2 3\n";
    // busy = 100 + 5 + 40 + 2 + 3 + 10 = 160 (guest 7 is inside user already); total = 160 + 800 + 30.
    expect(machineCpuTicksFromStat(stat)).toEqual({ busy: 160, total: 990 });
  });

  it("answers undefined without an aggregate cpu line or with a field that is not a count", () => {
    expect(machineCpuTicksFromStat("cpu0 1 2 3 4 5 6 7 8\n")).toBeUndefined();
    expect(machineCpuTicksFromStat("cpu  1 2 3 x 5 6 7 8\n")).toBeUndefined();
    expect(machineCpuTicksFromStat("cpu  1 2 3\n")).toBeUndefined();
  });
});

describe("busyFraction", () => {
  it("is the busy share of the ticks between two readings", () => {
    expect(busyFraction({ busy: 100, total: 400 }, { busy: 250, total: 600 })).toBeCloseTo(0.75, 10);
  });

  it("is NaN when a reading is missing or no time passed", () => {
    expect(busyFraction(undefined, { busy: 1, total: 2 })).toBeNaN();
    expect(busyFraction({ busy: 1, total: 2 }, { busy: 1, total: 2 })).toBeNaN();
  });

  it("reads this machine's /proc/stat, whose counters only grow", () => {
    const first = machineCpuTicks();
    expect(first).toBeDefined();
    // Spin until the kernel has counted at least one more tick (bounded: at most 5 s of wall time).
    const deadline = Date.now() + 5_000;
    let second = machineCpuTicks();
    while (second !== undefined && first !== undefined && second.total <= first.total && Date.now() < deadline)
      second = machineCpuTicks();
    expect(second!.total).toBeGreaterThan(first!.total);
    expect(second!.busy).toBeGreaterThanOrEqual(first!.busy);
  });
});
