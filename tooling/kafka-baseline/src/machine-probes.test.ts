import { describe, expect, it } from "vitest";
import {
  describeFreshMemory,
  describeWakeRoundTrip,
  freshMemoryTouchRate,
  threadWakeRoundTrip,
} from "./machine-probes.js";

describe("freshMemoryTouchRate", () => {
  it("measures a finite, positive rate over the pages it touches", () => {
    const rate = freshMemoryTouchRate(4 * 1024 * 1024);
    expect(Number.isFinite(rate)).toBe(true);
    expect(rate).toBeGreaterThan(0);
  });

  it("refuses sizes that are not positive multiples of a page", () => {
    for (const bytes of [0, -4096, 4095, 4097, 1.5 * 4096, Number.NaN])
      expect(() => freshMemoryTouchRate(bytes)).toThrow(RangeError);
  });
});

describe("threadWakeRoundTrip", () => {
  it("times every round trip with a worker thread and reports ordered percentiles", async () => {
    const wake = await threadWakeRoundTrip(200);
    expect(wake.rounds).toBe(200);
    expect(wake.p50Us).toBeGreaterThan(0);
    expect(wake.p90Us).toBeGreaterThanOrEqual(wake.p50Us);
    // Each round trip is one wake of the worker and one of this thread, not a wait for the 100 ms poll.
    expect(wake.p90Us).toBeLessThan(100_000);
  });

  it("refuses round counts outside 1..1000000", async () => {
    for (const rounds of [0, -1, 1.5, 1_000_001, Number.NaN])
      await expect(threadWakeRoundTrip(rounds)).rejects.toThrow(RangeError);
  });
});

describe("log lines", () => {
  it("print the readings rounded, and a question mark for a reading that is not a number", () => {
    expect(describeFreshMemory(1437.6)).toBe("fresh memory first touch 1438 MiB/s");
    expect(describeFreshMemory(Number.NaN)).toBe("fresh memory first touch ? MiB/s");
    expect(describeWakeRoundTrip({ p50Us: 131.4, p90Us: 169.9, rounds: 2000 })).toBe(
      "thread wake round trip p50 131 us, p90 170 us (2000 futex round trips)",
    );
  });
});
