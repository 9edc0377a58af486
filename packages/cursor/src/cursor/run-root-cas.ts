// The CAS loop of one cursor mutation (or one group commit): decide from the latest known root what to write, write
// it with a compare on the root's modRevision inside an owner-fenced transaction, and on a lost compare reload and
// decide again. A lost response (MetadataAmbiguousError) is resolved by reloading: the root then holds exactly the
// bytes that were sent (it applied) or not. Bounded by `limits.maxCasAttempts` and the operation's deadline.
// CURSOR_FENCED and non-retryable errors end the loop at once; retryable store errors that provably applied
// nothing are retried after a short backoff.
import { setTimeout as sleep } from "node:timers/promises";
import { ErrorCode, MetadataAmbiguousError, NereusError } from "@nereus/core";
import { bytesEqual } from "@nereus/core/internal";
import { cursorRootKey } from "../keys/cursor-keys.js";
import { type OwnerContext, ownedTxn } from "../store/owner-context.js";
import type { CursorCounters } from "./cursor-counters.js";
import { type HydratedVersion, type KnownSnapshotBase, hydrateCursorVersion } from "./hydrate-cursor.js";
import { type HydratedCursor, hydratedCursorOf } from "./hydrated-cursor.js";
import type { OperationDeadline } from "./operation-deadline.js";
import { type PreparedRoot, prepareRootWrite } from "./prepare-root-write.js";
import type { RootDraft } from "./root-draft.js";

/** What a step decided: nothing to write (the result stands), or a draft to write (the result holds once written). */
export type CasDecision<R> =
  | { readonly write: false; readonly result: R }
  | { readonly write: true; readonly draft: RootDraft; readonly result: R };

/**
 * Decides from `state` (the latest known version) what to write. `retry` is false on the first call and true after
 * a lost compare or an unresolved write. Pure apart from throwing: a throw ends the operation with that error.
 */
export type CasStep<R> = (state: HydratedCursor, retry: boolean) => CasDecision<R>;

/** What the loop needs from the cursor it writes. */
export interface CasHost {
  readonly owner: OwnerContext;
  readonly cursorNameHash: string;
  readonly counters: CursorCounters;
  /** Fresh snapshot ids (tests force collisions); default random. */
  readonly newSnapshotId?: () => string;
  /** Every version the loop learns (written or reloaded) in order; the host keeps the latest. */
  adopt(state: HydratedCursor): void;
  /** The outcome of a write could not be resolved: the next operation must reload before deciding. */
  markStale(): void;
}

/** A write whose response was lost: it applied exactly when the root holds `value` (now or, on etcd, later). */
interface UnresolvedWrite<R> {
  readonly value: Uint8Array;
  readonly result: R;
  readonly known: KnownSnapshotBase | undefined;
}

const MAX_BACKOFF_MS = 200;

/**
 * Runs `step` against `start` (undefined: reload first) until a decision needs no write or its write committed;
 * returns that decision's result. A root found holding the exact bytes of one of this operation's unresolved
 * writes is that write having applied: its result is returned. Throws what `step` throws, CURSOR_FENCED, the
 * deadline's TIMEOUT/CANCELLED, or METADATA_CONDITION_FAILED (retryable) once `maxCasAttempts` attempts were spent.
 */
export async function runRootCas<R>(
  host: CasHost,
  start: HydratedCursor | undefined,
  deadline: OperationDeadline,
  what: string,
  step: CasStep<R>,
): Promise<R> {
  const { owner, counters } = host;
  const key = cursorRootKey(owner.env.cluster, owner.streamId, host.cursorNameHash);
  let state = start;
  const unresolved: UnresolvedWrite<R>[] = [];
  const knownBases = (): KnownSnapshotBase[] =>
    unresolved.map((write) => write.known).filter((known): known is KnownSnapshotBase => known !== undefined);
  let lastError: unknown;
  const maxAttempts = owner.env.limits.maxCasAttempts;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (deadline.expired()) throw deadline.error(what, lastError);
    const signal = deadline.signal();
    try {
      if (state === undefined) {
        const reloaded = await hydrateCursorVersion(owner, host.cursorNameHash, undefined, {
          signal,
          knownBases: knownBases(),
        });
        host.adopt(reloaded.cursor);
        const applied = unresolved.find((write) => bytesEqual(reloaded.value, write.value));
        if (applied !== undefined) return applied.result;
        state = reloaded.cursor;
      }
      const decision = step(state, attempt > 1);
      if (!decision.write) return decision.result;
      const prepared = await prepareRootWrite(owner, state, decision.draft, {
        signal,
        counters,
        newSnapshotId: host.newSnapshotId,
      });
      const outcome = await casOnce(host, key, state, prepared, [...knownBases(), knownBaseOf(prepared)], signal);
      if (outcome.kind === "written") {
        host.adopt(outcome.state);
        return decision.result;
      }
      if (outcome.kind === "lost") {
        host.adopt(outcome.latest.cursor);
        const applied = unresolved.find((write) => bytesEqual(outcome.latest.value, write.value));
        if (applied !== undefined) return applied.result;
        state = outcome.latest.cursor;
      } else {
        host.markStale();
        unresolved.push({ value: prepared.value, result: decision.result, known: knownBaseOf(prepared) });
        state = undefined;
      }
    } catch (error) {
      if (deadline.expired()) throw deadline.error(what, error);
      if (!isRetryableStoreError(error)) throw error;
      lastError = error;
      await backoff(attempt, deadline);
    }
  }
  if (unresolved.length > 0 || state === undefined) host.markStale();
  throw new NereusError(
    ErrorCode.METADATA_CONDITION_FAILED,
    `${what}: gave up after ${String(maxAttempts)} attempts on cursor ${host.cursorNameHash}`,
    { retryable: true, cause: lastError },
  );
}

type CasOutcome =
  | { readonly kind: "written"; readonly state: HydratedCursor }
  | { readonly kind: "lost"; readonly latest: HydratedVersion }
  | { readonly kind: "ambiguous" };

/** One root transaction: written, lost to another version (returned hydrated), or of unknown outcome. */
async function casOnce(
  host: CasHost,
  key: string,
  state: HydratedCursor,
  prepared: PreparedRoot,
  known: readonly (KnownSnapshotBase | undefined)[],
  signal: AbortSignal,
): Promise<CasOutcome> {
  const { owner, counters } = host;
  counters.casAttempts += 1;
  let result;
  try {
    result = await ownedTxn(
      owner,
      {
        compares: [{ key, modRevision: state.modRevision }],
        writes: [{ type: "put", key, value: prepared.value }],
        readOnFailure: [key],
      },
      { signal },
    );
  } catch (error) {
    if (!MetadataAmbiguousError.isAmbiguous(error)) throw error;
    counters.ambiguousWrites += 1;
    return { kind: "ambiguous" };
  }
  if (result.succeeded) {
    counters.casCommits += 1;
    return { kind: "written", state: hydratedCursorOf(prepared.root, result.revision, prepared.base) };
  }
  counters.casConflicts += 1;
  const current = result.current.get(key) ?? null;
  const knownBases = [...known, knownBaseOf(state)].filter((entry): entry is KnownSnapshotBase => entry !== undefined);
  const latest = await hydrateCursorVersion(owner, host.cursorNameHash, current, { signal, knownBases });
  return { kind: "lost", latest };
}

function knownBaseOf(state: Pick<HydratedCursor, "root" | "base">): KnownSnapshotBase | undefined {
  const reference = state.root.snapshot;
  return reference === undefined ? undefined : { reference, base: state.base };
}

/** Errors after which the same attempt may simply be tried again: retryable, and not of unknown outcome. */
function isRetryableStoreError(error: unknown): boolean {
  if (!NereusError.is(error) || !error.retryable) return false;
  if (MetadataAmbiguousError.isAmbiguous(error)) return false;
  return error.code !== ErrorCode.TIMEOUT && error.code !== ErrorCode.CANCELLED;
}

async function backoff(attempt: number, deadline: OperationDeadline): Promise<void> {
  const delay = Math.min(MAX_BACKOFF_MS, 2 ** attempt, deadline.remainingMs());
  if (delay > 0) await sleep(delay);
}
