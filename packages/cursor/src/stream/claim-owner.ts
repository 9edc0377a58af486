// The owner claim of a writable open: the stream's owner record is created, or replaced by a CAS, with a new random
// session and claimSequence + 1. From the moment the claim lands every cursor write of an older session fails
// CURSOR_FENCED (each compares the owner record's bytes in its own transaction).
import { ErrorCode, type KeyValue, MetadataAmbiguousError, NereusError } from "@nereus/core";
import { bytesEqual } from "@nereus/core/internal";
import type { CursorOwnerRecord } from "../domain/cursor-records.js";
import { cursorOwnerKey } from "../keys/cursor-keys.js";
import { cursorOwnerCodec } from "../records/cursor-owner-codec.js";
import type { CursorEnvironment, OwnerContext } from "../store/owner-context.js";
import { newRandomId128 } from "./random-id.js";

/**
 * Claims `streamId` for a new session. A claim that lost to a concurrent one is retried from the new owner record
 * (up to `limits.maxCasAttempts` times, then a retriable METADATA_CONDITION_FAILED); a lost response is resolved by
 * reading the record back. A stored owner record that does not decode fails with METADATA_INVARIANT_VIOLATION.
 */
export async function claimStreamOwner(
  env: CursorEnvironment,
  streamId: string,
  signal: AbortSignal | undefined,
): Promise<OwnerContext> {
  const ownerKey = cursorOwnerKey(env.cluster, streamId);
  for (let attempt = 1; attempt <= env.limits.maxCasAttempts; attempt++) {
    const current = await env.metadata.get(ownerKey, { signal });
    const previous = current === undefined ? undefined : cursorOwnerCodec.decode(current.value, ownerKey);
    const claim: CursorOwnerRecord = {
      streamId,
      ownerSessionId: newRandomId128(),
      claimSequence: (previous?.claimSequence ?? 0) + 1,
      claimedAtMillis: env.now(),
    };
    const ownerValue = cursorOwnerCodec.encode(claim);
    if (await putClaim(env, ownerKey, current, ownerValue, signal)) {
      return { env, streamId, ownerSessionId: claim.ownerSessionId, ownerKey, ownerValue };
    }
  }
  throw new NereusError(
    ErrorCode.METADATA_CONDITION_FAILED,
    `could not claim the cursors of stream ${streamId}: ${String(env.limits.maxCasAttempts)} concurrent claims won`,
    { retryable: true },
  );
}

async function putClaim(
  env: CursorEnvironment,
  ownerKey: string,
  current: KeyValue | undefined,
  ownerValue: Uint8Array,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  try {
    const result = await env.metadata.txn(
      {
        compares: [{ key: ownerKey, modRevision: current?.modRevision ?? 0 }],
        writes: [{ type: "put", key: ownerKey, value: ownerValue }],
      },
      { signal },
    );
    return result.succeeded;
  } catch (error) {
    if (!MetadataAmbiguousError.isAmbiguous(error)) throw error;
    const after = await env.metadata.get(ownerKey, { signal });
    return after !== undefined && bytesEqual(after.value, ownerValue);
  }
}
