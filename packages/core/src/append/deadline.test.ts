import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { Deadline } from "./deadline.js";

const aborted = (signal: AbortSignal): Promise<void> =>
  signal.aborted ? Promise.resolve() : new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));

describe("Deadline", () => {
  it("expires once and names the reason: TIMEOUT, CANCELLED (caller) or STORAGE_CLOSED (owner)", async () => {
    const timed = Deadline.start(5);
    await aborted(timed.signal);
    expect(timed.remainingMs()).toBe(0);
    expect(() => timed.check("op")).toThrow(expect.objectContaining({ code: ErrorCode.TIMEOUT }));

    const caller = new AbortController();
    const cancelled = Deadline.start(10_000, caller.signal);
    expect(cancelled.remainingMs()).toBeGreaterThan(9_000);
    caller.abort();
    expect(cancelled.error("op").code).toBe(ErrorCode.CANCELLED);

    const closing = new AbortController();
    const closed = Deadline.start(10_000, undefined, closing.signal);
    closing.abort();
    expect(closed.error("op").code).toBe(ErrorCode.STORAGE_CLOSED);
  });

  it("rejects a timeout that is not a positive finite number", () => {
    for (const value of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => Deadline.start(value)).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT }));
    }
  });

  it("a union aborts only when every member aborted (or its owner closes)", async () => {
    const a = new AbortController();
    const b = new AbortController();
    const union = Deadline.union([Deadline.start(10_000, a.signal), Deadline.start(20_000, b.signal)]);
    expect(union.remainingMs()).toBeGreaterThan(19_000);
    a.abort();
    expect(union.aborted).toBe(false);
    b.abort();
    await aborted(union.signal);
    expect(NereusError.is(union.error("group"))).toBe(true);

    const closing = new AbortController();
    const owned = Deadline.union([Deadline.start(10_000), Deadline.start(10_000)], closing.signal);
    closing.abort();
    expect(owned.aborted).toBe(true);
    expect(owned.error("group").code).toBe(ErrorCode.STORAGE_CLOSED);
  });
});
