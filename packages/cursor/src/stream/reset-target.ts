// Where a protected reset lands: the markDelete offset and partial batch acknowledgement a reset to an entry writes.
import { type BatchBits, classifyBatchBits } from "../ack-state/batch-bits.js";
import type { PartialAck } from "../domain/ack-types.js";

/** The markDelete and partial a protected reset to `target` writes (a partial acknowledging every index: target + 1). */
export function resetTargetOf(
  target: number,
  partial: BatchBits | undefined,
): { readonly target: number; readonly targetPartial: PartialAck | undefined } {
  if (partial === undefined) return { target, targetPartial: undefined };
  const state = classifyBatchBits(partial);
  if (state.kind === "whole") return { target: target + 1, targetPartial: undefined };
  if (state.kind === "none") return { target, targetPartial: undefined };
  return { target, targetPartial: { offset: target, batchSize: partial.batchSize, remaining: state.remaining } };
}
