import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { Deadline } from "./deadline.js";

const aborted = (signal: AbortSignal): Promise<void> =>
  signal.aborted
    ? Promise.resolve()
    : new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));

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

  it("carries the first source's reason, like AbortSignal.any([timeout, caller, closing])", async () => {
    const timed = Deadline.start(5);
    await aborted(timed.signal);
    expect(timed.signal.reason).toMatchObject({ name: "TimeoutError" });

    const caller = new AbortController();
    const cancelled = Deadline.start(10_000, caller.signal);
    const why = new Error("caller gave up");
    caller.abort(why);
    expect(cancelled.signal.reason).toBe(why);

    const early = new AbortController();
    early.abort("already");
    const closing = new AbortController();
    closing.abort("closed");
    expect(Deadline.start(10_000, early.signal, closing.signal).signal.reason).toBe("already");
    expect(Deadline.start(10_000, undefined, closing.signal).signal.reason).toBe("closed");
  });

  it("dispose releases the timer and the sources: a disposed deadline never aborts", async () => {
    const closing = new AbortController();
    const disposed = Deadline.start(5, undefined, closing.signal);
    const live = Array.from({ length: 100 }, () => Deadline.start(10_000, undefined, closing.signal));
    disposed.dispose();
    disposed.dispose();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(disposed.aborted).toBe(false);
    closing.abort();
    expect(disposed.aborted).toBe(false);
    expect(live.every((deadline) => deadline.aborted && deadline.error("op").code === ErrorCode.STORAGE_CLOSED)).toBe(
      true,
    );
  });

  it("a one-member union is a view: same signal, and disposing it leaves the member running", async () => {
    const member = Deadline.start(5);
    const view = Deadline.union([member]);
    expect(view.signal).toBe(member.signal);
    view.dispose();
    await aborted(member.signal);
    expect(view.error("op").code).toBe(ErrorCode.TIMEOUT);
  });

  it("a disposed union stops following its members", () => {
    const a = new AbortController();
    const b = new AbortController();
    const union = Deadline.union([Deadline.start(10_000, a.signal), Deadline.start(10_000, b.signal)]);
    union.dispose();
    a.abort();
    b.abort();
    expect(union.aborted).toBe(false);
  });

  it("its signal takes one listener per concurrent step without Node's MaxListenersExceededWarning", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on("warning", onWarning);
    try {
      for (const deadline of [Deadline.start(1_000), Deadline.union([Deadline.start(1_000), Deadline.start(1_000)])]) {
        const listeners = Array.from({ length: 64 }, () => () => undefined);
        for (const listener of listeners) deadline.signal.addEventListener("abort", listener);
        for (const listener of listeners) deadline.signal.removeEventListener("abort", listener);
        deadline.dispose();
      }
      const plain = new AbortController().signal;
      for (let index = 0; index < 11; index += 1) plain.addEventListener("abort", () => undefined);
      await new Promise((resolve) => setTimeout(resolve, 10));
      // The plain signal shows the warning would be seen here; the deadlines' signals caused none.
      expect(warnings.map((warning) => warning.name)).toEqual(["MaxListenersExceededWarning"]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
