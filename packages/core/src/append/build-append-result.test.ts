import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CommitIntent } from "../domain/commit-records.js";
import type { AttemptMember } from "../lane/append-attempt.js";
import { buildAppendResult } from "./build-append-result.js";

const intentFor = (
  start: number,
  sizeBefore: number,
  members: ReadonlyArray<{ records: number; bytes: number }>,
): CommitIntent => {
  const records = members.reduce((sum, member) => sum + member.records, 0);
  const bytes = members.reduce((sum, member) => sum + member.bytes, 0);
  return {
    streamId: "s-x",
    commitId: "c",
    previousCommitId: "p",
    offsetStart: start,
    offsetEnd: start + records,
    cumulativeSize: sizeBefore + bytes,
    commitVersion: 7,
    writerId: "w",
    writerEpoch: 1,
    fencingTokenHash: "0".repeat(64),
    readTarget: {
      type: "BOOKKEEPER_ENTRY_RANGE",
      version: 1,
      clusterAlias: "m",
      ledgerId: "1",
      firstEntryId: 0,
      entryCount: members.length,
      rangeChecksum: 0,
    },
    payloadFormat: "OPAQUE_RECORD_BATCH",
    recordCount: records,
    entryCount: members.length,
    logicalBytes: bytes,
    entryRecordCounts: members.map((member) => member.records),
  };
};

describe("buildAppendResult", () => {
  it("without a member covers the whole commit", () => {
    const intent = intentFor(100, 40, [
      { records: 3, bytes: 5 },
      { records: 2, bytes: 4 },
    ]);
    expect(buildAppendResult(intent)).toMatchObject({
      startOffset: 100,
      endOffset: 105,
      committedEndOffset: 105,
      cumulativeSize: 49,
      commitVersion: 7,
      generation: 0,
      recordCount: 5,
      logicalBytes: 9,
    });
  });

  it("members of a group commit tile the commit exactly, each with its own range and cumulative size (property)", () => {
    fc.assert(
      fc.property(
        fc.nat(1e9),
        fc.nat(1e9),
        fc.array(fc.record({ records: fc.integer({ min: 1, max: 50 }), bytes: fc.nat(1_000) }), {
          minLength: 1,
          maxLength: 20,
        }),
        (start, sizeBefore, shares) => {
          const intent = intentFor(start, sizeBefore, shares);
          let recordOffset = 0;
          let bytesBefore = 0;
          const results = shares.map((share, index) => {
            const member: AttemptMember = {
              attemptId: `r/${String(index)}`,
              recordOffset,
              recordCount: share.records,
              entryCount: 1,
              logicalBytes: share.bytes,
              logicalBytesBefore: bytesBefore,
            };
            recordOffset += share.records;
            bytesBefore += share.bytes;
            return buildAppendResult(intent, member);
          });
          expect(results[0]?.startOffset).toBe(intent.offsetStart);
          expect(results.at(-1)?.endOffset).toBe(intent.offsetEnd);
          expect(results.at(-1)?.cumulativeSize).toBe(intent.cumulativeSize);
          results.forEach((result, index) => {
            if (index > 0) expect(result.startOffset).toBe(results[index - 1]?.endOffset);
            expect(result.endOffset - result.startOffset).toBe(result.recordCount);
            expect(result).toMatchObject({
              commitId: "c",
              commitVersion: 7,
              committedEndOffset: intent.offsetEnd,
              readTarget: intent.readTarget,
            });
          });
        },
      ),
    );
  });
});
