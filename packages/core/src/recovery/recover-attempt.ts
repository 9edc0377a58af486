// Exact in-process recovery of one append attempt (`recoverAppend`, docs/architecture.md §4.3). Waits until the original runner
// can no longer send its head request, then: a commit known from the head CAS ⇒ finish its completion; otherwise
// the replay search (marker by exact key, then a bounded chain walk). FOUND ⇒ materialize generation 0, run the
// completion boundary, keep the ORIGINAL result; proven absent ⇒ not committed, lane released; range trimmed and
// its records collected ⇒ resolved as trimmed (outcome unknowable, lane released); anything else ⇒ still uncertain,
// lane stays suspended. Never prepares or writes WAL bytes; never runs admission.
// Single-flight per attempt: concurrent callers join the same run.
import type { AppendAttempt, RecoveryOutcome } from "../lane/append-attempt.js";
import { completeBoundary } from "../append/complete-boundary.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { StreamLane } from "../lane/stream-lane.js";
import { ensureGenerationZero } from "../read/ensure-generation-zero.js";
import type { AppendContext } from "../append/append-context.js";
import { loadHead } from "../records/load-head.js";
import { findCommit } from "../commit-chain/find-commit.js";

/** Rounds of "search, then fence a possible late apply" before giving up as uncertain. */
const FENCE_ROUNDS = 3;

/**
 * Recovers `attempt` (joining a run already in flight). `signal` bounds the metadata calls of a run this call
 * starts; callers that only want to bound their own wait race the returned promise against their deadline.
 */
export function recoverAttempt(
  context: AppendContext,
  lane: StreamLane,
  attempt: AppendAttempt,
  signal: AbortSignal,
): Promise<RecoveryOutcome> {
  if (attempt.resolution !== undefined) return Promise.resolve({ kind: "resolved", resolution: attempt.resolution });
  const running = attempt.recovery ?? run(context, lane, attempt, signal);
  attempt.recovery = running;
  return running.finally(() => {
    if (attempt.recovery === running) attempt.recovery = undefined;
  });
}

async function run(
  context: AppendContext,
  lane: StreamLane,
  attempt: AppendAttempt,
  signal: AbortSignal,
): Promise<RecoveryOutcome> {
  await attempt.runnerDone;
  if (attempt.resolution !== undefined) return { kind: "resolved", resolution: attempt.resolution };
  try {
    if (attempt.stage === "COMMITTED" && attempt.committedIntent !== undefined) {
      return await finishCommitted(context, attempt, signal);
    }
    if (attempt.stage !== "SUSPENDED" && attempt.stage !== "RECOVERING") {
      return unresolved(
        new NereusError(
          ErrorCode.METADATA_INVARIANT_VIOLATION,
          `attempt in stage ${attempt.stage} cannot be recovered`,
          { retryable: false },
        ),
      );
    }
    const commitId = attempt.commitId;
    const expectedStartOffset = attempt.expectedStartOffset;
    if (commitId === undefined || expectedStartOffset === undefined) {
      return unresolved(
        new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, "suspended attempt has no planned commit", {
          retryable: false,
        }),
      );
    }
    attempt.stage = "RECOVERING";
    for (let round = 0; round < FENCE_ROUNDS; round++) {
      const search = await findCommit({
        metadata: context.metadata,
        keyspace: context.keyspace,
        streamId: attempt.streamId,
        commitId,
        expectedStartOffset,
        budget: context.limits.chainSearchBudget,
        signal,
      });
      if (search.kind === "found") {
        attempt.stage = "COMMITTED";
        attempt.committedIntent = search.intent;
        // Offsets are known again: later appends may proceed while completion finishes.
        lane.resume(attempt);
        return await finishCommitted(context, attempt, signal);
      }
      if (search.kind === "trimmed") {
        const error = new NereusError(
          ErrorCode.OFFSET_TRIMMED,
          `append attempt's range was trimmed (trim offset ${String(search.trimOffset)}) before its outcome was recovered`,
          { retryable: false, details: { trimOffset: search.trimOffset } },
        );
        attempt.stage = search.committed ? "COMMITTED" : "PROVEN_NOT_COMMITTED";
        attempt.resolution = { kind: "trimmed", committed: search.committed, error };
        lane.resume(attempt);
        return { kind: "resolved", resolution: attempt.resolution };
      }
      if (search.kind === "unknown") {
        attempt.stage = "SUSPENDED";
        return unresolved(new NereusError(ErrorCode.TIMEOUT, `attempt outcome still unknown: ${search.reason}`));
      }
      // Absent from the chain. A lost head request compared exactly one head revision; if the head still has it,
      // the request could apply late, so first move the head past that revision with an identical rewrite.
      if (search.head.revision === attempt.ambiguousHeadRevision) {
        const headKey = context.keyspace.headKey(attempt.streamId);
        const fenced = await context.metadata.txn(
          {
            compares: [{ key: headKey, modRevision: search.head.revision }],
            writes: [{ type: "put", key: headKey, value: context.keyspace.encodeHead(search.head.head) }],
          },
          { signal },
        );
        if (!fenced.succeeded) continue;
      }
      const cause = attempt.failure;
      const error = new NereusError(
        cause?.code ?? ErrorCode.METADATA_UNAVAILABLE,
        `append attempt proven not committed${cause === undefined ? "" : ` (it had failed with: ${cause.message})`}`,
        { retryable: true, cause },
      );
      attempt.stage = "PROVEN_NOT_COMMITTED";
      attempt.resolution = { kind: "not-committed", error };
      lane.resume(attempt);
      return { kind: "resolved", resolution: attempt.resolution };
    }
    attempt.stage = "SUSPENDED";
    return unresolved(
      new NereusError(
        ErrorCode.METADATA_CONDITION_FAILED,
        "the head kept changing while fencing a possible late apply",
      ),
    );
  } catch (error) {
    if (attempt.stage === "RECOVERING") attempt.stage = "SUSPENDED";
    return unresolved(
      NereusError.is(error)
        ? error
        : new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, String(error), { cause: error, retryable: false }),
    );
  }
}

/** Materializes generation 0 and runs the completion boundary of a commit known to be reachable. */
async function finishCommitted(
  context: AppendContext,
  attempt: AppendAttempt,
  signal: AbortSignal,
): Promise<RecoveryOutcome> {
  const intent = attempt.committedIntent;
  if (intent === undefined) throw new TypeError("finishCommitted needs a committed intent");
  await ensureGenerationZero(context.metadata, context.keyspace, [intent], signal);
  const head = await loadHead(context.metadata, context.keyspace, attempt.streamId, signal);
  await completeBoundary({
    context,
    coordinator: attempt.plan.coordinator,
    intent,
    head: head.head,
    generationZeroCommitted: true,
    signal,
  });
  attempt.completed = true;
  attempt.resolution = { kind: "committed", intent };
  return { kind: "resolved", resolution: attempt.resolution };
}

function unresolved(reason: NereusError): RecoveryOutcome {
  return { kind: "unresolved", reason };
}
