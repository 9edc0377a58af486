// Pipeline step 7, after a lost (non-speculative) head CAS: what it came to, from the values the same transaction
// read back (docs/architecture.md §3.3). Our own commit found in the head ends the commit; a definitive failure
// throws; a moved end is left to the caller's commit-chain search; a compatible change (renew, trim) is retried
// against the current head, reusing an identical stored intent. A lost protection compare under an unchanged head
// is METADATA_CONDITION_FAILED unless the writer's optional `classifyProtectionConflict` (fed the protection keys
// the same transaction read back) reports the writer FENCED. After a moved end, `findMovedCommit` searches the
// commit chain for our commit before answering OFFSET_CONFLICT.
import type { CommitIntent } from "../domain/commit-records.js";
import type { StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { AppendAttempt } from "../lane/append-attempt.js";
import type { KeyValue } from "../spi/metadata-store.js";
import type { PersistedWrite, WalWriter } from "../spi/wal.js";
import type { VersionedHead } from "../records/stream-keyspace.js";
import type { AppendContext } from "./append-context.js";
import { classifyHeadConflict } from "./classify-head-conflict.js";
import { reuseCommitIntent } from "./reuse-commit-intent.js";
import { findCommit } from "../commit-chain/find-commit.js";
import type { Deadline } from "../timing/deadline.js";

/** The part of the head commit's input a lost CAS is classified with (a `HeadCommitInput` is one). */
export interface LostHeadCommitSource {
  readonly context: AppendContext;
  readonly attempt: AppendAttempt;
  readonly intent: CommitIntent;
  readonly heldSession: StreamHead["session"];
  readonly walWriter: WalWriter;
  readonly persisted: PersistedWrite;
  readonly deadline: Deadline;
}

/** One lost CAS: what it compared and what the same transaction read back. */
export interface LostHeadCommitInput {
  /** The head the lost CAS compared. */
  readonly base: VersionedHead;
  /** The intent revision the lost CAS compared (0: absent). */
  readonly intentRevision: number;
  /** Zero-based number of the lost attempt. */
  readonly retry: number;
  /** The values the failed transaction read back. */
  readonly readBack: ReadonlyMap<string, KeyValue>;
  readonly headKey: string;
  readonly intentKey: string;
  readonly markerKey: string;
  readonly intentBytes: Uint8Array;
}

export type LostHeadCommit =
  /** Our commit is in the head: `intent` is the stored one. `attempt.stage` is COMMITTED. */
  | { readonly kind: "committed"; readonly intent: CommitIntent }
  /** The committed end moved and our commit is not in the head: search the chain, then OFFSET_CONFLICT. */
  | { readonly kind: "end-moved"; readonly current: VersionedHead | undefined }
  /** A compatible change: resend against `base`, comparing the intent at `intentRevision`. */
  | { readonly kind: "retry"; readonly base: VersionedHead; readonly intentRevision: number };

/** Classifies a lost head CAS. Throws `NereusError` on a definitive failure. */
export function classifyLostHeadCommit(source: LostHeadCommitSource, input: LostHeadCommitInput): LostHeadCommit {
  const { context, attempt, intent } = source;
  const { base, intentRevision, retry, readBack } = input;
  const { keyspace } = context;
  const streamId = intent.streamId;
  const headKv = readBack.get(input.headKey);
  const current = headKv === undefined ? undefined : keyspace.decodeHead(headKv);
  const storedIntentKv = readBack.get(input.intentKey);
  const newIntentRevision = reuseCommitIntent(storedIntentKv, input.intentBytes, streamId, intent.commitId);
  const verdict = classifyHeadConflict({
    expected: base.head,
    current: current?.head,
    commitId: intent.commitId,
    markerFound: readBack.has(input.markerKey),
    heldSession: source.heldSession,
  });
  if (verdict.kind === "committed") {
    attempt.stage = "COMMITTED";
    const stored = storedIntentKv === undefined ? intent : keyspace.decodeIntent(storedIntentKv);
    return { kind: "committed", intent: stored };
  }
  if (verdict.kind === "fail")
    throw new NereusError(verdict.code, verdict.message, { retryable: verdict.code === "OFFSET_CONFLICT" });
  if (verdict.kind === "end-moved") return { kind: "end-moved", current };
  // Compatible change (renew, trim): resend against the current head, reusing an identical stored intent.
  if (current === undefined) throw new NereusError(ErrorCode.STREAM_NOT_FOUND, `stream ${streamId} head disappeared`);
  if (current.revision === base.revision && newIntentRevision === intentRevision) {
    // The head and intent compares held: a protection compare failed. The provider may know it is final.
    if (source.walWriter.classifyProtectionConflict?.(source.persisted, readBack) === "FENCED") {
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
  return { kind: "retry", base: current, intentRevision: newIntentRevision };
}

/**
 * After a moved end: our commit may still be in the chain (committed, then built on). Answers the stored intent
 * (`attempt.stage` COMMITTED) or throws OFFSET_CONFLICT.
 */
export async function findMovedCommit(
  source: LostHeadCommitSource,
  current: VersionedHead | undefined,
): Promise<CommitIntent> {
  const { context, attempt, intent, deadline } = source;
  const streamId = intent.streamId;
  const search = await findCommit({
    metadata: context.metadata,
    keyspace: context.keyspace,
    streamId,
    commitId: intent.commitId,
    expectedStartOffset: intent.offsetStart,
    budget: context.limits.chainSearchBudget,
    signal: deadline.signal,
  });
  if (search.kind === "found") {
    attempt.stage = "COMMITTED";
    return search.intent;
  }
  if (search.kind === "trimmed") {
    throw new NereusError(
      ErrorCode.OFFSET_TRIMMED,
      `stream ${streamId}: the range of this append was trimmed before its outcome could be told`,
      { retryable: false, details: { trimOffset: search.trimOffset } },
    );
  }
  throw new NereusError(
    ErrorCode.OFFSET_CONFLICT,
    `stream ${streamId}: the committed end moved from ${String(intent.offsetStart)} to ${String(current?.head.committedEndOffset)} before this append committed`,
  );
}
