// One group commit of acks: every ack of the group is applied, in submission order, to one working state, and the
// result is written in one root CAS. Each ack learns its own outcome: applied, already applied (the working state
// contained it), or failed alone (a bad request, its deadline, or the epoch rule). After a lost compare the whole
// group is decided again from the latest root; an ack is reapplied there only while the root's ack state epoch is
// the one the ack was submitted under, so an ack erased by a reset or clear is never resurrected.
import { ErrorCode, NereusError } from "@nereus/core";
import type { CommittedEnd } from "../store/committed-end.js";
import { type AckRequest, highestAckedOffset } from "./ack-request.js";
import type { CursorCounters } from "./cursor-counters.js";
import type { HydratedCursor } from "./hydrated-cursor.js";
import type { Settlement } from "./cursor-lane.js";
import { GroupAckState } from "./group-ack-state.js";
import { lifecycleError, stateConflict } from "./mutation-errors.js";
import { OperationDeadline } from "./operation-deadline.js";
import { type CasDecision, type CasHost, runRootCas } from "./run-root-cas.js";

/** What a durable mutation resolves with once its CAS committed (or it found its change already in place). */
export interface MutationResult {
  /** True when the state already contained the change (nothing was written for it). */
  readonly alreadyApplied: boolean;
}

/** One ack waiting in the lane, with what was current when it was submitted. */
export interface AckMember {
  readonly request: AckRequest;
  /** Cursor generation the ack was submitted for. */
  readonly generation: number;
  /** Ack state epoch the ack was submitted under. */
  readonly epoch: number;
  readonly deadline: OperationDeadline;
}

const APPLIED: Settlement<MutationResult> = { ok: true, value: { alreadyApplied: false } };
const ALREADY_APPLIED: Settlement<MutationResult> = { ok: true, value: { alreadyApplied: true } };

/**
 * The group's decision against `state`: the settlement of every member, and the draft to write when at least one
 * member changed something. Settlements of applied members hold only once that draft is written.
 */
function decideAckGroup(
  members: readonly AckMember[],
  state: HydratedCursor,
  committedEnd = Number.POSITIVE_INFINITY,
): CasDecision<Settlement<MutationResult>[]> {
  const working = new GroupAckState({ view: state.view, positionProperties: state.root.positionProperties });
  let changed = false;
  const settlements = members.map((member): Settlement<MutationResult> => {
    const lifecycle = lifecycleError(state.root, member.generation);
    if (lifecycle !== undefined) return { ok: false, error: lifecycle };
    if (member.deadline.expired()) return { ok: false, error: member.deadline.error("cursor ack") };
    const beyondEnd = beyondCommittedEnd(member.request, committedEnd);
    if (beyondEnd !== undefined) return { ok: false, error: beyondEnd };
    const sameEpoch = state.root.ackStateEpoch === member.epoch;
    let applied: boolean;
    try {
      applied = working.apply(member.request, sameEpoch);
    } catch (error) {
      return { ok: false, error };
    }
    if (!applied) return ALREADY_APPLIED;
    if (!sameEpoch) return { ok: false, error: stateConflict(state.root, "cursor ack") };
    changed = true;
    return APPLIED;
  });
  if (!changed) return { write: false, result: settlements };
  const result = working.result();
  const positionChanged = result.positionProperties !== state.root.positionProperties;
  return {
    write: true,
    draft: {
      view: result.view,
      edits: positionChanged ? { positionProperties: result.positionProperties } : undefined,
    },
    result: settlements,
  };
}

/**
 * Commits `members` (in submission order) starting from `start` (undefined: reload first). Resolves one settlement
 * per member; rejects (failing the whole group) on CURSOR_FENCED, an exhausted CAS budget or the group deadline.
 * An ack naming an offset at or beyond the stream's committed end fails alone with INVALID_ARGUMENT (the end is
 * refreshed from the stream head first when the group reaches beyond the one known).
 */
export async function commitAckGroup(
  host: CasHost,
  start: HydratedCursor | undefined,
  members: readonly AckMember[],
  committedEnd: CommittedEnd,
): Promise<readonly Settlement<MutationResult>[]> {
  const deadline = OperationDeadline.latest(members.map((member) => member.deadline));
  const highest = Math.max(...members.map((member) => highestAckedOffset(member.request) ?? -1));
  const end = await committedEnd.atLeast(highest + 1, deadline.signal());
  const settlements = await runRootCas(host, start, deadline, "cursor ack", (state) =>
    decideAckGroup(members, state, end),
  );
  countSettlements(host.counters, settlements);
  return settlements;
}

function countSettlements(counters: CursorCounters, settlements: readonly Settlement<MutationResult>[]): void {
  let applied = 0;
  for (const settlement of settlements) {
    if (!settlement.ok) continue;
    if (settlement.value.alreadyApplied) counters.acksAlreadyApplied += 1;
    else applied += 1;
  }
  counters.acksCommitted += applied;
  if (applied > 0) counters.ackCommits += 1;
}

/** The INVALID_ARGUMENT of an ack naming an entry at or beyond `committedEnd`, or undefined. */
function beyondCommittedEnd(request: AckRequest, committedEnd: number): NereusError | undefined {
  const highest = highestAckedOffset(request);
  if (highest === undefined || highest < committedEnd) return undefined;
  return new NereusError(
    ErrorCode.INVALID_ARGUMENT,
    `cannot acknowledge offset ${String(highest)}: the stream's committed end is ${String(committedEnd)}`,
    { retryable: false },
  );
}
