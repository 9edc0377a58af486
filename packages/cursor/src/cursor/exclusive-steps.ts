// The decisions of the mutations that run alone in a cursor's lane: forward reset, clear backlog, skip, property
// replacement. Each is a CasStep: called with the latest root on every attempt, it captures what it first saw and
// applies the retry rule of its kind. A reset retried after a lost compare accepts the root it finds only when that
// root has the captured epoch + 1 and exactly the requested state; skip recomputes only under the captured epoch;
// a property replacement never rebases over another writer unless the root already holds exactly its result.
import { ErrorCode, NereusError } from "@nereus/core";
import type { BatchBits } from "../ack-state/batch-bits.js";
import { resetTo } from "../ack-state/reset-to.js";
import { type SkipOptions, skipEntries } from "../ack-state/skip-entries.js";
import type { MutationResult } from "./ack-group-commit.js";
import type { HydratedCursor } from "./hydrated-cursor.js";
import { checkLifecycle, stateConflict } from "./mutation-errors.js";
import { propertyMapsEqual, replacedCursorProperties } from "./property-maps.js";
import type { CasDecision, CasStep } from "./run-root-cas.js";

const NO_POSITION_PROPERTIES: ReadonlyMap<string, bigint> = new Map();
const DONE: CasDecision<MutationResult> = { write: false, result: { alreadyApplied: true } };
const WRITTEN: MutationResult = { alreadyApplied: false };

/**
 * A reset to `targetOf(state)` (never below markDelete: a backward reset needs the stream's protection protocol):
 * no ranges, no snapshot, no position properties, cursor properties kept, epoch + 1.
 */
export function forwardResetStep(
  what: string,
  generation: number,
  targetOf: (state: HydratedCursor) => number,
  batch: BatchBits | undefined,
): CasStep<MutationResult> {
  let capturedEpoch: number | undefined;
  return (state) => {
    checkLifecycle(state.root, generation);
    const epoch = state.root.ackStateEpoch;
    const first = capturedEpoch === undefined;
    capturedEpoch ??= epoch;
    const target = targetOf(state);
    const reset = resetTo(state.view, target, batch);
    const exact = !reset.applied && state.root.positionProperties.size === 0;
    if (!first && epoch === capturedEpoch + 1 && exact) return DONE;
    if (epoch !== capturedEpoch) throw stateConflict(state.root, what);
    if (target < state.view.markDeleteOffset) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `${what}: target ${String(target)} is below the mark-delete offset ${String(state.view.markDeleteOffset)} of cursor ${state.root.cursorName}; a backward reset goes through the stream's protected reset`,
        { retryable: false },
      );
    }
    return {
      write: true,
      draft: { view: reset.view, edits: { ackStateEpoch: epoch + 1, positionProperties: NO_POSITION_PROPERTIES } },
      result: WRITTEN,
    };
  };
}

/** A skip of `count` entries: a cumulative ack that recomputes only while the epoch it first saw holds. */
export function skipStep(generation: number, count: number, options: SkipOptions): CasStep<MutationResult> {
  let capturedEpoch: number | undefined;
  return (state) => {
    checkLifecycle(state.root, generation);
    capturedEpoch ??= state.root.ackStateEpoch;
    if (state.root.ackStateEpoch !== capturedEpoch) throw stateConflict(state.root, "cursor skip");
    const skipped = skipEntries(state.view, count, options);
    if (!skipped.applied) return DONE;
    return { write: true, draft: { view: skipped.view }, result: WRITTEN };
  };
}

/** Replaces the user's cursor properties (internal keys kept); conflicts with any other writer. */
export function replacePropertiesStep(
  generation: number,
  replacement: ReadonlyMap<string, string>,
): CasStep<MutationResult> {
  let capturedRevision: number | undefined;
  return (state) => {
    checkLifecycle(state.root, generation);
    const desired = replacedCursorProperties(state.root.cursorProperties, replacement);
    if (propertyMapsEqual(desired, state.root.cursorProperties)) return DONE;
    capturedRevision ??= state.modRevision;
    if (state.modRevision !== capturedRevision) throw stateConflict(state.root, "cursor property replacement");
    return { write: true, draft: { view: state.view, edits: { cursorProperties: desired } }, result: WRITTEN };
  };
}
