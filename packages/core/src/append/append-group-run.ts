// One group's run through the append pipeline (run-append-pipeline.ts sequences the steps): the members still
// waiting for an answer, the physical attempt once there is one, the deadline they share, and how a failure
// settles them — by the stage the attempt reached (docs/architecture.md §4.3) — or hands them back to the lane.
// Holds no payload bytes of its own (the members' batches are theirs until the WAL writer freezes them).
import type { CommitIntent } from "../domain/commit-records.js";
import type { AppendOutcome } from "../errors/append-outcome.js";
import { appendFailure } from "../errors/append-failure.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { AppendAttempt, type AttemptMember } from "../lane/append-attempt.js";
import type { PendingAppend } from "../lane/pending-append.js";
import type { PipelineLink } from "../lane/pipeline-link.js";
import type { StreamLane } from "../lane/stream-lane.js";
import type { ExecutionPlan } from "../profiles/resolve-execution-plan.js";
import type { AppendEntry } from "../domain/append-types.js";
import type { AppendSession, StreamHead } from "../domain/stream-head.js";
import { type SessionPlan, planSession } from "../session/plan-session.js";
import type { PersistedWrite, WalWriteRequest, WalWriter } from "../spi/wal.js";
import { Deadline } from "../timing/deadline.js";
import type { HeadCommitResult } from "./commit-head.js";
import { writePrimaryWal } from "./write-primary-wal.js";
import type { AppendContext } from "./append-context.js";
import { buildAppendResult } from "./build-append-result.js";
import { checkExpectedStart } from "./check-expected-start.js";

/** The shared state of one group while the pipeline runs it. Owned by that one run. */
export class AppendGroupRun {
  readonly context: AppendContext;
  readonly lane: StreamLane;
  readonly streamId: string;
  /** The members still waiting for this run's answer. */
  live: PendingAppend[];
  /** The physical attempt, from the moment the members got their attempt ids. */
  attempt: AppendAttempt | undefined;
  deadline: Deadline | undefined;
  /** Records and logical bytes of the attempt (set with it). */
  recordCount = 0;
  logicalBytes = 0;
  readonly #detach: Array<() => void> = [];

  constructor(context: AppendContext, lane: StreamLane, members: readonly PendingAppend[]) {
    this.context = context;
    this.lane = lane;
    this.streamId = lane.streamId;
    this.live = [...members];
  }

  /** The deadline of the live members together (or the store closing); the run disposes the last one. */
  uniteDeadlines(): Deadline {
    const deadline = Deadline.union(
      this.live.map((member) => member.deadline),
      this.context.closing,
    );
    this.deadline = deadline;
    return deadline;
  }

  /** Before the WAL write a member that gives up simply leaves the group (nothing of it was written). */
  watchAborts(): void {
    const streamId = this.streamId;
    for (const member of this.live) {
      const onAbort = (): void => {
        if (this.attempt === undefined) {
          this.live = this.live.filter((other) => other !== member);
          member.reject(appendFailure(member.deadline.error(`append to ${streamId}`), "KNOWN_NOT_COMMITTED"));
        } else if (
          this.live.some((other) => other !== member && !other.deadline.aborted) &&
          member.attemptId !== undefined
        ) {
          member.reject(
            appendFailure(member.deadline.error(`append to ${streamId}`), "MAY_HAVE_COMMITTED", member.attemptId),
          );
        }
      };
      member.deadline.signal.addEventListener("abort", onAbort, { once: true });
      this.#detach.push(() => member.deadline.signal.removeEventListener("abort", onAbort));
    }
  }

  /** Fails (KNOWN_NOT_COMMITTED) and drops every member whose expectedStartOffset does not follow from `start`. */
  keepExpectedStarts(start: number): void {
    let position = start;
    this.live = this.live.filter((member) => {
      try {
        checkExpectedStart(this.streamId, member.expectedStartOffset, position);
      } catch (error) {
        member.reject(appendFailure(error, "KNOWN_NOT_COMMITTED"));
        return false;
      }
      position += member.batch.recordCount;
      return true;
    });
  }

  /** Step 3: the session this commit is fenced by; a fenced writer forgets the session it held. */
  planSession(planning: StreamHead, heldSession: AppendSession | undefined): SessionPlan {
    const context = this.context;
    try {
      return planSession({
        head: planning,
        writerId: context.writerId,
        held: heldSession,
        nowMillis: context.clock(),
        policy: context.sessionPolicy,
      });
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.FENCED_APPEND)) this.lane.heldSession = undefined;
      throw error;
    }
  }

  /** The physical attempt: one attempt id per caller, all pointing at this attempt; registered for recovery. */
  startAttempt(plan: ExecutionPlan, expectedStartOffset: number): AppendAttempt {
    const context = this.context;
    const attemptMembers: AttemptMember[] = [];
    let recordOffset = 0;
    let bytesBefore = 0;
    for (const member of this.live) {
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
    const current = new AppendAttempt(this.streamId, plan, attemptMembers);
    this.attempt = current;
    this.recordCount = recordOffset;
    this.logicalBytes = bytesBefore;
    current.expectedStartOffset = expectedStartOffset;
    context.attempts.register(current);
    return current;
  }

  /** Step 4: freeze and persist the exact bytes of the attempt's `entries` (after {@link startAttempt}). */
  writeWal(
    writer: WalWriter,
    writerEpoch: number,
    expectedStartOffset: number,
    entries: readonly AppendEntry[],
    signal: AbortSignal,
  ): Promise<PersistedWrite> {
    const live = this.live;
    const request: WalWriteRequest = {
      streamId: this.streamId,
      attemptId: this.attempt?.members[0]?.attemptId ?? "",
      writerId: this.context.writerId,
      writerEpoch,
      expectedStartOffset,
      payloadFormat: live[0]?.batch.payloadFormat ?? "OPAQUE_RECORD_BATCH",
      entries,
      ...(live.every((member) => member.batch.handedOver) ? { payloadsHandedOver: true } : {}),
    };
    return writePrimaryWal({
      writer,
      request,
      recordCount: this.recordCount,
      logicalBytes: this.logicalBytes,
      signal,
    });
  }

  /** After the head CAS: the lane's cached head and session, and the link's answer for the group behind. */
  recordCommit(
    attempt: AppendAttempt,
    committed: HeadCommitResult,
    heldSession: AppendSession,
    link: PipelineLink,
  ): void {
    const lane = this.lane;
    attempt.committedIntent = committed.intent;
    // A group behind this one may have committed already (its CAS rode right behind this one's): never go back.
    const cached = lane.cachedHead;
    if (
      committed.head === undefined ||
      cached === undefined ||
      committed.head.head.commitVersion > cached.head.commitVersion
    )
      lane.cachedHead = committed.head;
    lane.heldSession = heldSession;
    link.commit(committed.head);
  }

  /** Every caller gets exactly its own sub-range of the committed intent. */
  deliver(attempt: AppendAttempt, intent: CommitIntent): void {
    attempt.resolution = { kind: "committed", intent };
    attempt.members.forEach((member, index) => {
      const pending = this.live[index];
      if (pending?.resolve(buildAppendResult(intent, member)) === true) this.context.attempts.forget(member.attemptId);
    });
  }

  /**
   * Settles the live members after a failure with the outcome the attempt's stage implies: head request in flight
   * ⇒ MAY_HAVE_COMMITTED (the lane is suspended); committed ⇒ KNOWN_COMMITTED; otherwise KNOWN_NOT_COMMITTED.
   */
  fail(error: unknown, link: PipelineLink): void {
    const { context, lane } = this;
    link.fail();
    lane.invalidateHead();
    if (NereusError.hasCode(error, ErrorCode.FENCED_APPEND)) lane.heldSession = undefined;
    const attempt = this.attempt;
    const stage = attempt?.stage;
    if (attempt !== undefined && stage === "HEAD_REQUEST_IN_FLIGHT") {
      attempt.stage = "SUSPENDED";
      attempt.failure = asNereusError(error);
      lane.suspend(attempt);
      this.#rejectLive(error, "MAY_HAVE_COMMITTED");
      context.onSuspended(attempt);
    } else if (attempt !== undefined && stage === "COMMITTED") {
      attempt.failure = asNereusError(error);
      this.#rejectLive(error, "KNOWN_COMMITTED");
    } else {
      if (attempt !== undefined) {
        attempt.stage = "NOT_COMMITTED";
        attempt.resolution = { kind: "not-committed", error: asNereusError(error) };
      }
      this.#rejectLive(error, "KNOWN_NOT_COMMITTED");
    }
  }

  /**
   * The group ahead did not commit the head this group was planned against: nothing of this group was committed
   * (its head request was never sent), so its waiting callers go back to the lane and run again; callers that gave
   * up meanwhile keep their attempt id, which now resolves as not committed.
   */
  handBack(): void {
    const attempt = this.attempt;
    if (attempt !== undefined) {
      attempt.stage = "NOT_COMMITTED";
      attempt.resolution = {
        kind: "not-committed",
        error: new NereusError(
          ErrorCode.OFFSET_CONFLICT,
          `stream ${attempt.streamId}: the append ahead of this one did not commit`,
        ),
      };
    }
    for (const member of this.live) {
      if (member.state !== "settled" && member.attemptId !== undefined) this.context.attempts.forget(member.attemptId);
    }
    this.lane.requeue(this.live);
  }

  /** Ends the run whatever happened: the link, the abort listeners, the deadline, the attempt's runner. */
  finish(link: PipelineLink): void {
    link.fail();
    for (const remove of this.#detach) remove();
    this.deadline?.dispose();
    this.attempt?.finishRunner();
  }

  #rejectLive(error: unknown, outcome: AppendOutcome): void {
    for (const member of this.live) {
      const delivered = member.reject(appendFailure(error, outcome, member.attemptId));
      // A not-committed failure carries no attempt id, so nobody can ask for this one again.
      if (delivered && outcome === "KNOWN_NOT_COMMITTED" && member.attemptId !== undefined)
        this.context.attempts.forget(member.attemptId);
    }
  }
}

function asNereusError(error: unknown): NereusError {
  return NereusError.is(error)
    ? error
    : new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, `unexpected failure: ${String(error)}`, {
        retryable: false,
        cause: error,
      });
}
