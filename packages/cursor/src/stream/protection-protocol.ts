// The protection protocol of a cursor transition that may need data below the protected floor (create, recreate,
// backward reset): ACTIVE → PROTECTION_PENDING(intent) with floor = min(floor, target) on the retention record,
// then a check that the stream is not trimmed above the target, then the cursor root CAS (the root records the
// attempt id), then → ACTIVE. The same driver completes an intent found pending later (this session after a
// failure, or the next owner at open): it applies the intent exactly when the root is still in the state the
// intent expects, and otherwise only ends the pending state, keeping the lowered floor (conservative).
import type { BatchBits } from "../ack-state/batch-bits.js";
import { newCursorRecord, recreatedCursorRecord, resetCursorRecord } from "../cursor/cursor-record-transforms.js";
import { type HydratedCursor, hydratedCursorOf } from "../cursor/hydrated-cursor.js";
import type { CursorStateRecord, ProtectionIntent } from "../domain/cursor-records.js";
import { cursorRootKey } from "../keys/cursor-keys.js";
import { cursorStateCodec } from "../records/cursor-state-codec.js";
import { ownedPut } from "./owned-put.js";
import type { RetentionRoot } from "./retention-root.js";
import { protectionFinishedRetention, protectionPendingRetention } from "./retention-transitions.js";

/** How a protected transition ended. The retention record is ACTIVE again in every case. */
export type ProtectionOutcome =
  /** The root carries the intent's attempt id (written now, or found written). */
  | { readonly kind: "applied"; readonly cursor: HydratedCursor }
  /** The stream is trimmed above the target: nothing was written to the root. */
  | { readonly kind: "trimmed"; readonly trimOffset: number }
  /** The root is not in the state the intent expects (another transition won): nothing was written to it. */
  | { readonly kind: "superseded" };

/**
 * Runs `intent` from an ACTIVE retention record (CURSOR_BUSY otherwise). `current` is the cursor's latest version
 * (undefined: no root), read under the caller's serialization of the cursor.
 */
export async function runProtection(
  root: RetentionRoot,
  intent: ProtectionIntent,
  current: HydratedCursor | undefined,
  signal: AbortSignal | undefined,
): Promise<ProtectionOutcome> {
  await root.write(protectionPendingRetention(root.current, intent, root.owner.env.now()), signal);
  return finishPendingProtection(root, current, signal);
}

/**
 * Completes the PROTECTION_PENDING intent of `root`. `current` is the intent's cursor as it is now (undefined: no
 * root). Applies the intent when the root is in the state it expects and the stream's trim is at most the target.
 */
export async function finishPendingProtection(
  root: RetentionRoot,
  current: HydratedCursor | undefined,
  signal: AbortSignal | undefined,
): Promise<ProtectionOutcome> {
  const intent = root.current.pendingProtection;
  if (intent === undefined) throw new TypeError("finishPendingProtection without a pending protection");
  const outcome = await applyIntent(root, intent, current, signal);
  await root.write(protectionFinishedRetention(root.current, root.owner.env.now()), signal);
  return outcome;
}

const SUPERSEDED: ProtectionOutcome = { kind: "superseded" };

async function applyIntent(
  root: RetentionRoot,
  intent: ProtectionIntent,
  current: HydratedCursor | undefined,
  signal: AbortSignal | undefined,
): Promise<ProtectionOutcome> {
  if (current !== undefined && carriesAttempt(current.root, intent)) return { kind: "applied", cursor: current };
  if (!expectsState(intent, current?.root)) return SUPERSEDED;
  const { env, streamId, ownerSessionId } = root.owner;
  const head = await env.streams.getHead(streamId, { signal });
  if (head.trimOffset > intent.targetMarkDeleteOffset) return { kind: "trimmed", trimOffset: head.trimOffset };
  const next = protectedRootOf(intent, current, streamId, ownerSessionId, env.now());
  const key = cursorRootKey(env.cluster, streamId, intent.cursorNameHash);
  const written = await ownedPut(root.owner, key, current?.modRevision ?? 0, cursorStateCodec.encode(next), signal);
  if (!written.ok) return SUPERSEDED;
  return { kind: "applied", cursor: hydratedCursorOf(next, written.modRevision) };
}

function carriesAttempt(record: CursorStateRecord, intent: ProtectionIntent): boolean {
  return record.lastProtectionAttemptId === intent.attemptId && record.cursorGeneration === intent.targetGeneration;
}

/** True when `record` is the state `intent` was decided from. */
function expectsState(intent: ProtectionIntent, record: CursorStateRecord | undefined): boolean {
  if (intent.kind === "CREATE") return record === undefined;
  if (record === undefined || record.cursorName !== intent.cursorName) return false;
  if (record.cursorGeneration !== intent.expectedGeneration) return false;
  return record.lifecycle === (intent.kind === "RECREATE" ? "DELETED" : "ACTIVE");
}

/** The root `intent` writes over `current` (which {@link expectsState} accepted). */
function protectedRootOf(
  intent: ProtectionIntent,
  current: HydratedCursor | undefined,
  streamId: string,
  ownerSessionId: string,
  now: number,
): CursorStateRecord {
  const partial: BatchBits | undefined = intent.targetPartial && {
    batchSize: intent.targetPartial.batchSize,
    remaining: intent.targetPartial.remaining,
  };
  if (current === undefined || intent.kind !== "BACKWARD_RESET") {
    const start = {
      ownerSessionId,
      markDeleteOffset: intent.targetMarkDeleteOffset,
      partial,
      cursorProperties: intent.initialProperties,
      attemptId: intent.attemptId,
      now,
    };
    return current === undefined
      ? newCursorRecord({ streamId, cursorName: intent.cursorName, cursorNameHash: intent.cursorNameHash }, start)
      : recreatedCursorRecord(current.root, start);
  }
  const reset = resetCursorRecord(
    current.root,
    current.view,
    intent.targetMarkDeleteOffset,
    partial,
    intent.attemptId,
    now,
  );
  return { ...reset, ownerSessionId };
}
