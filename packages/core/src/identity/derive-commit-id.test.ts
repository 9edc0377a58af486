import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import type { NereusError } from "../errors/nereus-error.js";
import { type CommitIdentity, deriveCommitId } from "./derive-commit-id.js";
import { fencingTokenHash } from "./fencing-token.js";
import { streamIdFromName } from "./stream-id-from-name.js";

const base: CommitIdentity = {
  streamId: streamIdFromName("orders"),
  writerId: "broker-1",
  writerEpoch: 3,
  fencingTokenHash: fencingTokenHash("token-1"),
  expectedStartOffset: 100,
  recordCount: 5,
  entryCount: 2,
  logicalBytes: 321,
  payloadFormat: "KAFKA_RECORD_BATCH",
  payloadChecksum: 0xe3069283,
  entryRecordCounts: [3, 2],
  readTargetType: "BOOKKEEPER_ENTRY_RANGE",
  readTargetVersion: 1,
  readTargetIdentity: `${"00".repeat(31)}ff`,
};

const invalidArgument = expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT }) as NereusError;

describe("deriveCommitId", () => {
  test("golden id (frozen; verified against an independent implementation of the documented input)", () => {
    expect(deriveCommitId(base)).toBe("cxjnvgershmzdmcolzij3qnzb5ds35g3reichtrstn76524iwpwq");
  });

  test("every covered field changes the id", () => {
    const variants: Partial<CommitIdentity>[] = [
      { streamId: streamIdFromName("payments") },
      { writerId: "broker-2" },
      { writerEpoch: 4 },
      { fencingTokenHash: fencingTokenHash("token-2") },
      { expectedStartOffset: 101 },
      { recordCount: 6, entryRecordCounts: [4, 2] },
      { entryRecordCounts: [2, 3] },
      { recordCount: 5, entryCount: 3, entryRecordCounts: [3, 1, 1] },
      { logicalBytes: 322 },
      { payloadFormat: "OPAQUE_RECORD_BATCH" },
      { payloadChecksum: 0 },
      { readTargetType: "OBJECT_SLICE" },
      { readTargetVersion: 2 },
      { readTargetIdentity: `${"00".repeat(31)}fe` },
    ];
    const ids = new Set([deriveCommitId(base), ...variants.map((change) => deriveCommitId({ ...base, ...change }))]);
    expect(ids.size).toBe(variants.length + 1);
  });

  test("length prefixes prevent field-boundary ambiguity", () => {
    expect(deriveCommitId({ ...base, streamId: "ab", writerId: "c" })).not.toBe(
      deriveCommitId({ ...base, streamId: "a", writerId: "bc" }),
    );
  });

  test("rejects inconsistent identities", () => {
    const bad: Partial<CommitIdentity>[] = [
      { streamId: "" },
      { writerId: "" },
      { writerEpoch: -1 },
      { fencingTokenHash: "ABC" },
      { expectedStartOffset: 2 ** 53 },
      { expectedStartOffset: Number.MAX_SAFE_INTEGER },
      { recordCount: 0, entryRecordCounts: [] },
      { entryCount: 3 },
      { entryRecordCounts: [3, 3] },
      { entryRecordCounts: [5, 0] },
      { logicalBytes: 1.5 },
      { payloadFormat: "JSON" as CommitIdentity["payloadFormat"] },
      { payloadChecksum: 2 ** 32 },
      { readTargetVersion: 0 },
      { readTargetIdentity: "ff" },
    ];
    for (const change of bad)
      expect(() => deriveCommitId({ ...base, ...change }), JSON.stringify(change)).toThrow(invalidArgument);
  });

  test("property: deterministic, 52 base32 characters", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }).filter((text) => !/[\uD800-\uDFFF]/.test(text)),
        fc.maxSafeNat(),
        fc.array(fc.integer({ min: 1, max: 0x7fff_ffff }), { minLength: 1, maxLength: 5 }),
        (writerId, epoch, counts) => {
          const identity: CommitIdentity = {
            ...base,
            writerId,
            writerEpoch: epoch,
            entryRecordCounts: counts,
            entryCount: counts.length,
            recordCount: counts.reduce((sum, count) => sum + count, 0),
          };
          const id = deriveCommitId(identity);
          expect(id).toMatch(/^[a-z2-7]{52}$/);
          expect(deriveCommitId({ ...identity, entryRecordCounts: [...counts] })).toBe(id);
        },
      ),
    );
  });
});
