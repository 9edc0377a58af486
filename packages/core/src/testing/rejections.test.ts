import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { nereusRejectionOf, rejectionOf } from "./rejections.js";

describe("rejectionOf / nereusRejectionOf", () => {
  it("return what the promise rejected with", async () => {
    const plain = new Error("plain");
    expect(await rejectionOf(Promise.reject(plain))).toBe(plain);
    const nereus = new NereusError(ErrorCode.INVALID_ARGUMENT, "bad");
    expect(await nereusRejectionOf(Promise.reject(nereus))).toBe(nereus);
  });

  it("fail when the promise fulfils, and nereusRejectionOf rethrows a rejection that is not a NereusError", async () => {
    await expect(rejectionOf(Promise.resolve(1))).rejects.toThrow("expected the promise to reject");
    await expect(nereusRejectionOf(Promise.resolve(1))).rejects.toThrow("expected the promise to reject");
    const plain = new Error("plain");
    await expect(nereusRejectionOf(Promise.reject(plain))).rejects.toBe(plain);
  });
});
