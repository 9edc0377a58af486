// Built-in completion coordinator for GENERATION_ZERO_VISIBLE (WAL_DURABLE_AND_INDEX_COMMITTED): success only
// once the generation-0 index entry and replay marker exist. On the normal path the head transaction wrote them
// (no I/O here); after recovery, or when the commit was learnt from a conflict read-back, it materializes them
// idempotently.
import type { CompletionContext, CompletionCoordinator } from "../spi/completion.js";

/** Ensures the commit's generation-0 index entry and replay marker are visible. Idempotent. */
export class GenerationZeroVisibleCoordinator implements CompletionCoordinator {
  readonly boundary = "GENERATION_ZERO_VISIBLE" as const;

  async complete(context: CompletionContext): Promise<void> {
    if (context.generationZeroCommitted) return;
    await context.ensureGenerationZero({ signal: context.signal });
  }
}
