// Pipeline steps 6 and 5 for one attempt, run before each head CAS it sends: plan the deterministic commit intent
// against the head the CAS will compare (commit id included), then protect the persisted target for that commit id
// (docs/architecture.md §4.2). The protection is written once per commit id: a second CAS against another head
// reuses it as long as the commit id is the same (the id does not depend on the previous commit, version or size).
import type { CommitIntent } from "../domain/commit-records.js";
import type { StreamHead } from "../domain/stream-head.js";
import type { TargetProtection } from "../spi/wal.js";
import { buildCommitIntent } from "./build-commit-intent.js";
import type { HeadCommitInput } from "./commit-head.js";
import { protectTarget } from "./protect-target.js";

/** What every head CAS of one attempt shares (all of {@link HeadCommitInput} but the head-specific fields). */
export type AttemptCommitInput = Omit<HeadCommitInput, "base" | "intent" | "protection" | "expectedHeadValue">;

/** The intent planned against one head, and the protection bound to its commit id. */
export interface PreparedCommit {
  readonly intent: CommitIntent;
  readonly protection: TargetProtection;
}

/**
 * A preparer for the attempt in `input`: each call plans the intent against `head` (and records it on the
 * attempt), checks the deadline, and protects the target when the commit id is new, running the
 * `afterProtection` and `afterIntent` hooks then.
 */
export function createCommitPreparer(
  input: AttemptCommitInput,
  entryRecordCounts: readonly number[],
): (head: StreamHead) => Promise<PreparedCommit> {
  const { context, attempt, sessionPlan, persisted, walWriter, deadline, runHook } = input;
  const hooks = context.stepHooks;
  let protectedFor: { readonly commitId: string; readonly protection: TargetProtection } | undefined;
  return async (head) => {
    const intent = buildCommitIntent({ head, session: sessionPlan.session, persisted, entryRecordCounts });
    attempt.commitId = intent.commitId;
    attempt.intent = intent;
    deadline.check(`append to ${attempt.streamId}`);
    if (protectedFor?.commitId !== intent.commitId) {
      protectedFor = {
        commitId: intent.commitId,
        protection: await protectTarget(walWriter, persisted, intent.commitId, context.metadata, deadline.signal),
      };
      if (hooks.afterProtection !== undefined) await runHook("afterProtection");
      if (hooks.afterIntent !== undefined) await runHook("afterIntent");
    }
    return { intent, protection: protectedFor.protection };
  };
}
