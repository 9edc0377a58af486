// One fenced compare-and-put of a single cursor key (retention record or cursor root): the key's revision must be
// unchanged and the stream's owner record must still be this session's. A lost response is resolved by reading
// the key back, never by guessing. It retries only a write that provably did not apply.
import { ErrorCode, type KeyValue, MetadataAmbiguousError, NereusError } from "@nereus/core";
import { bytesEqual, type RecordCodec } from "@nereus/core/internal";
import { fencedError, type OwnerContext, ownedTxn } from "../store/owner-context.js";

/** A decoded record with the revision a CAS on its key compares (`0`: the key is absent). */
export interface Versioned<T> {
  readonly record: T;
  readonly modRevision: number;
}

/** What a compare-and-put ended with: applied at `modRevision`, or lost to `current` (undefined: key absent). */
export type OwnedPutOutcome =
  { readonly ok: true; readonly modRevision: number } | { readonly ok: false; readonly current: KeyValue | undefined };

/**
 * Writes `value` at `key` when the key's modRevision is `expectedRevision` (`0`: absent) and `owner` still owns the
 * stream. Throws CURSOR_FENCED once another session owns it. An ambiguous outcome is resolved by reading the key:
 * its bytes equal `value` ⇒ applied; revision unchanged ⇒ sent again (up to `limits.maxCasAttempts` times, then a
 * retriable METADATA_UNAVAILABLE); anything else ⇒ lost.
 */
export async function ownedPut(
  owner: OwnerContext,
  key: string,
  expectedRevision: number,
  value: Uint8Array,
  signal: AbortSignal | undefined,
): Promise<OwnedPutOutcome> {
  for (let attempt = 1; attempt <= owner.env.limits.maxCasAttempts; attempt++) {
    try {
      const result = await ownedTxn(
        owner,
        {
          compares: [{ key, modRevision: expectedRevision }],
          writes: [{ type: "put", key, value }],
          readOnFailure: [key],
        },
        { signal },
      );
      return result.succeeded
        ? { ok: true, modRevision: result.revision }
        : { ok: false, current: result.current.get(key) };
    } catch (error) {
      if (!MetadataAmbiguousError.isAmbiguous(error)) throw error;
      const current = await readOwnedKey(owner, key, signal);
      if (current !== undefined && bytesEqual(current.value, value))
        return { ok: true, modRevision: current.modRevision };
      if ((current?.modRevision ?? 0) !== expectedRevision) return { ok: false, current };
    }
  }
  throw new NereusError(
    ErrorCode.METADATA_UNAVAILABLE,
    `write of ${key} stayed ambiguous after ${String(owner.env.limits.maxCasAttempts)} attempts`,
    { retryable: true },
  );
}

/** Reads `key` together with the owner record; throws CURSOR_FENCED when the stream has another owner now. */
export async function readOwnedKey(
  owner: OwnerContext,
  key: string,
  signal: AbortSignal | undefined,
): Promise<KeyValue | undefined> {
  const values = await owner.env.metadata.getMany([key, owner.ownerKey], { signal });
  const ownerValue = values.get(owner.ownerKey);
  if (ownerValue === undefined || !bytesEqual(ownerValue.value, owner.ownerValue)) throw fencedError(owner);
  return values.get(key);
}

/** Decodes a stored value into a {@link Versioned} record (the codec checks it belongs to its key). */
export function decodeVersioned<T>(codec: RecordCodec<T>, value: KeyValue): Versioned<T> {
  return { record: codec.decode(value.value, value.key), modRevision: value.modRevision };
}
