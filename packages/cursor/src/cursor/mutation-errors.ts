// The errors a mutation of an open cursor fails with when the root it finds is not the cursor it was meant for:
// deleted (CURSOR_NOT_FOUND), recreated under a newer generation or replaced by a reset (CURSOR_STATE_CONFLICT).
import { ErrorCode, NereusError } from "@nereus/core";
import type { CursorStateRecord } from "../domain/cursor-records.js";

/** The error for `root` when a mutation meant for `generation` finds it, or undefined when it may proceed. */
export function lifecycleError(root: CursorStateRecord, generation: number): NereusError | undefined {
  if (root.lifecycle === "DELETED") {
    return new NereusError(ErrorCode.CURSOR_NOT_FOUND, `cursor ${root.cursorName} was deleted`, { retryable: false });
  }
  if (root.cursorGeneration !== generation) {
    return new NereusError(
      ErrorCode.CURSOR_STATE_CONFLICT,
      `cursor ${root.cursorName} was recreated (generation ${String(root.cursorGeneration)}, expected ${String(generation)})`,
      { retryable: false },
    );
  }
  return undefined;
}

/** Throws {@link lifecycleError} when there is one. */
export function checkLifecycle(root: CursorStateRecord, generation: number): void {
  const error = lifecycleError(root, generation);
  if (error !== undefined) throw error;
}

/** CURSOR_STATE_CONFLICT for `what` on `root`, which changed in a way the mutation must not be rebased over. */
export function stateConflict(root: CursorStateRecord, what: string): NereusError {
  return new NereusError(
    ErrorCode.CURSOR_STATE_CONFLICT,
    `${what}: cursor ${root.cursorName} changed concurrently (ack state epoch ${String(root.ackStateEpoch)}, sequence ${String(root.mutationSequence)})`,
    { retryable: false },
  );
}
