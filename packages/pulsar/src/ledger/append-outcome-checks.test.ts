import { type AppendResult, ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { isCorruption, unexpectedAppendResult, verdictWithin } from "./append-outcome-checks.js";
import type { AppendVerdict } from "./recover-append-verdict.js";

/** The result of one 10-byte entry committed at `offset`. */
function committed(offset: number, changes: Partial<AppendResult> = {}): AppendResult {
  return {
    startOffset: offset,
    endOffset: offset + 1,
    committedEndOffset: offset + 1,
    entryCount: 1,
    recordCount: 1,
    logicalBytes: 10,
    generation: 0,
    ...changes,
  } as AppendResult;
}

describe("unexpectedAppendResult", () => {
  it("accepts exactly the one entry admitted at its offset", () => {
    expect(unexpectedAppendResult("t", committed(7), 7, 10)).toBeUndefined();
  });

  it("names anything else an invariant violation: another offset, more entries, other bytes", () => {
    const cases: [AppendResult, number][] = [
      [committed(8), 10],
      [committed(7, { endOffset: 9, entryCount: 2 }), 10],
      [committed(7), 11],
    ];
    for (const [result, bytes] of cases) {
      const error = unexpectedAppendResult("t", result, 7, bytes);
      expect(NereusError.hasCode(error, ErrorCode.METADATA_INVARIANT_VIOLATION)).toBe(true);
      expect(error?.message).toMatch(/^topic t: an entry admitted at 7/);
    }
  });
});

describe("isCorruption", () => {
  it("is true for checksum, decode and invariant failures only", () => {
    expect(isCorruption(new NereusError(ErrorCode.OBJECT_CHECKSUM_MISMATCH, "x"))).toBe(true);
    expect(isCorruption(new NereusError(ErrorCode.DECODE_ERROR, "x"))).toBe(true);
    expect(isCorruption(new NereusError(ErrorCode.FENCED_APPEND, "x"))).toBe(false);
    expect(isCorruption(new Error("x"))).toBe(false);
  });
});

describe("verdictWithin", () => {
  const verdict: AppendVerdict = { kind: "not-committed", error: new NereusError(ErrorCode.INVALID_ARGUMENT, "x") };

  it("answers the verdict that comes in time", async () => {
    await expect(verdictWithin(Promise.resolve(verdict), 1_000)).resolves.toBe(verdict);
  });

  it("answers undefined once the wait passed first", async () => {
    await expect(verdictWithin(new Promise<AppendVerdict>(() => undefined), 5)).resolves.toBeUndefined();
  });
});
