// One physical append attempt: a single append or a group commit of several callers. It is the unit the head CAS
// commits and the unit `recoverAppend` resolves; each caller (member) holds its own attempt id that points here.
// Holds no payload bytes after the WAL write (the frozen bytes belong to the WAL writer's prepared write).
import type { CommitIntent } from "../domain/commit-records.js";
import type { NereusError } from "../errors/nereus-error.js";
import type { ExecutionPlan } from "../profiles/resolve-execution-plan.js";

/**
 * Lifecycle (docs/architecture.md §4.3): ADMITTED → PRIMARY_WAL_DURABLE → HEAD_REQUEST_IN_FLIGHT → COMMITTED, or
 * → SUSPENDED (head result unknown) → RECOVERING → COMMITTED | PROVEN_NOT_COMMITTED (| SUSPENDED again).
 * NOT_COMMITTED is a failure known before the head request was sent.
 */
export type AttemptStage =
  | "ADMITTED"
  | "PRIMARY_WAL_DURABLE"
  | "HEAD_REQUEST_IN_FLIGHT"
  | "SUSPENDED"
  | "RECOVERING"
  | "COMMITTED"
  | "NOT_COMMITTED"
  | "PROVEN_NOT_COMMITTED";

/** One caller's share of an attempt: its place inside the attempt's records, entries and bytes. */
export interface AttemptMember {
  readonly attemptId: string;
  /** Records of the members before this one (its start = commit start + this). */
  readonly recordOffset: number;
  readonly recordCount: number;
  readonly entryCount: number;
  readonly logicalBytes: number;
  /** Logical bytes of the members before this one. */
  readonly logicalBytesBefore: number;
}

/**
 * What a resolved attempt proved. "trimmed": the attempt's range went below the trim offset and its records were
 * collected before recovery could tell (`committed` when its replay marker still proved the commit); the head moved
 * past its expected start, so it can never commit later and the lane is released.
 */
export type AttemptResolution =
  | { readonly kind: "committed"; readonly intent: CommitIntent }
  | { readonly kind: "not-committed"; readonly error: NereusError }
  | { readonly kind: "trimmed"; readonly committed: boolean; readonly error: NereusError };

/** Outcome of one recovery run: a resolution, or the reason it is still unresolved. */
export type RecoveryOutcome =
  | { readonly kind: "resolved"; readonly resolution: AttemptResolution }
  | { readonly kind: "unresolved"; readonly reason: NereusError };

/**
 * Mutable state of one attempt, owned by the lane that runs it and by recovery (never both at once: recovery
 * waits for `runnerDone`). Invariant: once `resolution` is set it never changes.
 */
export class AppendAttempt {
  readonly streamId: string;
  readonly plan: ExecutionPlan;
  readonly members: readonly AttemptMember[];
  stage: AttemptStage = "ADMITTED";
  /** Known once the commit intent is planned (after the WAL write). */
  commitId: string | undefined;
  expectedStartOffset: number | undefined;
  /** The intent this attempt planned to commit (the stored one wins when they differ in head-derived fields). */
  intent: CommitIntent | undefined;
  /** Head revision compared by a head request whose response was lost (a late apply needs exactly this). */
  ambiguousHeadRevision: number | undefined;
  /** Set when the head CAS is known to have committed this attempt. */
  committedIntent: CommitIntent | undefined;
  /** Why the runner stopped without a result (kept for recovery's messages). */
  failure: NereusError | undefined;
  /** True once the profile's completion boundary held. */
  completed = false;
  resolution: AttemptResolution | undefined;
  /** The single in-flight recovery, joined by concurrent `recoverAppend` callers. */
  recovery: Promise<RecoveryOutcome> | undefined;
  readonly runnerDone: Promise<void>;
  readonly #finishRunner: () => void;

  constructor(streamId: string, plan: ExecutionPlan, members: readonly AttemptMember[]) {
    this.streamId = streamId;
    this.plan = plan;
    this.members = members;
    let finish: () => void = () => undefined;
    this.runnerDone = new Promise<void>((resolve) => {
      finish = resolve;
    });
    this.#finishRunner = finish;
  }

  /** Called by the runner once it can no longer (re)send the head request. */
  finishRunner(): void {
    this.#finishRunner();
  }

  get recordCount(): number {
    return this.members.reduce((sum, member) => sum + member.recordCount, 0);
  }
}
