// Pipeline step 1b: a caller's `expectedStartOffset` must equal the offset its append would start at, checked
// against the lane's committed end before any WAL I/O. Pure; the lane reloads the head once before trusting a
// cached end that is behind the expectation (a cached end can only lag, never lead, the real one).
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** OFFSET_CONFLICT when `expected` is given and differs from `actualStart`; otherwise nothing. */
export function checkExpectedStart(streamId: string, expected: number | undefined, actualStart: number): void {
  if (expected === undefined || expected === actualStart) return;
  throw new NereusError(
    ErrorCode.OFFSET_CONFLICT,
    `stream ${streamId}: expected the append to start at ${String(expected)}, the committed end is ${String(actualStart)}`,
    { details: { streamId, expectedStartOffset: expected, committedEndOffset: actualStart } },
  );
}
