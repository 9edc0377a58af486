// Pipeline step 7: the head CAS, the append's linearization point. ONE metadata transaction compares the head's
// revision (or, for a speculative CAS sent behind a group still in flight, the exact head value that group writes;
// a lost speculative compare applied nothing and is not classified: the caller falls back), the intent (absent, or present with identical bytes at its revision) and the provider's protection
// conditions, and writes the protection, the intent, the new head, the replay marker and — when the ack boundary
// needs it — the generation-0 index entry. A lost CAS is classified from the values the same transaction read
// back (docs/architecture.md §3.3; classify-lost-head-commit.ts); only compatible changes are retried. An exception thrown while the request is in
// flight leaves `attempt.stage === "HEAD_REQUEST_IN_FLIGHT"`: the caller must treat it as MAY_HAVE_COMMITTED.
import type { CommitIntent } from "../domain/commit-records.js";
import type { StreamHead } from "../domain/stream-head.js";
import type { PipelineLink } from "../lane/pipeline-link.js";
import { deriveGenerationZero } from "../read/derive-generation-zero.js";
import type { SessionPlan } from "../session/plan-session.js";
import type { TxnRequest, WriteOp } from "../spi/metadata-store.js";
import type { PersistedWrite, TargetProtection, WalWriter } from "../spi/wal.js";
import type { AppendContext } from "./append-context.js";
import type { VersionedHead } from "../records/stream-keyspace.js";
import type { AppendAttempt } from "../lane/append-attempt.js";
import type { AppendStepHooks } from "./append-step-hooks.js";
import { classifyLostHeadCommit, findMovedCommit } from "./classify-lost-head-commit.js";
import type { Deadline } from "../timing/deadline.js";
import { definitelyNotApplied } from "./definitely-not-applied.js";

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
   * Set for a speculative CAS behind a group still in flight (only on a store with `accelerations.orderedTxns`): the head is
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
  const readOnFailure = failureReadBack(headKey, intentKey, markerKey, input.protection);
  let base = input.base;
  let intentRevision = 0;
  for (let retry = 0; ; retry++) {
    deadline.check(`append to ${streamId}`);
    if (context.stepHooks.beforeHeadCommit !== undefined) await input.runHook("beforeHeadCommit");
    const next = committedHead(base.head, intent, input.sessionPlan);
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
    const lost = classifyLostHeadCommit(input, {
      base,
      intentRevision,
      retry,
      readBack: result.current,
      headKey,
      intentKey,
      markerKey,
      intentBytes,
    });
    if (lost.kind === "committed")
      return { intent: lost.intent, head: undefined, generationZeroCommitted: indexWrite !== undefined };
    if (lost.kind === "end-moved")
      return { intent: await findMovedCommit(input, lost.current), head: undefined, generationZeroCommitted: false };
    base = lost.base;
    intentRevision = lost.intentRevision;
  }
}

/**
 * The keys a lost CAS reads back. The protection compare keys ride in the failure read-back, so a lost protection
 * compare is classified from the same response (no extra round trip; nothing is read on success).
 */
function failureReadBack(
  headKey: string,
  intentKey: string,
  markerKey: string,
  protection: TargetProtection,
): string[] {
  return [
    headKey,
    intentKey,
    markerKey,
    ...protection.compares
      .map((compare) => compare.key)
      .filter((key) => key !== headKey && key !== intentKey && key !== markerKey),
  ];
}

/** The head the CAS writes: `base` with the intent's commit facts and the planned session. */
function committedHead(base: StreamHead, intent: CommitIntent, sessionPlan: SessionPlan): StreamHead {
  return {
    ...base,
    committedEndOffset: intent.offsetEnd,
    cumulativeSize: intent.cumulativeSize,
    commitVersion: intent.commitVersion,
    lastCommitId: intent.commitId,
    session: sessionPlan.next,
  };
}
