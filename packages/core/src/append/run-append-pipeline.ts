// The append pipeline (docs/architecture.md §4) for one group of appends taken from a stream lane: head (cached or
// loaded) → state → expectedStartOffset → admission → session → WAL prepare/persist → commit intent plan →
// protection → head CAS (one transaction) → completion boundary → per-caller results. Each step is its own module;
// this one only sequences them, tracks the attempt's stage and turns a failure into the outcome that stage
// implies: before the head request ⇒ KNOWN_NOT_COMMITTED; head request in flight ⇒ MAY_HAVE_COMMITTED (lane
// suspended); after the head CAS ⇒ KNOWN_COMMITTED. Behind a running group (commit pipelining) a group plans
// against that group's projected head and writes its WAL meanwhile; it sends its head CAS once that group's CAS
// was sent — compared on the head value it writes — when the store applies txns in order, and otherwise (or when
// that speculative compare was lost) once that group committed; if it did not, nothing of this group was committed
// and its members go back to the lane.
import type { CommitIntent } from "../domain/commit-records.js";
import type { AppendOutcome } from "../errors/append-outcome.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { loadHead } from "../records/load-head.js";
import type { PendingAppend } from "../lane/pending-append.js";
import { PipelineLink } from "../lane/pipeline-link.js";
import type { StreamLane } from "../lane/stream-lane.js";
import type { AppendSession, StreamHead } from "../domain/stream-head.js";
import { planSession } from "../session/plan-session.js";
import { sameSession } from "../session/same-session.js";
import type { TargetProtection } from "../spi/wal.js";
import type { AppendContext } from "./append-context.js";
import type { VersionedHead } from "../records/stream-keyspace.js";
import { AppendAttempt, type AttemptMember } from "../lane/append-attempt.js";
import { appendFailure } from "../errors/append-failure.js";
import type { AppendStep } from "./append-step-hooks.js";
import { buildAppendResult } from "./build-append-result.js";
import { buildCommitIntent } from "./build-commit-intent.js";
import { checkExpectedStart } from "./check-expected-start.js";
import { commitHead, type HeadCommitResult } from "./commit-head.js";
import { completeBoundary } from "./complete-boundary.js";
import { Deadline } from "../timing/deadline.js";
import { protectTarget } from "./protect-target.js";
import { runAdmission } from "./run-admission.js";
import { writePrimaryWal } from "./write-primary-wal.js";

/** Thrown inside the pipeline when the group ahead did not commit as projected: hand the members back. */
class PredecessorNotCommitted extends Error {}

/**
 * Runs one group to completion. Settles every member or hands it back to the lane (only when `predecessor` did
 * not commit, before this group's head request); ends `link`; never throws.
 */
export async function runAppendPipeline(
  context: AppendContext,
  lane: StreamLane,
  members: readonly PendingAppend[],
  link: PipelineLink = new PipelineLink(),
  predecessor?: PipelineLink,
): Promise<void> {
  const streamId = lane.streamId;
  let live: PendingAppend[] = [...members];
  let attempt: AppendAttempt | undefined;
  let deadline: Deadline | undefined;
  const detach: Array<() => void> = [];
  const rejectLive = (error: unknown, outcome: AppendOutcome): void => {
    for (const member of live) {
      const delivered = member.reject(appendFailure(error, outcome, member.attemptId));
      // A not-committed failure carries no attempt id, so nobody can ask for this one again.
      if (delivered && outcome === "KNOWN_NOT_COMMITTED" && member.attemptId !== undefined) context.attempts.forget(member.attemptId);
    }
  };
  try {
    // Before the WAL write a member that gives up simply leaves the group (nothing of it was written).
    for (const member of live) {
      const onAbort = (): void => {
        if (attempt === undefined) {
          live = live.filter((other) => other !== member);
          member.reject(appendFailure(member.deadline.error(`append to ${streamId}`), "KNOWN_NOT_COMMITTED"));
        } else if (live.some((other) => other !== member && !other.deadline.aborted) && member.attemptId !== undefined) {
          member.reject(appendFailure(member.deadline.error(`append to ${streamId}`), "MAY_HAVE_COMMITTED", member.attemptId));
        }
      };
      member.deadline.signal.addEventListener("abort", onAbort, { once: true });
      detach.push(() => member.deadline.signal.removeEventListener("abort", onAbort));
    }
    deadline = Deadline.union(live.map((member) => member.deadline), context.closing);
    // Step 1: the head this commit is planned against (the committed one, or the projection of the group ahead),
    // and each caller's expectedStartOffset.
    let base: VersionedHead | undefined;
    let planning: StreamHead;
    let heldSession: AppendSession | undefined;
    if (predecessor === undefined) {
      const cached = lane.cachedHead;
      base = cached ?? (await loadHead(context.metadata, context.keyspace, streamId, deadline.signal));
      lane.cachedHead = base;
      if (cached !== undefined && needsFreshHead(live, base)) {
        base = await loadHead(context.metadata, context.keyspace, streamId, deadline.signal);
        lane.cachedHead = base;
      }
      planning = base.head;
      heldSession = lane.heldSession;
    } else {
      const projected = await predecessor.planned;
      if (projected === undefined) throw new PredecessorNotCommitted();
      planning = projected.head;
      heldSession = projected.heldSession;
    }
    if (planning.state !== "ACTIVE") {
      throw new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `stream ${streamId} is ${planning.state}`, { retryable: false });
    }
    let position = planning.committedEndOffset;
    live = live.filter((member) => {
      try {
        checkExpectedStart(streamId, member.expectedStartOffset, position);
      } catch (error) {
        member.reject(appendFailure(error, "KNOWN_NOT_COMMITTED"));
        return false;
      }
      position += member.batch.recordCount;
      return true;
    });
    if (live.length === 0) return;
    deadline.dispose();
    const groupDeadline = Deadline.union(live.map((member) => member.deadline), context.closing);
    deadline = groupDeadline;
    const plan = live[0]?.plan;
    if (plan === undefined) return;
    // Step 2: admission, before any WAL I/O.
    if (context.admissionHooks.length > 0) await runAdmission(context.admissionHooks, streamId, planning, deadline.signal);
    // Step 3: the session this commit is fenced by (acquired/renewed inside the same head CAS).
    let sessionPlan;
    try {
      sessionPlan = planSession({ head: planning, writerId: context.writerId, held: heldSession, nowMillis: context.clock(), policy: context.sessionPolicy });
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.FENCED_APPEND)) lane.heldSession = undefined;
      throw error;
    }
    deadline.check(`append to ${streamId}`);
    // The physical attempt: one attempt id per caller, all pointing at this attempt.
    const attemptMembers: AttemptMember[] = [];
    let recordOffset = 0;
    let bytesBefore = 0;
    for (const member of live) {
      member.attemptId = context.attempts.nextAttemptId();
      attemptMembers.push({
        attemptId: member.attemptId,
        recordOffset,
        recordCount: member.batch.recordCount,
        entryCount: member.batch.entryCount,
        logicalBytes: member.batch.logicalBytes,
        logicalBytesBefore: bytesBefore,
      });
      recordOffset += member.batch.recordCount;
      bytesBefore += member.batch.logicalBytes;
    }
    const current = new AppendAttempt(streamId, plan, attemptMembers);
    attempt = current;
    current.expectedStartOffset = planning.committedEndOffset;
    context.attempts.register(current);
    // The group behind this one may now plan against the head this one leaves if it commits.
    link.plan({
      head: {
        ...planning,
        committedEndOffset: planning.committedEndOffset + recordOffset,
        cumulativeSize: planning.cumulativeSize + bytesBefore,
        commitVersion: planning.commitVersion + 1,
        session: sessionPlan.next,
      },
      heldSession: sessionPlan.next,
    });
    // Steps without an installed hook cost nothing (not even a microtask turn).
    const hooks = context.stepHooks;
    const runHook = async (step: AppendStep): Promise<void> => {
      const hook = context.stepHooks[step];
      if (hook === undefined) return;
      await hook({ step, streamId, attemptIds: attemptMembers.map((member) => member.attemptId), commitId: current.commitId, commitIntent: current.intent, signal: groupDeadline.signal });
    };
    // Step 4: freeze and persist the exact bytes.
    if (hooks.beforeWalWrite !== undefined) await runHook("beforeWalWrite");
    deadline.check(`append to ${streamId}`);
    const entries = live.flatMap((member) => member.batch.entries);
    const payloadsHandedOver = live.every((member) => member.batch.handedOver);
    const persisted = await writePrimaryWal({
      writer: plan.walWriter,
      streamId,
      attemptId: attemptMembers[0]?.attemptId ?? "",
      writerId: context.writerId,
      writerEpoch: sessionPlan.session.epoch,
      expectedStartOffset: planning.committedEndOffset,
      payloadFormat: live[0]?.batch.payloadFormat ?? "OPAQUE_RECORD_BATCH",
      entries,
      payloadsHandedOver,
      recordCount: recordOffset,
      logicalBytes: bytesBefore,
      signal: deadline.signal,
    });
    current.stage = "PRIMARY_WAL_DURABLE";
    if (hooks.afterWalWrite !== undefined) await runHook("afterWalWrite");
    const entryRecordCounts = entries.map((entry) => entry.recordCount);
    const commitInput = { context, attempt: current, sessionPlan, heldSession, walWriter: plan.walWriter, persisted, deadline: groupDeadline, runHook, link };
    // Step 6 (plan): the deterministic commit id, then step 5: protection bound to it.
    let protectedFor: { readonly commitId: string; readonly protection: TargetProtection } | undefined;
    const prepare = async (head: StreamHead): Promise<{ intent: CommitIntent; protection: TargetProtection }> => {
      const intent = buildCommitIntent({ head, session: sessionPlan.session, persisted, entryRecordCounts });
      current.commitId = intent.commitId;
      current.intent = intent;
      groupDeadline.check(`append to ${streamId}`);
      if (protectedFor?.commitId !== intent.commitId) {
        protectedFor = { commitId: intent.commitId, protection: await protectTarget(plan.walWriter, persisted, intent.commitId, context.metadata, groupDeadline.signal) };
        if (hooks.afterProtection !== undefined) await runHook("afterProtection");
        if (hooks.afterIntent !== undefined) await runHook("afterIntent");
      }
      return { intent, protection: protectedFor.protection };
    };
    // Step 7: the head CAS (linearization point), fused with intent, marker, protection and gen-0 index writes.
    let committed: HeadCommitResult | undefined;
    /** The head this group's committed intent follows. */
    let headBefore = planning;
    if (base === undefined && predecessor !== undefined && context.metadata.orderedTxns === true) {
      // Pipelined behind a store that applies txns in order: send the CAS right behind the one of the group ahead,
      // compared on the head value that one writes. It applies only if that one did; if not, nothing applied.
      const ahead = await predecessor.sent;
      if (ahead !== undefined && sameProjection(ahead.head, planning, heldSession)) {
        const { intent, protection } = await prepare(ahead.head);
        committed = await commitHead({ ...commitInput, base: { head: ahead.head, revision: 0 }, intent, protection, expectedHeadValue: ahead.value });
        headBefore = ahead.head;
      }
    }
    if (committed === undefined) {
      if (base === undefined) {
        // Pipelined: the group ahead must have committed exactly the projection this group was planned against.
        const committedAhead = await predecessor?.committed;
        if (committedAhead === undefined || !sameProjection(committedAhead.head, planning, heldSession)) throw new PredecessorNotCommitted();
        base = committedAhead;
      }
      const { intent, protection } = await prepare(base.head);
      committed = await commitHead({ ...commitInput, base, intent, protection });
      headBefore = base.head;
      if (committed === undefined) throw new Error("an ordinary head CAS returned no outcome");
    }
    current.committedIntent = committed.intent;
    // A group behind this one may have committed already (its CAS rode right behind this one's): never go back.
    const cached = lane.cachedHead;
    if (committed.head === undefined || cached === undefined || committed.head.head.commitVersion > cached.head.commitVersion) lane.cachedHead = committed.head;
    lane.heldSession = sessionPlan.next;
    link.commit(committed.head);
    if (hooks.afterHeadCommit !== undefined) await runHook("afterHeadCommit");
    // Step 8: the producer boundary of the profile.
    await completeBoundary({
      context,
      coordinator: plan.coordinator,
      intent: committed.intent,
      head: committed.head?.head ?? headBefore,
      generationZeroCommitted: committed.generationZeroCommitted,
      signal: deadline.signal,
    });
    current.completed = true;
    if (hooks.afterCompletion !== undefined) await runHook("afterCompletion");
    // Step 9: every caller gets exactly its own sub-range (after the callers of the group ahead got theirs).
    if (predecessor !== undefined) await predecessor.done;
    current.resolution = { kind: "committed", intent: committed.intent };
    current.members.forEach((member, index) => {
      const pending = live[index];
      if (pending?.resolve(buildAppendResult(committed.intent, member)) === true) context.attempts.forget(member.attemptId);
    });
  } catch (error) {
    if (error instanceof PredecessorNotCommitted) {
      handBack(context, lane, attempt, live);
      return;
    }
    link.fail();
    lane.invalidateHead();
    if (NereusError.hasCode(error, ErrorCode.FENCED_APPEND)) lane.heldSession = undefined;
    const stage = attempt?.stage;
    if (attempt !== undefined && stage === "HEAD_REQUEST_IN_FLIGHT") {
      attempt.stage = "SUSPENDED";
      attempt.failure = asNereusError(error);
      lane.suspend(attempt);
      rejectLive(error, "MAY_HAVE_COMMITTED");
      context.onSuspended(attempt);
    } else if (attempt !== undefined && stage === "COMMITTED") {
      attempt.failure = asNereusError(error);
      rejectLive(error, "KNOWN_COMMITTED");
    } else {
      if (attempt !== undefined) {
        attempt.stage = "NOT_COMMITTED";
        attempt.resolution = { kind: "not-committed", error: asNereusError(error) };
      }
      rejectLive(error, "KNOWN_NOT_COMMITTED");
    }
  } finally {
    link.fail();
    for (const remove of detach) remove();
    deadline?.dispose();
    attempt?.finishRunner();
  }
}

/**
 * The group ahead did not commit the head this group was planned against: nothing of this group was committed
 * (its head request was never sent), so its waiting callers go back to the lane and run again; callers that gave
 * up meanwhile keep their attempt id, which now resolves as not committed.
 */
function handBack(context: AppendContext, lane: StreamLane, attempt: AppendAttempt | undefined, live: readonly PendingAppend[]): void {
  if (attempt !== undefined) {
    attempt.stage = "NOT_COMMITTED";
    attempt.resolution = {
      kind: "not-committed",
      error: new NereusError(ErrorCode.OFFSET_CONFLICT, `stream ${attempt.streamId}: the append ahead of this one did not commit`),
    };
  }
  for (const member of live) {
    if (member.state !== "settled" && member.attemptId !== undefined) context.attempts.forget(member.attemptId);
  }
  lane.requeue(live);
}

/** True when `committed` is exactly the projection a pipelined group was planned against. */
function sameProjection(committed: StreamHead, planning: StreamHead, heldSession: AppendSession | undefined): boolean {
  return (
    committed.committedEndOffset === planning.committedEndOffset &&
    committed.cumulativeSize === planning.cumulativeSize &&
    committed.commitVersion === planning.commitVersion &&
    committed.session !== undefined &&
    heldSession !== undefined &&
    sameSession(committed.session, heldSession)
  );
}

/** A cached end behind some caller's expectation may be stale; a fresh read settles it (ends never decrease). */
function needsFreshHead(members: readonly PendingAppend[], base: VersionedHead): boolean {
  let position = base.head.committedEndOffset;
  for (const member of members) {
    if (member.expectedStartOffset !== undefined && member.expectedStartOffset > position) return true;
    position += member.batch.recordCount;
  }
  return false;
}

function asNereusError(error: unknown): NereusError {
  return NereusError.is(error)
    ? error
    : new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, `unexpected failure: ${String(error)}`, { retryable: false, cause: error });
}
