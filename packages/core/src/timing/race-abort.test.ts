import { describe, expect, it } from "vitest";
import { raceAbort } from "./race-abort.js";

describe("raceAbort", () => {
  it("settles with the promise when the signal stays quiet", async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(7), controller.signal, () => new Error("aborted"))).resolves.toBe(7);
    await expect(
      raceAbort(Promise.reject(new Error("boom")), controller.signal, () => new Error("aborted")),
    ).rejects.toThrow("boom");
  });

  it("rejects with the caller's error when the signal fires first, and leaves the work running", async () => {
    const controller = new AbortController();
    let finish!: (value: number) => void;
    const work = new Promise<number>((resolve) => {
      finish = resolve;
    });
    const raced = raceAbort(work, controller.signal, () => new Error("gave up"));
    controller.abort();
    await expect(raced).rejects.toThrow("gave up");
    finish(1);
    await expect(work).resolves.toBe(1);
  });

  it("rejects at once on a signal that already aborted, without an unhandled rejection of the work", async () => {
    const raced = raceAbort(Promise.reject(new Error("late")), AbortSignal.abort(), () => new Error("already aborted"));
    await expect(raced).rejects.toThrow("already aborted");
  });

  it("returns the promise itself without a signal", () => {
    const work = Promise.resolve(1);
    expect(raceAbort(work, undefined, () => new Error("never"))).toBe(work);
  });
});
