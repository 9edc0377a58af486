import { ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { EMPTY_ACK_BASE } from "../ack-state/ack-base.js";
import { ackViewOf } from "../ack-state/ack-view.js";
import type { CursorStateRecord } from "../domain/cursor-records.js";
import { cursorNameHash, cursorRootKey } from "../keys/cursor-keys.js";
import { cursorStateCodec } from "../records/cursor-state-codec.js";
import {
  deletedCursorRecord,
  newCursorRecord,
  recreatedCursorRecord,
  resetCursorRecord,
} from "./cursor-record-transforms.js";

const SESSION = "0123456789abcdef0123456789abcdef";
const ATTEMPT = "fedcba9876543210fedcba9876543210";
const identity = { streamId: "s", cursorName: "sub", cursorNameHash: cursorNameHash("sub") };
const key = cursorRootKey("c", "s", identity.cursorNameHash);

/** The record after a round trip through the codec (it refuses anything breaking an invariant). */
function stored(record: CursorStateRecord): CursorStateRecord {
  return cursorStateCodec.decode(cursorStateCodec.encode(record), key);
}

function created(): CursorStateRecord {
  return newCursorRecord(identity, {
    ownerSessionId: SESSION,
    markDeleteOffset: 5,
    cursorProperties: new Map([["p", "1"]]),
    attemptId: ATTEMPT,
    now: 100,
  });
}

describe("cursor record transforms", () => {
  it("creates generation 1, sequence 1, epoch 1 with the start and an optional partial", () => {
    const record = stored(created());
    expect(record).toMatchObject({
      cursorGeneration: 1,
      mutationSequence: 1,
      ackStateEpoch: 1,
      lifecycle: "ACTIVE",
      markDeleteOffset: 5,
      lastProtectionAttemptId: ATTEMPT,
      createdAtMillis: 100,
      updatedAtMillis: 100,
    });
    const partial = newCursorRecord(identity, {
      ownerSessionId: SESSION,
      markDeleteOffset: 5,
      partial: { batchSize: 3, remaining: [0b100n] },
      attemptId: "",
      now: 1,
    });
    expect(stored(partial).inlinePartials).toEqual([{ offset: 5, batchSize: 3, remaining: [0b100n] }]);
    const whole = newCursorRecord(identity, {
      ownerSessionId: SESSION,
      markDeleteOffset: 5,
      partial: { batchSize: 3, remaining: [] },
      attemptId: "",
      now: 1,
    });
    expect(stored(whole).markDeleteOffset).toBe(6);
  });

  it("deletes into a tombstone keeping generation, epoch and markDelete", () => {
    const active = { ...created(), inlineRanges: [{ start: 7, end: 9 }], positionProperties: new Map([["x", 1n]]) };
    const tombstone = stored(deletedCursorRecord(active, 50));
    expect(tombstone).toMatchObject({
      lifecycle: "DELETED",
      cursorGeneration: 1,
      ackStateEpoch: 1,
      markDeleteOffset: 5,
      mutationSequence: 2,
      inlineRanges: [],
      updatedAtMillis: 100,
      deletedAtMillis: 100,
    });
    expect(tombstone.cursorProperties.size + tombstone.positionProperties.size).toBe(0);
    expect(() => deletedCursorRecord(tombstone, 200)).toThrow(NereusError);
  });

  it("recreates a tombstone with generation + 1, epoch 1 and the sequence continuing", () => {
    const tombstone = deletedCursorRecord({ ...created(), ackStateEpoch: 4 }, 150);
    const recreated = stored(
      recreatedCursorRecord(tombstone, { ownerSessionId: SESSION, markDeleteOffset: 2, attemptId: ATTEMPT, now: 160 }),
    );
    expect(recreated).toMatchObject({
      lifecycle: "ACTIVE",
      cursorGeneration: 2,
      ackStateEpoch: 1,
      mutationSequence: 3,
      markDeleteOffset: 2,
      createdAtMillis: 160,
      deletedAtMillis: undefined,
    });
    try {
      recreatedCursorRecord(created(), { ownerSessionId: SESSION, markDeleteOffset: 0, attemptId: "", now: 1 });
      expect.unreachable();
    } catch (error) {
      expect(NereusError.hasCode(error, ErrorCode.CURSOR_ALREADY_EXISTS)).toBe(true);
    }
  });

  it("resets to a target: state and position properties cleared, cursor properties kept, epoch + 1", () => {
    const prev: CursorStateRecord = {
      ...created(),
      inlineRanges: [{ start: 7, end: 9 }],
      positionProperties: new Map([["x", 1n]]),
    };
    const view = ackViewOf(prev, EMPTY_ACK_BASE);
    const reset = stored(resetCursorRecord(prev, view, 3, { batchSize: 2, remaining: [0b10n] }, ATTEMPT, 90));
    expect(reset).toMatchObject({
      markDeleteOffset: 3,
      inlineRanges: [],
      inlinePartials: [{ offset: 3, batchSize: 2, remaining: [0b10n] }],
      ackStateEpoch: 2,
      mutationSequence: 2,
      snapshot: undefined,
      lastProtectionAttemptId: ATTEMPT,
      updatedAtMillis: 100,
    });
    expect(reset.positionProperties.size).toBe(0);
    expect(reset.cursorProperties).toEqual(new Map([["p", "1"]]));
  });
});
