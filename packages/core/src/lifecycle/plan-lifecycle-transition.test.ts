import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StreamHead, StreamState } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { planLifecycleTransition, type LifecycleRequest } from "./plan-lifecycle-transition.js";

const head = (state: StreamState, trimOffset = 2, end = 10): StreamHead => ({
  streamId: "s-x",
  streamName: "x",
  state,
  profile: "BOOKKEEPER_WAL_ONLY",
  attributes: {},
  createdAtMillis: 0,
  committedEndOffset: end,
  cumulativeSize: 50,
  commitVersion: 4,
  trimOffset,
  lastCommitId: "c4",
  session: { writerId: "a", epoch: 1, fencingToken: "t", leaseVersion: 1, expiresAtMillis: 1 },
});
type Outcome = StreamState | "noop" | "STREAM_NOT_ACTIVE";
const outcome = (state: StreamState, request: LifecycleRequest): Outcome => {
  try {
    return planLifecycleTransition(head(state), request)?.state ?? "noop";
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.STREAM_NOT_ACTIVE)) return "STREAM_NOT_ACTIVE";
    throw error;
  }
};

describe("planLifecycleTransition (the lifecycle table of docs/architecture.md §7)", () => {
  it.each<[LifecycleRequest["kind"], Record<StreamState, Outcome>]>([
    ["seal", { ACTIVE: "SEALED", SEALED: "noop", DELETING: "STREAM_NOT_ACTIVE", DELETED: "STREAM_NOT_ACTIVE" }],
    ["begin-delete", { ACTIVE: "DELETING", SEALED: "DELETING", DELETING: "noop", DELETED: "noop" }],
    [
      "finish-delete",
      { ACTIVE: "STREAM_NOT_ACTIVE", SEALED: "STREAM_NOT_ACTIVE", DELETING: "DELETED", DELETED: "noop" },
    ],
  ])("%s", (kind, table) => {
    for (const [state, expected] of Object.entries(table)) {
      expect(outcome(state as StreamState, { kind } as LifecycleRequest), `${kind} from ${state}`).toBe(expected);
    }
  });

  it("trim works on ACTIVE and SEALED, is refused on DELETING/DELETED", () => {
    expect(planLifecycleTransition(head("SEALED"), { kind: "trim", trimOffset: 5 })?.trimOffset).toBe(5);
    expect(outcome("DELETING", { kind: "trim", trimOffset: 5 })).toBe("STREAM_NOT_ACTIVE");
  });

  it("a transition changes nothing but its own field", () => {
    const before = head("ACTIVE");
    const sealed = planLifecycleTransition(before, { kind: "seal" });
    expect({ ...sealed, state: "ACTIVE" }).toEqual(before);
    const trimmed = planLifecycleTransition(before, { kind: "trim", trimOffset: 7 });
    expect({ ...trimmed, trimOffset: 2 }).toEqual(before);
  });

  it("trim is monotone and bounded by the committed end (property)", () => {
    fc.assert(
      fc.property(fc.nat(20), fc.nat(20), fc.integer({ min: -3, max: 30 }), (trim, extra, target) => {
        const current = head("ACTIVE", trim, trim + extra);
        let next: StreamHead | undefined;
        try {
          next = planLifecycleTransition(current, { kind: "trim", trimOffset: target });
        } catch (error) {
          expect(NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)).toBe(true);
          expect(target < 0 || target > current.committedEndOffset).toBe(true);
          return;
        }
        const result = next ?? current;
        expect(result.trimOffset).toBe(Math.max(trim, target));
        expect(result.trimOffset).toBeLessThanOrEqual(result.committedEndOffset);
      }),
    );
  });
});
