// Turns a mutation's draft into the exact bytes of the next root version, spilling the inline ack state into a new
// snapshot first when the spill policy asks for it (then the root carries the new reference and no inline items).
// Creates at most one snapshot object per call; it writes no metadata.
import { inlineItemCount } from "../ack-state/ack-queries.js";
import { ackViewOf } from "../ack-state/ack-view.js";
import { shouldSpill } from "../ack-state/spill-policy.js";
import { cursorStateCodec } from "../records/cursor-state-codec.js";
import { publishSnapshot } from "../snapshot/publish-snapshot.js";
import type { OwnerContext } from "../store/owner-context.js";
import type { CursorCounters } from "./cursor-counters.js";
import type { HydratedCursor } from "./hydrated-cursor.js";
import { type NextRoot, type RootDraft, nextRootOf } from "./root-draft.js";

/** A next root version with its encoded bytes. */
export interface PreparedRoot extends NextRoot {
  readonly value: Uint8Array;
}

export interface PrepareRootOptions {
  readonly signal?: AbortSignal;
  readonly counters: CursorCounters;
  /** Fresh snapshot ids (tests force collisions). */
  readonly newSnapshotId?: () => string;
}

/**
 * The next version of `current` that `draft` describes, ready for its CAS. Spills when the policy says so for the
 * inline item count or the encoded size (a root without inline items never spills: its size is its properties').
 */
export async function prepareRootWrite(
  owner: OwnerContext,
  current: HydratedCursor,
  draft: RootDraft,
  options: PrepareRootOptions,
): Promise<PreparedRoot> {
  const { env } = owner;
  const next = nextRootOf(current, draft, owner.ownerSessionId, env.now());
  const view = ackViewOf(next.root, next.base);
  if (inlineItemCount(view) === 0 || !shouldSpill(view, env.limits)) {
    const value = cursorStateCodec.encode(next.root);
    if (inlineItemCount(view) === 0 || !shouldSpill(view, env.limits, value.length)) return { ...next, value };
  }
  const { counters } = options;
  const published = await publishSnapshot(env, next.root, view, {
    signal: options.signal,
    newSnapshotId: options.newSnapshotId,
    onCreated: (sizeBytes) => {
      counters.snapshotsWritten += 1;
      counters.snapshotBytesWritten += sizeBytes;
    },
  });
  const root = {
    ...next.root,
    markDeleteOffset: published.base.baseMarkDeleteOffset,
    snapshot: published.reference,
    inlineRanges: [],
    inlinePartials: [],
  };
  return { root, base: published.base, value: cursorStateCodec.encode(root) };
}
