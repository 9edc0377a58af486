// The retention step of a writable open, right after the owner claim: the stream's retention record is created
// (bootstrap: a stream without cursors) or claimed for the new session, after checking it against the stream's
// head. Stored state that breaks the retention invariant fails the open; nothing is repaired by guessing.
import { ErrorCode, NereusError, type StreamHead } from "@nereus/core";
import type { CursorRetentionRecord } from "../domain/cursor-records.js";
import { cursorRetentionKey } from "../keys/cursor-keys.js";
import { cursorRetentionCodec } from "../records/cursor-retention-codec.js";
import type { OwnerContext } from "../store/owner-context.js";
import { decodeVersioned, ownedPut, readOwnedKey } from "./owned-put.js";
import { RetentionRoot } from "./retention-root.js";
import { bootstrapRetention, claimedRetention } from "./retention-transitions.js";
import { hasCursorRoots } from "./scan-cursor-roots.js";

/**
 * Creates or claims the retention record of `owner`'s stream. `head` must be read after the owner claim. Bootstrap:
 * no record and no cursor roots ⇒ ACTIVE with floor = last completed trim = the head's trim. Cursor roots without
 * a record, or a record that disagrees with the head (see {@link checkRetentionAgainstHead}), fail with
 * METADATA_INVARIANT_VIOLATION.
 */
export async function claimRetention(
  owner: OwnerContext,
  head: StreamHead,
  signal: AbortSignal | undefined,
): Promise<RetentionRoot> {
  const { env, streamId, ownerSessionId } = owner;
  const key = cursorRetentionKey(env.cluster, streamId);
  const stored = await readOwnedKey(owner, key, signal);
  if (stored === undefined) {
    if (await hasCursorRoots(env, streamId, signal)) {
      throw violation(streamId, "has cursor roots but no retention record");
    }
    return writeClaim(owner, key, 0, bootstrapRetention(streamId, ownerSessionId, head.trimOffset, env.now()), signal);
  }
  const current = decodeVersioned(cursorRetentionCodec, stored);
  checkRetentionAgainstHead(current.record, head);
  return writeClaim(
    owner,
    key,
    current.modRevision,
    claimedRetention(current.record, ownerSessionId, env.now()),
    signal,
  );
}

/**
 * Throws METADATA_INVARIANT_VIOLATION unless `lastCompletedTrim <= floor` and the head's trim equals the last
 * completed trim — or the record is TRIM_PENDING and the head's trim is exactly the pending offset.
 */
function checkRetentionAgainstHead(record: CursorRetentionRecord, head: StreamHead): void {
  if (record.lastCompletedTrimOffset > record.protectedFloorOffset) {
    throw violation(
      record.streamId,
      `has last completed trim ${String(record.lastCompletedTrimOffset)} above its floor ${String(record.protectedFloorOffset)}`,
    );
  }
  if (head.trimOffset === record.lastCompletedTrimOffset) return;
  if (record.lifecycle === "TRIM_PENDING" && record.pendingTrim?.offset === head.trimOffset) return;
  throw violation(
    record.streamId,
    `records last completed trim ${String(record.lastCompletedTrimOffset)} but the stream is trimmed to ` +
      `${String(head.trimOffset)}`,
  );
}

async function writeClaim(
  owner: OwnerContext,
  key: string,
  expectedRevision: number,
  record: CursorRetentionRecord,
  signal: AbortSignal | undefined,
): Promise<RetentionRoot> {
  const outcome = await ownedPut(owner, key, expectedRevision, cursorRetentionCodec.encode(record), signal);
  if (!outcome.ok) throw violation(owner.streamId, "changed while the new owner claimed it");
  return new RetentionRoot(owner, { record, modRevision: outcome.modRevision });
}

function violation(streamId: string, problem: string): NereusError {
  return new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, `stream ${streamId} ${problem}`, {
    retryable: false,
  });
}
