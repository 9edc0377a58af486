// The writable open of one stream's cursors: check the stream, claim the owner record (fencing every older
// session), create or claim the retention record, complete any transition it holds pending, load every cursor
// from a stable scan, and read the retention record back to prove the claim still stands.
import { ErrorCode, NereusError, type StreamHead } from "@nereus/core";
import type { CursorCounters } from "../cursor/cursor-counters.js";
import type { CursorEnvironment } from "../store/owner-context.js";
import { claimStreamOwner } from "./claim-owner.js";
import { claimRetention } from "./claim-retention.js";
import { loadCursorIfPresent, loadStreamCursors } from "./load-stream-cursors.js";
import { finishPendingProtection } from "./protection-protocol.js";
import type { RetentionRoot } from "./retention-root.js";
import { StreamCursors } from "./stream-cursors.js";
import { finishPendingTrim } from "./trim-protocol.js";

/**
 * Opens `streamId` for cursor writes. Fails STREAM_NOT_FOUND / STREAM_NOT_ACTIVE (the stream must be ACTIVE or
 * SEALED), METADATA_INVARIANT_VIOLATION for stored state that breaks the retention invariant, CURSOR_FENCED when
 * another open claimed the stream meanwhile, and transient store errors unchanged (retryable).
 */
export async function openStreamCursors(
  env: CursorEnvironment,
  streamId: string,
  counters: CursorCounters,
  signal: AbortSignal,
): Promise<StreamCursors> {
  checkWritable(await env.streams.getHead(streamId, { signal }));
  const owner = await claimStreamOwner(env, streamId, signal);
  const root = await claimRetention(owner, checkWritable(await env.streams.getHead(streamId, { signal })), signal);
  await finishPendingAtOpen(root, signal);
  const head = await env.streams.getHead(streamId, { signal });
  const cursors = await loadStreamCursors(owner, root.current, head, signal);
  await root.sync(signal, true);
  return new StreamCursors(root, cursors, counters);
}

async function finishPendingAtOpen(root: RetentionRoot, signal: AbortSignal): Promise<void> {
  const { lifecycle, pendingProtection } = root.current;
  if (lifecycle === "TRIM_PENDING") await finishPendingTrim(root, signal);
  if (pendingProtection === undefined) return;
  const current = await loadCursorIfPresent(root.owner, pendingProtection.cursorNameHash, signal);
  await finishPendingProtection(root, current, signal);
}

function checkWritable(head: StreamHead): StreamHead {
  if (head.state === "ACTIVE" || head.state === "SEALED") return head;
  throw new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `stream ${head.streamId} is ${head.state}`, { retryable: false });
}
