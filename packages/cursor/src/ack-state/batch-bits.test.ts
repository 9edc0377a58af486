import { ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, it } from "vitest";
import {
  ackedBatchIndexes,
  batchBitsAcking,
  batchBitsEqual,
  classifyBatchBits,
  fullRemaining,
  isIndexAcked,
  mergeBatchBits,
} from "./batch-bits.js";
import { MAX_BATCH_SIZE } from "../domain/ack-types.js";

const ALL = (1n << 64n) - 1n;

const expectInvalid = (run: () => unknown): void => {
  try {
    run();
  } catch (error) {
    expect(NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)).toBe(true);
    return;
  }
  expect.fail("expected INVALID_ARGUMENT");
};

describe("batch bit maps", () => {
  it("classifies maps: no bit left is a whole ack, every bit set is no ack, trailing zero words are trimmed", () => {
    expect(classifyBatchBits({ batchSize: 3, remaining: [] })).toEqual({ kind: "whole" });
    expect(classifyBatchBits({ batchSize: 3, remaining: [0n, 0n] })).toEqual({ kind: "whole" });
    expect(classifyBatchBits({ batchSize: 3, remaining: [7n] })).toEqual({ kind: "none" });
    expect(classifyBatchBits({ batchSize: 3, remaining: [5n, 0n] })).toEqual({ kind: "partial", remaining: [5n] });
    expect(classifyBatchBits({ batchSize: 65, remaining: [ALL, 1n] })).toEqual({ kind: "none" });
    expect(classifyBatchBits({ batchSize: 65, remaining: [ALL] })).toEqual({ kind: "partial", remaining: [ALL] });
  });

  it("rejects bits at or above the batch size, bad words and bad sizes", () => {
    expectInvalid(() => classifyBatchBits({ batchSize: 3, remaining: [8n] }));
    expectInvalid(() => classifyBatchBits({ batchSize: 64, remaining: [0n, 1n] }));
    expectInvalid(() => classifyBatchBits({ batchSize: 3, remaining: [-1n] }));
    expectInvalid(() => classifyBatchBits({ batchSize: 64, remaining: [1n << 64n] }));
    expectInvalid(() => classifyBatchBits({ batchSize: 0, remaining: [] }));
    expectInvalid(() => classifyBatchBits({ batchSize: 1.5, remaining: [] }));
    expectInvalid(() => classifyBatchBits({ batchSize: MAX_BATCH_SIZE + 1, remaining: [] }));
  });

  it("builds full maps and maps acking chosen indexes", () => {
    expect(fullRemaining(1)).toEqual([1n]);
    expect(fullRemaining(64)).toEqual([ALL]);
    expect(fullRemaining(66)).toEqual([ALL, 3n]);
    expect(batchBitsAcking(66, [64, 65])).toEqual({ batchSize: 66, remaining: [ALL] });
    expect(batchBitsAcking(3, [0, 2])).toEqual({ batchSize: 3, remaining: [2n] });
    expectInvalid(() => batchBitsAcking(3, [3]));
  });

  it("AND-merges maps of one batch size and refuses different sizes", () => {
    expect(mergeBatchBits({ batchSize: 4, remaining: [0b1011n] }, { batchSize: 4, remaining: [0b1101n] })).toEqual({
      kind: "partial",
      remaining: [0b1001n],
    });
    expect(mergeBatchBits({ batchSize: 66, remaining: [1n, 2n] }, { batchSize: 66, remaining: [2n, 2n] })).toEqual({
      kind: "partial",
      remaining: [0n, 2n],
    });
    expect(mergeBatchBits({ batchSize: 66, remaining: [1n, 2n] }, { batchSize: 66, remaining: [2n] })).toEqual({
      kind: "whole",
    });
    expect(mergeBatchBits({ batchSize: 2, remaining: [3n] }, { batchSize: 2, remaining: [3n] })).toEqual({
      kind: "none",
    });
    expectInvalid(() => mergeBatchBits({ batchSize: 4, remaining: [1n] }, { batchSize: 5, remaining: [1n] }));
  });

  it("reads single indexes and lists the acked ones", () => {
    const bits = { batchSize: 67, remaining: [ALL ^ 0b10n, 0b100n] };
    expect(isIndexAcked(bits, 1)).toBe(true);
    expect(isIndexAcked(bits, 0)).toBe(false);
    expect(ackedBatchIndexes(bits)).toEqual([1, 64, 65]);
    expect(ackedBatchIndexes({ batchSize: 3, remaining: [] })).toEqual([0, 1, 2]);
    expectInvalid(() => isIndexAcked(bits, 67));
    expect(batchBitsEqual(bits, { batchSize: 67, remaining: [ALL ^ 0b10n, 0b100n] })).toBe(true);
    expect(batchBitsEqual(bits, { batchSize: 68, remaining: [ALL ^ 0b10n, 0b100n] })).toBe(false);
    expect(batchBitsEqual(bits, { batchSize: 67, remaining: [ALL ^ 0b10n] })).toBe(false);
  });
});
