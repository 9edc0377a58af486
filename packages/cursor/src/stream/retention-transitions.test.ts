import { ErrorCode } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CursorRetentionRecord, ProtectionIntent, TrimIntent } from "../domain/cursor-records.js";
import {
  bootstrapRetention,
  claimedRetention,
  protectionFinishedRetention,
  protectionPendingRetention,
  raisedFloorRetention,
  trimFinishedRetention,
  trimPendingRetention,
} from "./retention-transitions.js";

const SESSION = "a".repeat(32);
const OTHER = "b".repeat(32);

const intent = (target: number): ProtectionIntent => ({
  attemptId: "c".repeat(32),
  kind: "CREATE",
  cursorName: "sub",
  cursorNameHash: "d".repeat(32),
  expectedGeneration: 0,
  targetGeneration: 1,
  targetMarkDeleteOffset: target,
  targetPartial: undefined,
  initialProperties: new Map(),
  createdAtMillis: 1,
});
const trimTo = (offset: number): TrimIntent => ({ attemptId: "e".repeat(32), offset, reason: "r" });

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe("retention transitions", () => {
  it("bootstraps at the stream's trim and claims for a new session", () => {
    const record = bootstrapRetention("s", SESSION, 4, 100);
    expect(record).toMatchObject({ lifecycle: "ACTIVE", protectedFloorOffset: 4, lastCompletedTrimOffset: 4 });
    const claimed = claimedRetention(record, OTHER, 50);
    expect(claimed).toEqual({ ...record, ownerSessionId: OTHER, mutationSequence: 2, updatedAtMillis: 100 });
  });

  it("a protection lowers the floor only when its target is lower", () => {
    const record = raisedFloorRetention(bootstrapRetention("s", SESSION, 0, 1), 10, 2);
    expect(protectionPendingRetention(record, intent(4), 3)).toMatchObject({
      lifecycle: "PROTECTION_PENDING",
      protectedFloorOffset: 4,
      pendingProtection: intent(4),
    });
    expect(protectionPendingRetention(record, intent(12), 3).protectedFloorOffset).toBe(10);
    const finished = protectionFinishedRetention(protectionPendingRetention(record, intent(4), 3), 4);
    expect(finished).toMatchObject({ lifecycle: "ACTIVE", protectedFloorOffset: 4, pendingProtection: undefined });
  });

  it("a trim needs lastCompleted < T <= floor and completes at T", () => {
    const record = raisedFloorRetention(bootstrapRetention("s", SESSION, 2, 1), 8, 2);
    expect(codeOf(() => trimPendingRetention(record, trimTo(2), 3))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(codeOf(() => trimPendingRetention(record, trimTo(9), 3))).toBe(ErrorCode.INVALID_ARGUMENT);
    const pending = trimPendingRetention(record, trimTo(8), 3);
    expect(pending).toMatchObject({ lifecycle: "TRIM_PENDING", pendingTrim: trimTo(8) });
    expect(trimFinishedRetention(pending, 4)).toMatchObject({
      lifecycle: "ACTIVE",
      lastCompletedTrimOffset: 8,
      pendingTrim: undefined,
    });
  });

  it("pending states refuse other transitions with CURSOR_BUSY", () => {
    const record = bootstrapRetention("s", SESSION, 0, 1);
    const protecting = protectionPendingRetention(record, intent(0), 2);
    const trimming = trimPendingRetention(raisedFloorRetention(record, 5, 2), trimTo(5), 3);
    for (const pending of [protecting, trimming]) {
      expect(codeOf(() => protectionPendingRetention(pending, intent(0), 4))).toBe(ErrorCode.CURSOR_BUSY);
      expect(codeOf(() => trimPendingRetention(pending, trimTo(1), 4))).toBe(ErrorCode.CURSOR_BUSY);
      expect(codeOf(() => raisedFloorRetention(pending, 3, 4))).toBe(ErrorCode.CURSOR_BUSY);
    }
    expect(codeOf(() => trimFinishedRetention(protecting, 4))).toBe(ErrorCode.METADATA_INVARIANT_VIOLATION);
    expect(codeOf(() => protectionFinishedRetention(trimming, 4))).toBe(ErrorCode.METADATA_INVARIANT_VIOLATION);
  });

  it("keeps lastCompleted <= floor, sequence + 1 and a monotone clock through any run of transitions (property)", () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant("protect" as const), target: fc.nat(50) }),
      fc.record({ kind: fc.constant("trim" as const), offset: fc.nat(50) }),
      fc.record({ kind: fc.constant("raise" as const), floor: fc.nat(50) }),
      fc.record({ kind: fc.constant("finish" as const) }),
    );
    fc.assert(
      fc.property(fc.nat(10), fc.array(fc.tuple(step, fc.nat(1_000)), { maxLength: 30 }), (trim, steps) => {
        let record: CursorRetentionRecord = bootstrapRetention("s", SESSION, trim, 500);
        for (const [action, now] of steps) {
          let next: CursorRetentionRecord;
          try {
            if (action.kind === "protect") {
              next = protectionPendingRetention(
                record,
                intent(Math.max(action.target, record.lastCompletedTrimOffset)),
                now,
              );
            } else if (action.kind === "trim") next = trimPendingRetention(record, trimTo(action.offset), now);
            else if (action.kind === "raise") next = raisedFloorRetention(record, action.floor, now);
            else if (record.lifecycle === "TRIM_PENDING") next = trimFinishedRetention(record, now);
            else if (record.lifecycle === "PROTECTION_PENDING") next = protectionFinishedRetention(record, now);
            else continue;
          } catch {
            continue;
          }
          expect(next.mutationSequence).toBe(record.mutationSequence + 1);
          expect(next.updatedAtMillis).toBeGreaterThanOrEqual(record.updatedAtMillis);
          expect(next.lastCompletedTrimOffset).toBeGreaterThanOrEqual(record.lastCompletedTrimOffset);
          expect(next.lastCompletedTrimOffset).toBeLessThanOrEqual(next.protectedFloorOffset);
          expect(next.pendingTrim !== undefined).toBe(next.lifecycle === "TRIM_PENDING");
          expect(next.pendingProtection !== undefined).toBe(next.lifecycle === "PROTECTION_PENDING");
          record = next;
        }
      }),
    );
  });
});
