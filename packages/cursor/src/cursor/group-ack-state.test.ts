import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWholeAcked, remainingOf } from "../ack-state/ack-queries.js";
import { emptyAckView } from "../ack-state/ack-view.js";
import { type AckRequest, type AckWorkingState, applyAck } from "./ack-request.js";
import { GroupAckState } from "./group-ack-state.js";

const SPAN = 40;

const offset = fc.integer({ min: 0, max: SPAN - 1 });
/** Batches of 4 indexes: any remaining map, from "all acked" (0) to "none acked" (0b1111). */
const batch = fc.bigInt({ min: 0n, max: 0b1111n }).map((remaining) => ({ batchSize: 4, remaining: [remaining] }));
const individual = fc
  .array(fc.record({ offset, batch: fc.option(batch, { nil: undefined }) }), { minLength: 1, maxLength: 4 })
  .map((items): AckRequest => ({ kind: "individual", items }));
const wholeOnly = fc
  .array(
    offset.map((value) => ({ offset: value })),
    { minLength: 1, maxLength: 4 },
  )
  .map((items): AckRequest => ({ kind: "individual", items }));
const cumulative = offset.map((value): AckRequest => ({
  kind: "cumulative",
  offset: value,
  batch: undefined,
  positionProperties: undefined,
}));
const request = fc.oneof(wholeOnly, wholeOnly, individual, cumulative);

/** Applies in turn; a refused request changes nothing. Returns each request's outcome and the final state. */
function sequential(requests: readonly AckRequest[]): { outcomes: (boolean | "refused")[]; state: AckWorkingState } {
  let state: AckWorkingState = { view: emptyAckView(0), positionProperties: new Map() };
  const outcomes = requests.map((next) => {
    try {
      const applied = applyAck(state, next);
      state = applied.state;
      return applied.applied;
    } catch {
      return "refused" as const;
    }
  });
  return { outcomes, state };
}

describe("GroupAckState", () => {
  it("gives every request the outcome, and the group the state, of applying them one by one", () => {
    fc.assert(
      fc.property(fc.array(request, { maxLength: 12 }), (requests) => {
        const expected = sequential(requests);
        const group = new GroupAckState({ view: emptyAckView(0), positionProperties: new Map() });
        const outcomes = requests.map((next) => {
          try {
            return group.apply(next, true);
          } catch {
            return "refused" as const;
          }
        });
        expect(outcomes).toEqual(expected.outcomes);
        const view = group.result().view;
        expect(view.markDeleteOffset).toBe(expected.state.view.markDeleteOffset);
        for (let at = 0; at < SPAN + 2; at++) {
          expect(isWholeAcked(view, at)).toBe(isWholeAcked(expected.state.view, at));
          expect(remainingOf(view, at)).toEqual(remainingOf(expected.state.view, at));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("leaves the state untouched by a request only tested", () => {
    const group = new GroupAckState({ view: emptyAckView(0), positionProperties: new Map() });
    expect(group.apply({ kind: "individual", items: [{ offset: 3 }] }, false)).toBe(true);
    expect(group.apply({ kind: "individual", items: [{ offset: 3 }] }, true)).toBe(true);
    expect(group.apply({ kind: "individual", items: [{ offset: 3 }] }, true)).toBe(false);
    expect(isWholeAcked(group.result().view, 3)).toBe(true);
  });
});
