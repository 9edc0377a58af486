// Put-if-absent-or-equal for immutable metadata records (docs/architecture.md §3.1, §3.3): create the key when absent;
// an existing value with the same bytes is success (idempotent replay); different bytes are a
// METADATA_INVARIANT_VIOLATION and are never overwritten. A write whose response was lost is resolved by reading
// the key back, never by guessing.
import { ErrorCode, NereusError, type MetadataStore } from "@nereus/core";
import { bytesEqual } from "@nereus/core/internal";

const ATTEMPTS = 3;

/** Creates `key` with `value` unless it holds exactly `value`; returns the key's revision. */
export async function putIfAbsentOrEqual(
  metadata: MetadataStore,
  key: string,
  value: Uint8Array,
  signal?: AbortSignal,
): Promise<number> {
  let lastError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let stored;
    try {
      const result = await metadata.txn(
        { compares: [{ key, modRevision: 0 }], writes: [{ type: "put", key, value }], readOnFailure: [key] },
        { signal },
      );
      if (result.succeeded) return result.revision;
      stored = result.current.get(key);
    } catch (error) {
      if (!NereusError.is(error) || error.details["ambiguous"] === false || error.code === ErrorCode.CANCELLED)
        throw error;
      lastError = error;
      stored = await metadata.get(key, { signal });
    }
    if (stored !== undefined) {
      if (bytesEqual(stored.value, value)) return stored.modRevision;
      throw new NereusError(
        ErrorCode.METADATA_INVARIANT_VIOLATION,
        `${key} exists with different content; refusing to overwrite it`,
        {
          retryable: false,
          details: { key },
        },
      );
    }
  }
  throw new NereusError(
    ErrorCode.METADATA_CONDITION_FAILED,
    `could not create ${key}: it kept disappearing or the store kept failing`,
    {
      cause: lastError,
      details: { key },
    },
  );
}
