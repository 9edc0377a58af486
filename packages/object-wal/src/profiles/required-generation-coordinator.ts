// Completion coordinator of the REQUIRED_OBJECT_GENERATION boundary (seed 001 "Two kinds of completion"; digest
// §1.10, §2.6 step 11): after the head CAS, the producer waits until a committed, read-verified higher generation
// covers the whole committed range — the materialization worker verified the output by reading it back before it
// could prepare it, and the coverage it publishes is written by the same transaction that commits the generation.
// It pokes the in-process worker and polls the stream's materialized coverage (one read per poll, backing off).
// It never changes the commit: a timeout makes the append fail KNOWN_COMMITTED, and recovery waits again.
import { ErrorCode, NereusError, type CompletionContext, type CompletionCoordinator } from "@nereus/core";
import type { MaterializationStateStore } from "../generations/materialization-state-store.js";

export interface RequiredGenerationCoordinatorOptions {
  readonly states: MaterializationStateStore;
  /** Asks the worker to run a pass now (optional). */
  readonly poke?: () => void;
  /** First poll delay, doubled up to `maxPollMs` (defaults 10 ms / 250 ms). */
  readonly minPollMs?: number;
  readonly maxPollMs?: number;
}

export class RequiredGenerationCoordinator implements CompletionCoordinator {
  readonly boundary = "REQUIRED_OBJECT_GENERATION" as const;
  readonly #options: RequiredGenerationCoordinatorOptions;

  constructor(options: RequiredGenerationCoordinatorOptions) {
    this.#options = options;
  }

  async complete(context: CompletionContext): Promise<void> {
    // The generation is built from the generation-0 index; make sure this commit's entry exists.
    if (!context.generationZeroCommitted) await context.ensureGenerationZero({ signal: context.signal });
    const { streamId, endOffset } = context.result;
    let delay = this.#options.minPollMs ?? 10;
    const maxDelay = this.#options.maxPollMs ?? 250;
    for (;;) {
      const { record } = await this.#options.states.load(streamId, context.signal);
      if (record.materializedEnd >= endOffset) return;
      this.#options.poke?.();
      await sleep(delay, context.signal);
      delay = Math.min(maxDelay, delay * 2);
    }
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(aborted(signal));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(aborted(signal as AbortSignal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function aborted(signal: AbortSignal): NereusError {
  return NereusError.is(signal.reason)
    ? signal.reason
    : new NereusError(ErrorCode.TIMEOUT, "the required Object generation was not committed before the append's deadline", { cause: signal.reason });
}
