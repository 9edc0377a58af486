import { describe, expect, it } from "vitest";
import { ForegroundActivity } from "./foreground-activity.js";

function activity(busyBytesPerSecond = 1000) {
  let now = 0;
  let total = 0;
  const meter = new ForegroundActivity({ total: () => total, busyBytesPerSecond, windowMs: 1000, now: () => now });
  return {
    meter,
    advance: (ms: number, bytes: number) => {
      now += ms;
      total += bytes;
    },
  };
}

describe("ForegroundActivity", () => {
  it("is busy while the byte rate over the last window reaches the threshold, and quiet below it", () => {
    const { meter, advance } = activity(1000);
    advance(1000, 1000);
    expect(meter.busy()).toBe(true);
    advance(1000, 999);
    expect(meter.busy()).toBe(false);
    advance(2000, 2000);
    expect(meter.busy()).toBe(true);
  });

  it("keeps its verdict inside a window and re-measures over the whole time since the last sample", () => {
    const { meter, advance } = activity(1000);
    advance(1000, 5000);
    expect(meter.busy()).toBe(true);
    advance(500, 0);
    expect(meter.busy()).toBe(true);
    advance(9500, 5000);
    expect(meter.busy()).toBe(false);
  });

  it("before the first window: busy once any foreground byte was seen", () => {
    const { meter, advance } = activity(1000);
    expect(meter.busy()).toBe(false);
    advance(10, 1);
    expect(meter.busy()).toBe(true);
  });

  it("re-measures every 250 ms by default: traffic returning after a quiet spell counts within a quarter second", () => {
    let now = 0;
    let total = 0;
    const meter = new ForegroundActivity({ total: () => total, busyBytesPerSecond: 1000, now: () => now });
    now += 2000;
    expect(meter.busy()).toBe(false);
    now += 100;
    total += 1000;
    expect(meter.busy()).toBe(false);
    now += 150;
    expect(meter.busy()).toBe(true);
  });

  it("refuses a threshold or window that is not positive", () => {
    expect(() => new ForegroundActivity({ total: () => 0, busyBytesPerSecond: 0 })).toThrow(RangeError);
    expect(() => new ForegroundActivity({ total: () => 0, busyBytesPerSecond: 1, windowMs: -1 })).toThrow(RangeError);
  });
});
