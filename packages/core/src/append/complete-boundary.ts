// Pipeline step 8: wait for the profile's producer boundary after the head CAS. A failure here never rolls the
// commit back; the pipeline reports it as KNOWN_COMMITTED with an attempt id.
import type { CommitIntent } from "../domain/commit-records.js";
import type { StreamHead } from "../domain/stream-head.js";
import { ensureGenerationZero } from "../read/ensure-generation-zero.js";
import type { CompletionCoordinator } from "../spi/completion.js";
import type { AppendContext } from "./append-context.js";
import { buildAppendResult } from "./build-append-result.js";

export interface CompleteBoundaryInput {
  readonly context: AppendContext;
  readonly coordinator: CompletionCoordinator;
  readonly intent: CommitIntent;
  /** A head at or after the commit. */
  readonly head: StreamHead;
  readonly generationZeroCommitted: boolean;
  readonly signal: AbortSignal;
}

/** Runs the coordinator for the whole commit. */
export async function completeBoundary(input: CompleteBoundaryInput): Promise<void> {
  const { context, intent } = input;
  await input.coordinator.complete({
    head: input.head,
    result: buildAppendResult(intent),
    intent,
    metadata: context.metadata,
    generationZeroCommitted: input.generationZeroCommitted,
    ensureGenerationZero: (options) =>
      ensureGenerationZero(context.metadata, context.keyspace, [intent], options?.signal ?? input.signal),
    signal: input.signal,
  });
}
