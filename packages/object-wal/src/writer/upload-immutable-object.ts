// The immutable upload of one object (docs/architecture.md §8.3): a create-only PUT of exact bytes under a key nobody else
// writes, retried (same key, same bytes) after retryable failures within the caller's deadline. A PUT that meets an
// existing key (412) is resolved by reading the stored object back: exactly our bytes ⇒ our own earlier
// transmission landed (its response was lost) and the upload succeeded; anything else ⇒ an invariant violation,
// never an overwrite. Owns no buffers; `bytes` is not retained.
import { setTimeout as delay } from "node:timers/promises";
import { ErrorCode, NereusError, type ObjectStore } from "@nereus/core";
import { bytesEqual } from "@nereus/core/internal";

export interface UploadOptions {
  /** PUT transmissions at most (the first one included). */
  readonly attempts: number;
  /** Backoff before retry n is `backoffMs * n`. */
  readonly backoffMs: number;
  readonly signal: AbortSignal;
  /** Called before every PUT transmission (for counters). */
  readonly onPut?: () => void;
  /** CRC32C of `bytes` when the caller has it (`PutOptions.crc32c`). */
  readonly crc32c?: number;
}

export interface UploadOutcome {
  /** `putIfAbsent` calls made. */
  readonly putCalls: number;
  /** True when a PUT met the key and the stored bytes proved to be ours (a lost response resolved). */
  readonly recognisedOwnWrite: boolean;
}

/**
 * Uploads `bytes` to `key`. Throws `PRIMARY_WAL_WRITE_FAILED` (retryable as its cause; `details.mayHaveApplied`
 * when the object may exist) or `METADATA_INVARIANT_VIOLATION` when the key holds different bytes.
 */
export async function uploadImmutableObject(
  store: ObjectStore,
  key: string,
  bytes: Uint8Array,
  options: UploadOptions,
): Promise<UploadOutcome> {
  let mayHaveApplied = false;
  let putCalls = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      putCalls += 1;
      options.onPut?.();
      const { created } = await store.putIfAbsent(key, bytes, {
        signal: options.signal,
        ...(options.crc32c === undefined ? {} : { crc32c: options.crc32c }),
      });
      if (created) return { putCalls, recognisedOwnWrite: false };
      await expectOurBytes(store, key, bytes, options.signal);
      return { putCalls, recognisedOwnWrite: true };
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.METADATA_INVARIANT_VIOLATION)) throw error;
      mayHaveApplied ||= !NereusError.is(error) || error.details["mayHaveApplied"] !== false;
      const retryable = NereusError.is(error) && error.retryable && error.code !== ErrorCode.CANCELLED;
      if (!retryable || attempt >= options.attempts || options.signal.aborted) {
        throw new NereusError(
          ErrorCode.PRIMARY_WAL_WRITE_FAILED,
          `upload of WAL object ${key} failed after ${String(attempt)} transmission(s)`,
          {
            retryable: NereusError.is(error) ? error.retryable : false,
            cause: error,
            details: { objectKey: key, mayHaveApplied },
          },
        );
      }
      await delay(options.backoffMs * attempt, undefined, { signal: options.signal }).catch(() => undefined);
    }
  }
}

async function expectOurBytes(store: ObjectStore, key: string, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
  const stored = await store.get(key, undefined, { signal });
  if (!bytesEqual(stored, bytes)) {
    throw new NereusError(
      ErrorCode.METADATA_INVARIANT_VIOLATION,
      `WAL object key ${key} already holds ${String(stored.length)} different byte(s); object keys are never reused, refusing to continue`,
      { retryable: false, details: { objectKey: key } },
    );
  }
}
