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
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { loadHead } from "../records/load-head.js";
import type { PendingAppend } from "../lane/pending-append.js";
import { PipelineLink } from "../lane/pipeline-link.js";
import type { StreamLane } from "../lane/stream-lane.js";
import type { AppendSession, StreamHead } from "../domain/stream-head.js";
import type { AppendContext } from "./append-context.js";
import type { VersionedHead } from "../records/stream-keyspace.js";
import { AppendGroupRun } from "./append-group-run.js";
import type { AppendStep } from "./append-step-hooks.js";
import { commitHead, type HeadCommitResult } from "./commit-head.js";
import { completeBoundary } from "./complete-boundary.js";
import { needsFreshHead, projectHead, sameProjection } from "./planning-head.js";
import { createCommitPreparer } from "./prepare-commit.js";
import { runAdmission } from "./run-admission.js";

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
  const run = new AppendGroupRun(context, lane, members);
  try {
    run.watchAborts();
    let deadline = run.uniteDeadlines();
    // Step 1: the head this commit is planned against (the committed one, or the projection of the group ahead),
    // and each caller's expectedStartOffset.
    let base: VersionedHead | undefined;
    let planning: StreamHead;
    let heldSession: AppendSession | undefined;
    if (predecessor === undefined) {
      const cached = lane.cachedHead;
      base = cached ?? (await loadHead(context.metadata, context.keyspace, streamId, deadline.signal));
      lane.cachedHead = base;
      if (cached !== undefined && needsFreshHead(run.live, base)) {
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
      throw new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `stream ${streamId} is ${planning.state}`, {
        retryable: false,
      });
    }
    run.keepExpectedStarts(planning.committedEndOffset);
    if (run.live.length === 0) return;
    deadline.dispose();
    const groupDeadline = run.uniteDeadlines();
    deadline = groupDeadline;
    const plan = run.live[0]?.plan;
    if (plan === undefined) return;
    // Step 2: admission, before any WAL I/O.
    if (context.admissionHooks.length > 0)
      await runAdmission(context.admissionHooks, streamId, planning, deadline.signal);
    // Step 3: the session this commit is fenced by (acquired/renewed inside the same head CAS).
    const sessionPlan = run.planSession(planning, heldSession);
    deadline.check(`append to ${streamId}`);
    const current = run.startAttempt(plan, planning.committedEndOffset);
    const live = run.live;
    // The group behind this one may now plan against the head this one leaves if it commits.
    link.plan(projectHead(planning, run.recordCount, run.logicalBytes, sessionPlan.next));
    // Steps without an installed hook cost nothing (not even a microtask turn).
    const hooks = context.stepHooks;
    const runHook = async (step: AppendStep): Promise<void> => {
      const hook = context.stepHooks[step];
      if (hook === undefined) return;
      await hook({
        step,
        streamId,
        attemptIds: current.members.map((member) => member.attemptId),
        commitId: current.commitId,
        commitIntent: current.intent,
        signal: groupDeadline.signal,
      });
    };
    // Step 4: freeze and persist the exact bytes.
    if (hooks.beforeWalWrite !== undefined) await runHook("beforeWalWrite");
    deadline.check(`append to ${streamId}`);
    const entries = live.flatMap((member) => member.batch.entries);
    const persisted = await run.writeWal(
      plan.walWriter,
      sessionPlan.session.epoch,
      planning.committedEndOffset,
      entries,
      deadline.signal,
    );
    current.stage = "PRIMARY_WAL_DURABLE";
    if (hooks.afterWalWrite !== undefined) await runHook("afterWalWrite");
    const commitInput = {
      context,
      attempt: current,
      sessionPlan,
      heldSession,
      walWriter: plan.walWriter,
      persisted,
      deadline: groupDeadline,
      runHook,
      link,
    };
    // Step 6 (plan): the deterministic commit id, then step 5: protection bound to it.
    const prepare = createCommitPreparer(
      commitInput,
      entries.map((entry) => entry.recordCount),
    );
    // Step 7: the head CAS (linearization point), fused with intent, marker, protection and gen-0 index writes.
    let committed: HeadCommitResult | undefined;
    /** The head this group's committed intent follows. */
    let headBefore = planning;
    if (base === undefined && predecessor !== undefined && context.metadata.accelerations?.orderedTxns === true) {
      // Pipelined behind a store that applies txns in order: send the CAS right behind the one of the group ahead,
      // compared on the head value that one writes. It applies only if that one did; if not, nothing applied.
      const ahead = await predecessor.sent;
      if (ahead !== undefined && sameProjection(ahead.head, planning, heldSession)) {
        const { intent, protection } = await prepare(ahead.head);
        committed = await commitHead({
          ...commitInput,
          base: { head: ahead.head, revision: 0 },
          intent,
          protection,
          expectedHeadValue: ahead.value,
        });
        headBefore = ahead.head;
      }
    }
    if (committed === undefined) {
      if (base === undefined) {
        // Pipelined: the group ahead must have committed exactly the projection this group was planned against.
        const committedAhead = await predecessor?.committed;
        if (committedAhead === undefined || !sameProjection(committedAhead.head, planning, heldSession))
          throw new PredecessorNotCommitted();
        base = committedAhead;
      }
      const { intent, protection } = await prepare(base.head);
      committed = await commitHead({ ...commitInput, base, intent, protection });
      headBefore = base.head;
      if (committed === undefined) throw new Error("an ordinary head CAS returned no outcome");
    }
    run.recordCommit(current, committed, sessionPlan.next, link);
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
    run.deliver(current, committed.intent);
  } catch (error) {
    if (error instanceof PredecessorNotCommitted) {
      run.handBack();
      return;
    }
    run.fail(error, link);
  } finally {
    run.finish(link);
  }
}
