// Resolves an append whose outcome is uncertain (MAY_HAVE_COMMITTED) for the partition log's fence: asks the
// store's `recoverAppend` — which never writes again — until it answers, with backoff.
import { type AppendResult, AppendFailedError, ErrorCode, NereusError } from "@nereus/core";
import type { PartitionLogContext } from "./partition-log-context.js";

const RECOVERY_MIN_DELAY_MS = 10;
const RECOVERY_MAX_DELAY_MS = 2_000;

/**
 * Resolves the uncertain attempt exactly (never a new write): the original result when it committed, undefined
 * when it provably did not. Retries unresolved recoveries with backoff until the broker closes.
 */
export async function recoverUncertainAppend(
  context: PartitionLogContext,
  streamId: string,
  attemptId: string,
): Promise<AppendResult | undefined> {
  let delay = RECOVERY_MIN_DELAY_MS;
  for (;;) {
    try {
      const result = await context.store.recoverAppend(streamId, attemptId, { signal: context.closing });
      context.logger.info("uncertain append recovered: committed", { streamId, attemptId });
      return result;
    } catch (error) {
      if (AppendFailedError.isAppendFailure(error) && error.outcome === "KNOWN_NOT_COMMITTED") {
        context.logger.info("uncertain append recovered: not committed", { streamId, attemptId });
        return undefined;
      }
      if (
        context.closing.aborted ||
        NereusError.hasCode(error, ErrorCode.UNKNOWN_APPEND_ATTEMPT) ||
        NereusError.hasCode(error, ErrorCode.STORAGE_CLOSED)
      ) {
        throw error;
      }
      context.logger.debug("append recovery not resolved yet", { streamId, attemptId, error: String(error) });
    }
    await new Promise((resolve) => setTimeout(resolve, delay).unref?.());
    delay = Math.min(delay * 2, RECOVERY_MAX_DELAY_MS);
  }
}
