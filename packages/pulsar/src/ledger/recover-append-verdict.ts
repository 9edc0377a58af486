// The verdict on an append whose outcome is uncertain (MAY_HAVE_COMMITTED or KNOWN_COMMITTED): asks the stream
// store's `recoverAppend` — which resolves exactly that attempt and never writes again — until it answers, with
// backoff. Never rejects: a failure retrying cannot cure (the attempt is unknown to the store, the store is
// closed, the records are corrupt) and an aborted signal are verdicts too.
import { AppendFailedError, type AppendResult, ErrorCode, NereusError, type StreamStore } from "@nereus/core";

/** How the uncertain append ended. */
export type AppendVerdict =
  /** It committed: the original result. */
  | { readonly kind: "committed"; readonly result: AppendResult }
  /** It provably did not commit. */
  | { readonly kind: "not-committed"; readonly error: unknown }
  /** It cannot be resolved here (or recovery was aborted): the ledger must not accept writes again in place. */
  | { readonly kind: "unresolvable"; readonly error: unknown };

export interface RecoverVerdictOptions {
  /** Aborted when the ledger closes. */
  readonly signal: AbortSignal;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
}

const UNRECOVERABLE: ReadonlySet<string> = new Set([
  ErrorCode.UNKNOWN_APPEND_ATTEMPT,
  ErrorCode.STORAGE_CLOSED,
  ErrorCode.INVALID_ARGUMENT,
  ErrorCode.METADATA_INVARIANT_VIOLATION,
  ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
  ErrorCode.OBJECT_CHECKSUM_MISMATCH,
  ErrorCode.DECODE_ERROR,
]);

function pause(delayMs: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, delayMs);
    timer.unref?.();
    signal.addEventListener("abort", done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

/** Resolves attempt `attemptId` of `streamId` (see the module comment). */
export async function recoverAppendVerdict(
  streams: Pick<StreamStore, "recoverAppend">,
  streamId: string,
  attemptId: string,
  options: RecoverVerdictOptions,
): Promise<AppendVerdict> {
  let delay = options.minDelayMs;
  for (;;) {
    try {
      return {
        kind: "committed",
        result: await streams.recoverAppend(streamId, attemptId, { signal: options.signal }),
      };
    } catch (error) {
      if (AppendFailedError.isAppendFailure(error) && error.outcome === "KNOWN_NOT_COMMITTED") {
        return { kind: "not-committed", error };
      }
      if (options.signal.aborted) return { kind: "unresolvable", error: options.signal.reason as unknown };
      if (NereusError.is(error) ? UNRECOVERABLE.has(error.code) : true) return { kind: "unresolvable", error };
    }
    await pause(delay, options.signal);
    delay = Math.min(delay * 2, options.maxDelayMs);
  }
}
