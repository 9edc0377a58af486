// Hydration of one cursor: read the root, read and strictly decode the snapshot it references, read the root again.
// The pair is accepted only when the second read still references the same snapshot; otherwise it starts over
// (bounded). A referenced snapshot that is missing, or corrupt on two reads, at a root that did not move fails with
// METADATA_INVARIANT_VIOLATION: there is no fallback to an older snapshot. Transient read errors propagate
// unchanged (retryable). Reads only; never writes.
import { ErrorCode, type KeyValue, NereusError } from "@nereus/core";
import type { AckBase } from "../ack-state/ack-base.js";
import type { SnapshotReference } from "../domain/cursor-records.js";
import { cursorRootKey } from "../keys/cursor-keys.js";
import { cursorStateCodec } from "../records/cursor-state-codec.js";
import { readSnapshot, sameSnapshotReference } from "../snapshot/read-snapshot.js";
import type { OwnerContext } from "../store/owner-context.js";
import { type HydratedCursor, hydratedCursorOf } from "./hydrated-cursor.js";

/** A base already decoded for `reference` (the snapshot objects are immutable, so it never goes stale). */
export interface KnownSnapshotBase {
  readonly reference: SnapshotReference;
  readonly base: AckBase;
}

export interface HydrateCursorOptions {
  readonly signal?: AbortSignal;
  /** Bases to reuse when the root references exactly one of them (no object read then). */
  readonly knownBases?: readonly KnownSnapshotBase[];
  /** Root reads that may find the root moved under a snapshot read before hydration fails (default 8). */
  readonly maxAttempts?: number;
}

/** A hydrated cursor with the exact bytes of its root (what a write is compared with to resolve ambiguity). */
export interface HydratedVersion {
  readonly cursor: HydratedCursor;
  readonly value: Uint8Array;
}

const DEFAULT_MAX_ATTEMPTS = 8;

/**
 * The current state of the cursor `cursorNameHash` of `owner`'s stream, DELETED tombstones included.
 * Throws CURSOR_NOT_FOUND when no root exists, METADATA_INVARIANT_VIOLATION for a corrupt root or a missing or
 * corrupt referenced snapshot, METADATA_CONDITION_FAILED (retryable) when the root kept moving, and transient store
 * errors unchanged.
 */
export async function hydrateCursor(
  owner: OwnerContext,
  cursorNameHash: string,
  options: HydrateCursorOptions = {},
): Promise<HydratedCursor> {
  return (await hydrateCursorVersion(owner, cursorNameHash, undefined, options)).cursor;
}

/**
 * Like {@link hydrateCursor}, with the root's bytes; starts from `firstRead` when the caller already read the root
 * (`null`: read as absent).
 */
export async function hydrateCursorVersion(
  owner: OwnerContext,
  cursorNameHash: string,
  firstRead: KeyValue | null | undefined,
  options: HydrateCursorOptions = {},
): Promise<HydratedVersion> {
  const key = cursorRootKey(owner.env.cluster, owner.streamId, cursorNameHash);
  const signal = options.signal;
  const read = async (): Promise<KeyValue | undefined> => owner.env.metadata.get(key, { signal });
  let known = options.knownBases ?? [];
  let current = firstRead === undefined ? await read() : (firstRead ?? undefined);
  let corruptReads = 0;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (current === undefined) throw notFound(owner, cursorNameHash);
    const root = cursorStateCodec.decode(current.value, key);
    const reference = root.snapshot;
    const reused = known.find((entry) => sameSnapshotReference(entry.reference, reference));
    if (reference === undefined || reused !== undefined) {
      return { cursor: hydratedCursorOf(root, current.modRevision, reused?.base), value: current.value };
    }
    const snapshot = await readSnapshot(owner.env, root, reference, { signal });
    const again = await read();
    if (again?.modRevision === current.modRevision) {
      if (snapshot.kind === "read")
        return { cursor: hydratedCursorOf(root, current.modRevision, snapshot.base), value: current.value };
      corruptReads = snapshot.kind === "corrupt" ? corruptReads + 1 : Number.POSITIVE_INFINITY;
      if (corruptReads >= 2) throw snapshot.error;
      continue;
    }
    corruptReads = 0;
    if (snapshot.kind === "read") known = [{ reference, base: snapshot.base }, ...known];
    current = again;
  }
  throw new NereusError(
    ErrorCode.METADATA_CONDITION_FAILED,
    `cursor ${cursorNameHash} of stream ${owner.streamId}: the root kept changing during ${String(maxAttempts)} hydration attempts`,
    { retryable: true },
  );
}

function notFound(owner: OwnerContext, cursorNameHash: string): NereusError {
  return new NereusError(
    ErrorCode.CURSOR_NOT_FOUND,
    `cursor ${cursorNameHash} of stream ${owner.streamId} does not exist`,
    { retryable: false },
  );
}
