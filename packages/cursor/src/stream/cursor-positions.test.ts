import { ErrorCode, type StreamHead } from "@nereus/core";
import { streamHeadFixture } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import { checkInitialPosition, resolveInitialPosition, resolveResetTarget } from "./cursor-positions.js";

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe("cursor positions", () => {
  const head: StreamHead = streamHeadFixture({ trimOffset: 3, committedEndOffset: 10 });

  it("resolves earliest, latest and offsets; clamps beyond the end; refuses below the trim", () => {
    expect(resolveInitialPosition("earliest", head)).toBe(3);
    expect(resolveInitialPosition("latest", head)).toBe(10);
    expect(resolveInitialPosition(7, head)).toBe(7);
    expect(resolveInitialPosition(70, head)).toBe(10);
    expect(codeOf(() => resolveInitialPosition(2, head))).toBe(ErrorCode.OFFSET_TRIMMED);
  });

  it("checks initial positions before any I/O", () => {
    for (const bad of [-1, 1.5, Number.NaN, "first", undefined, 2 ** 53]) {
      expect(codeOf(() => checkInitialPosition(bad))).toBe(ErrorCode.INVALID_ARGUMENT);
    }
    expect(codeOf(() => checkInitialPosition(0))).toBeUndefined();
  });

  it("a reset with a partial needs an entry at the target", () => {
    const partial = { batchSize: 2, remaining: [1n] };
    expect(resolveResetTarget(9, head, partial)).toBe(9);
    expect(codeOf(() => resolveResetTarget(10, head, partial))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(resolveResetTarget(12, head, undefined)).toBe(10);
    expect(codeOf(() => resolveResetTarget(1, head, undefined))).toBe(ErrorCode.OFFSET_TRIMMED);
  });
});
