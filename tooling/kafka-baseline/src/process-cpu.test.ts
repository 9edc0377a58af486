import { describe, expect, it } from "vitest";
import { cpuSecondsFromStat, mainThreadCpuSeconds, processCpuSeconds } from "./process-cpu.js";

describe("processCpuSeconds", () => {
  it("reads utime + stime after the last ')' of the name, in clock ticks", () => {
    const stat = "4242 (node (x) y) S 1 4242 4242 0 -1 4194560 900 0 0 0 1234 567 0 0 20 0 11 0 100 1000 50";
    expect(cpuSecondsFromStat(stat)).toBeCloseTo(18.01, 5);
  });

  it("answers NaN for what is not a stat line, and for a process that does not exist", () => {
    expect(cpuSecondsFromStat("garbage")).toBeNaN();
    expect(cpuSecondsFromStat("1 (x) S 1 2")).toBeNaN();
    expect(processCpuSeconds(2 ** 30)).toBeNaN();
  });

  it("grows while this process computes", () => {
    const before = processCpuSeconds(process.pid);
    expect(before).toBeGreaterThan(0);
    // Spin until the kernel has counted at least one more tick (bounded: at most 5 s of wall time).
    const deadline = Date.now() + 5_000;
    let after = before;
    while (after <= before && Date.now() < deadline) after = processCpuSeconds(process.pid);
    expect(after).toBeGreaterThan(before);
  });
});

describe("mainThreadCpuSeconds", () => {
  it("reads the main thread's own stat: at most the whole process's CPU, NaN for a process that does not exist", () => {
    const main = mainThreadCpuSeconds(process.pid);
    const whole = processCpuSeconds(process.pid);
    expect(main).toBeGreaterThan(0);
    expect(main).toBeLessThanOrEqual(whole);
    expect(mainThreadCpuSeconds(2 ** 30)).toBeNaN();
  });
});
