// Test fixture of the cursor handle: the stores a test passes in (in-memory ones with fault injection), a claimed
// owner record for one stream, and helpers that create cursor roots and open handles on them. Test-only.
import { randomBytes } from "node:crypto";
import { type MetadataStore, type ObjectStore, type StreamHead } from "@nereus/core";
import type { BatchBits } from "../../ack-state/batch-bits.js";
import { cursorNameHash, cursorOwnerKey, cursorRootKey } from "../../keys/cursor-keys.js";
import { cursorOwnerCodec } from "../../records/cursor-owner-codec.js";
import { cursorStateCodec } from "../../records/cursor-state-codec.js";
import { DEFAULT_CURSOR_LIMITS, type CursorLimits } from "../../store/cursor-store-options.js";
import { type CursorEnvironment, type OwnerContext, ownedTxn } from "../../store/owner-context.js";
import { CursorCounters } from "../cursor-counters.js";
import { CursorHandle } from "../cursor-handle.js";
import type { CursorHandleOptions } from "../mutation-options.js";
import { newCursorRecord } from "../cursor-record-transforms.js";
import { hydrateCursor } from "../hydrate-cursor.js";
import { type HydratedCursor, hydratedCursorOf } from "../hydrated-cursor.js";

export const CLUSTER = "test-cluster";
export const STREAM_ID = "stream-1";

export interface CursorFixture<M extends MetadataStore, O extends ObjectStore> {
  readonly metadata: M;
  readonly objects: O;
  readonly env: CursorEnvironment;
  readonly owner: OwnerContext;
  readonly counters: CursorCounters;
  /** Writes a new ACTIVE root for `name` starting at `markDeleteOffset`. */
  createCursor(name: string, markDeleteOffset?: number, partial?: BatchBits): Promise<HydratedCursor>;
  /** Hydrates `name` and opens a handle on it (as `owner`, default the fixture's). */
  openHandle(name: string, options?: CursorHandleOptions & { readonly owner?: OwnerContext }): Promise<CursorHandle>;
  /** Another session claims the stream (the owner record is rewritten); returns the new owner. */
  claimByAnotherSession(): Promise<OwnerContext>;
  /** The root of `name` as stored. */
  storedRoot(name: string): Promise<HydratedCursor>;
}

/** Committed end of the fixture's stream: acks must name offsets below it. */
export const FIXTURE_COMMITTED_END = 2 ** 40;

/** The head of the fixture's stream: ACTIVE, nothing trimmed, {@link FIXTURE_COMMITTED_END} entries committed. */
function fixtureHead(): StreamHead {
  return {
    streamId: STREAM_ID,
    streamName: STREAM_ID,
    state: "ACTIVE",
    profile: "OBJECT_WAL_SYNC_OBJECT",
    attributes: {},
    createdAtMillis: 0,
    committedEndOffset: FIXTURE_COMMITTED_END,
    cumulativeSize: FIXTURE_COMMITTED_END,
    commitVersion: 1,
    trimOffset: 0,
    lastCommitId: "fixture",
    session: undefined,
  };
}

function newSessionId(): string {
  return randomBytes(16).toString("hex");
}

/** A fixture over empty `stores`: the owner record of STREAM_ID claimed by a new session. */
export async function cursorFixture<M extends MetadataStore, O extends ObjectStore>(
  stores: { readonly metadata: M; readonly objects: O },
  limits: Partial<CursorLimits> = {},
): Promise<CursorFixture<M, O>> {
  const { metadata, objects } = stores;
  let clock = 1_000_000;
  const env: CursorEnvironment = {
    metadata,
    objects,
    streams: {
      getHead: () => Promise.resolve(fixtureHead()),
      trim: () => Promise.resolve(fixtureHead()),
    },
    cluster: CLUSTER,
    limits: { ...DEFAULT_CURSOR_LIMITS, ...limits },
    now: () => (clock += 1),
  };
  const ownerKey = cursorOwnerKey(CLUSTER, STREAM_ID);
  let claimSequence = 0;
  const claim = async (): Promise<OwnerContext> => {
    claimSequence += 1;
    const ownerSessionId = newSessionId();
    const ownerValue = cursorOwnerCodec.encode({
      streamId: STREAM_ID,
      ownerSessionId,
      claimSequence,
      claimedAtMillis: env.now(),
    });
    await metadata.txn({ compares: [], writes: [{ type: "put", key: ownerKey, value: ownerValue }] });
    return { env, streamId: STREAM_ID, ownerSessionId, ownerKey, ownerValue };
  };
  const owner = await claim();
  const counters = new CursorCounters();
  return {
    metadata,
    objects,
    env,
    owner,
    counters,
    async createCursor(name, markDeleteOffset = 0, partial) {
      const hash = cursorNameHash(name);
      const root = newCursorRecord(
        { streamId: STREAM_ID, cursorName: name, cursorNameHash: hash },
        { ownerSessionId: owner.ownerSessionId, markDeleteOffset, partial, attemptId: "", now: env.now() },
      );
      const key = cursorRootKey(CLUSTER, STREAM_ID, hash);
      const result = await ownedTxn(owner, {
        compares: [{ key, modRevision: 0 }],
        writes: [{ type: "put", key, value: cursorStateCodec.encode(root) }],
      });
      if (!result.succeeded) throw new Error(`cursor ${name} exists`);
      return hydratedCursorOf(root, result.revision);
    },
    async openHandle(name, options = {}) {
      const handleOwner = options.owner ?? owner;
      const hydrated = await hydrateCursor(handleOwner, cursorNameHash(name));
      return new CursorHandle(handleOwner, hydrated, { counters, ...options });
    },
    claimByAnotherSession: claim,
    storedRoot(name) {
      return hydrateCursor(owner, cursorNameHash(name));
    },
  };
}
