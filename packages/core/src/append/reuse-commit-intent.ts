// Pipeline step 6 (write-or-reuse): the commit intent is immutable. When the head transaction finds an intent
// already stored under its deterministic id, identical bytes are reused (the retry compares it at its revision
// and does not write it again); different bytes are a METADATA_INVARIANT_VIOLATION — never overwritten.
import { bytesEqual } from "../bytes/compare-bytes.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { KeyValue } from "../spi/metadata-store.js";

/**
 * The revision the next head transaction must compare the intent key at: 0 (absent, write it) when nothing is
 * stored, the stored revision (reuse, do not write) when the stored bytes are exactly `intentBytes`.
 */
export function reuseCommitIntent(
  stored: KeyValue | undefined,
  intentBytes: Uint8Array,
  streamId: string,
  commitId: string,
): number {
  if (stored === undefined) return 0;
  if (!bytesEqual(stored.value, intentBytes)) {
    throw new NereusError(
      ErrorCode.METADATA_INVARIANT_VIOLATION,
      `stream ${streamId}: commit intent ${commitId} exists with different content; refusing to overwrite it`,
      { retryable: false },
    );
  }
  return stored.modRevision;
}
