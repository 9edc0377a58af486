// Pipeline step 7: the head CAS, the append's linearization point. ONE metadata transaction compares the head's
// revision (or, for a speculative CAS sent behind a group still in flight, the exact head value that group writes;
// a lost speculative compare applied nothing and is not classified: the caller falls back), the intent (absent, or present with identical bytes at its revision) and the provider's protection
// conditions, and writes the protection, the intent, the new head, the replay marker and — when the ack boundary
// needs it — the generation-0 index entry. A lost CAS is classified from the values the same transaction read
// back (docs/architecture.md §3.3); only compatible changes are retried. A lost protection compare under an unchanged head
// is METADATA_CONDITION_FAILED unless the writer's optional `classifyProtectionConflict` (fed the protection keys
// the same transaction read back) reports the writer FENCED. An exception thrown while the request is in
// flight leaves `attempt.stage === "HEAD_REQUEST_IN_FLIGHT"`: the caller must treat it as MAY_HAVE_COMMITTED.
import type { CommitIntent } from "../domain/commit-records.js";
import type { StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { PipelineLink } from "../lane/pipeline-link.js";
import { deriveGenerationZero } from "../read/derive-generation-zero.js";
import { findCommit } from "../commit-chain/find-commit.js";
import type { SessionPlan } from "../session/plan-session.js";
import type { TxnRequest, WriteOp } from "../spi/metadata-store.js";
import type { PersistedWrite, TargetProtection, WalWriter } from "../spi/wal.js";
import type { AppendContext } from "./append-context.js";
import type { VersionedHead } from "../records/stream-keyspace.js";
import type { AppendAttempt } from "../lane/append-attempt.js";
import type { AppendStepHooks } from "./append-step-hooks.js";
import { classifyHeadConflict } from "./classify-head-conflict.js";
import type { Deadline } from "../timing/deadline.js";
import { definitelyNotApplied } from "./definitely-not-applied.js";
import { reuseCommitIntent } from "./reuse-commit-intent.js";

export interface HeadCommitInput {
  readonly context: AppendContext;
  readonly attempt: AppendAttempt;
  /** The head the intent was planned against. */
  readonly base: VersionedHead;
  readonly intent: CommitIntent;
  readonly sessionPlan: SessionPlan;
  readonly heldSession: StreamHead["session"];
  readonly protection: TargetProtection;
  /** The writer that protected `persisted` (its optional `classifyProtectionConflict` classifies a lost protection compare). */
  readonly walWriter: WalWriter;
  readonly persisted: PersistedWrite;
  readonly deadline: Deadline;
  readonly runHook: (step: keyof AppendStepHooks) => Promise<void>;
  /** The group's pipeline link: told the head value of the first CAS once it is with the store. */
  readonly link?: PipelineLink;
  /**
   * Set for a speculative CAS behind a group still in flight (only on a store with `orderedTxns`): the head is
   * compared on these bytes — the head that group writes — instead of on `base.revision`. If any compare is lost,
   * nothing was applied and `commitHead` returns undefined: the caller waits for that group's answer and sends an
   * ordinary CAS. `base.head` must be exactly the head those bytes encode.
   */
  readonly expectedHeadValue?: Uint8Array;
}

/** A committed head CAS: the stored intent, and the new head when this process knows its exact revision. */
export interface HeadCommitResult {
  readonly intent: CommitIntent;
  readonly head: VersionedHead | undefined;
  /** Whether the generation-0 index and marker were written by the commit transaction itself. */
  readonly generationZeroCommitted: boolean;
}

/**
 * Runs the head CAS until it commits or fails definitively. Throws `NereusError` on a definitive failure. Returns
 * undefined only for a speculative CAS (`expectedHeadValue`) whose compares were lost (nothing applied).
 */
export async function commitHead(input: HeadCommitInput): Promise<HeadCommitResult | undefined> {
  const { context, attempt, intent, deadline } = input;
  const { keyspace, metadata } = context;
  const streamId = intent.streamId;
  const headKey = keyspace.headKey(streamId);
  const intentKey = keyspace.intentKey(streamId, intent.commitId);
  const markerKey = keyspace.markerKey(streamId, intent.commitId);
  const intentBytes = keyspace.encodeIntent(intent);
  const derived = deriveGenerationZero(intent);
  const markerBytes = keyspace.encodeMarker(derived.marker);
  const indexWrite: WriteOp | undefined = attempt.plan.writesGenerationZeroIndex
    ? { type: "put", key: keyspace.indexKey(streamId, intent.offsetEnd, 0), value: keyspace.encodeIndex(derived.index) }
    : undefined;
  // The protection compare keys ride in the failure read-back, so a lost protection compare is classified from the
  // same response (no extra round trip; nothing is read on success).
  const readOnFailure = [
    headKey,
    intentKey,
    markerKey,
    ...input.protection.compares
      .map((compare) => compare.key)
      .filter((key) => key !== headKey && key !== intentKey && key !== markerKey),
  ];
  let base = input.base;
  let intentRevision = 0;
  for (let retry = 0; ; retry++) {
    deadline.check(`append to ${streamId}`);
    if (context.stepHooks.beforeHeadCommit !== undefined) await input.runHook("beforeHeadCommit");
    const next: StreamHead = {
      ...base.head,
      committedEndOffset: intent.offsetEnd,
      cumulativeSize: intent.cumulativeSize,
      commitVersion: intent.commitVersion,
      lastCommitId: intent.commitId,
      session: input.sessionPlan.next,
    };
    const speculative = retry === 0 ? input.expectedHeadValue : undefined;
    const headValue = keyspace.encodeHead(next);
    const writes: WriteOp[] = [...input.protection.writes];
    if (intentRevision === 0) writes.push({ type: "put", key: intentKey, value: intentBytes });
    writes.push({ type: "put", key: headKey, value: headValue });
    writes.push({ type: "put", key: markerKey, value: markerBytes });
    if (indexWrite !== undefined) writes.push(indexWrite);
    const request: TxnRequest = {
      compares: [
        speculative === undefined ? { key: headKey, modRevision: base.revision } : { key: headKey, value: speculative },
        { key: intentKey, modRevision: intentRevision },
        ...input.protection.compares,
      ],
      writes,
      ...(speculative === undefined ? { readOnFailure } : {}),
      ...(input.persisted.gate === undefined ? {} : { after: input.persisted.gate }),
    };
    deadline.check(`append to ${streamId}`);
    attempt.stage = "HEAD_REQUEST_IN_FLIGHT";
    // A lost speculative request needs no fencing: its store never applies a txn after reporting it ambiguous.
    attempt.ambiguousHeadRevision = speculative === undefined ? base.revision : undefined;
    let result;
    try {
      const pending = metadata.txn(request, { signal: deadline.signal });
      if (retry === 0) input.link?.send({ head: next, value: headValue });
      result = await pending;
    } catch (error) {
      if (definitelyNotApplied(error)) {
        attempt.stage = "PRIMARY_WAL_DURABLE";
        attempt.ambiguousHeadRevision = undefined;
      }
      throw error;
    }
    attempt.ambiguousHeadRevision = undefined;
    if (result.succeeded) {
      attempt.stage = "COMMITTED";
      return {
        intent,
        head: { head: next, revision: result.revision },
        generationZeroCommitted: indexWrite !== undefined,
      };
    }
    attempt.stage = "PRIMARY_WAL_DURABLE";
    if (speculative !== undefined) return undefined;
    const headKv = result.current.get(headKey);
    const current = headKv === undefined ? undefined : keyspace.decodeHead(headKv);
    const storedIntentKv = result.current.get(intentKey);
    const newIntentRevision = reuseCommitIntent(storedIntentKv, intentBytes, streamId, intent.commitId);
    const verdict = classifyHeadConflict({
      expected: base.head,
      current: current?.head,
      commitId: intent.commitId,
      markerFound: result.current.has(markerKey),
      heldSession: input.heldSession,
    });
    if (verdict.kind === "committed") {
      attempt.stage = "COMMITTED";
      const stored = storedIntentKv === undefined ? intent : keyspace.decodeIntent(storedIntentKv);
      return { intent: stored, head: undefined, generationZeroCommitted: indexWrite !== undefined };
    }
    if (verdict.kind === "fail")
      throw new NereusError(verdict.code, verdict.message, { retryable: verdict.code === "OFFSET_CONFLICT" });
    if (verdict.kind === "end-moved") {
      const search = await findCommit({
        metadata,
        keyspace,
        streamId,
        commitId: intent.commitId,
        expectedStartOffset: intent.offsetStart,
        budget: context.limits.chainSearchBudget,
        signal: deadline.signal,
      });
      if (search.kind === "found") {
        attempt.stage = "COMMITTED";
        return { intent: search.intent, head: undefined, generationZeroCommitted: false };
      }
      throw new NereusError(
        ErrorCode.OFFSET_CONFLICT,
        `stream ${streamId}: the committed end moved from ${String(intent.offsetStart)} to ${String(current?.head.committedEndOffset)} before this append committed`,
      );
    }
    // Compatible change (renew, trim): resend against the current head, reusing an identical stored intent.
    if (current === undefined) throw new NereusError(ErrorCode.STREAM_NOT_FOUND, `stream ${streamId} head disappeared`);
    if (current.revision === base.revision && newIntentRevision === intentRevision) {
      // The head and intent compares held: a protection compare failed. The provider may know it is final.
      if (input.walWriter.classifyProtectionConflict?.(input.persisted, result.current) === "FENCED") {
        throw new NereusError(
          ErrorCode.FENCED_APPEND,
          `stream ${streamId}: the WAL target's protection condition no longer holds and the provider reports this writer fenced`,
          { retryable: false },
        );
      }
      throw new NereusError(
        ErrorCode.METADATA_CONDITION_FAILED,
        `stream ${streamId}: the WAL target's protection condition no longer holds`,
      );
    }
    if (retry >= context.limits.compatibleRetries) {
      throw new NereusError(
        ErrorCode.METADATA_CONDITION_FAILED,
        `stream ${streamId}: head kept changing; gave up after ${String(retry + 1)} attempts`,
      );
    }
    base = current;
    intentRevision = newIntentRevision;
  }
}
