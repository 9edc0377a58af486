// Pipeline step 2b: admission hooks (e.g. the materialization-lag bound of async-object profiles) run before any
// WAL I/O. A rejection is an expected, retriable BACKPRESSURE_REJECTED; it never rolls back committed data.
import type { StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { AdmissionHook } from "../spi/completion.js";

/** Runs every hook in order; the first rejection wins. Non-Nereus errors become BACKPRESSURE_REJECTED. */
export async function runAdmission(
  hooks: readonly AdmissionHook[],
  streamId: string,
  head: StreamHead,
  signal: AbortSignal,
): Promise<void> {
  for (const hook of hooks) {
    try {
      await hook.admit(streamId, head, { signal });
    } catch (error) {
      if (NereusError.is(error)) throw error;
      throw new NereusError(ErrorCode.BACKPRESSURE_REJECTED, `stream ${streamId}: admission rejected the append`, {
        cause: error,
      });
    }
  }
}
