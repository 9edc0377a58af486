// Step hooks: test seams at every boundary of the append pipeline. A hook that throws simulates a crash at that
// boundary (the append fails with the outcome that boundary implies); a hook that awaits pauses the pipeline
// there (to interleave another writer). Production code passes none.
import type { CommitIntent } from "../domain/commit-records.js";

/** Boundaries, in pipeline order. */
export const APPEND_STEPS = [
  "beforeWalWrite",
  "afterWalWrite",
  "afterProtection",
  "afterIntent",
  "beforeHeadCommit",
  "afterHeadCommit",
  "afterCompletion",
] as const;

export type AppendStep = (typeof APPEND_STEPS)[number];

export interface AppendStepContext {
  readonly step: AppendStep;
  readonly streamId: string;
  /** Attempt ids of every caller in this physical attempt. */
  readonly attemptIds: readonly string[];
  /** Known from `afterProtection` on (the commit id is derived before protection). */
  readonly commitId: string | undefined;
  /** The planned commit intent (known from `afterProtection` on; the head transaction writes or reuses it). */
  readonly commitIntent: CommitIntent | undefined;
  readonly signal: AbortSignal;
}

export type AppendStepHook = (context: AppendStepContext) => void | Promise<void>;

/** Hooks by step. `beforeHeadCommit` runs before every send of the head request (also compatible retries). */
export type AppendStepHooks = Partial<Readonly<Record<AppendStep, AppendStepHook>>>;
