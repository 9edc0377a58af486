// Runs the storage collectors of a stream as soon as its head moves back: right after a trim (Kafka retention,
// DeleteRecords, a Pulsar trim) or a delete (DeleteTopics) through the broker's stream store. The background passes
// only visit the streams registered for materialization (on the embedded store's default, only
// OBJECT_WAL_ASYNC_OBJECT topics) and the ledger sweeps, so for the others these runs are what collects them. Which
// collectors a stream gets depends on its profile (collection-route.ts): the Object WAL collector for objects and
// generations, the BookKeeper ledger collector for ledgers, both for the BookKeeper object profiles. A run releases
// what the new head no longer needs and marks what nothing else needs once it is old enough; while a run changes
// anything, another follows once every thing it released can be marked and every mark's grace period is over, so a
// trimmed stream's objects and ledgers are deleted within about two such periods.
import type { StreamHead, StreamStore } from "@nereus/core";

/** Extra wait after the grace period and the clock skew before the follow-up run. */
const FOLLOW_UP_MARGIN_MS = 500;

/** One collector's run of one stream, reduced to whether it changed anything or left something pending. */
export type StreamCollection = (streamId: string) => Promise<boolean>;

/** The collections a trim or delete of `head`'s stream starts (none for a stream no collector here looks after). */
export type CollectionRoute = (head: StreamHead) => readonly StreamCollection[];

export interface ReclaimAfterTrimOptions {
  /** Wait between a run that changed something and the next run of that stream. */
  readonly followUpMs: number;
}

/** A stream store whose trims and deletes start collection runs; `stop()` cancels the follow-ups. */
export interface ReclaimingStreamStore {
  readonly store: StreamStore;
  stop(): void;
}

/** The time bounds of a collector that decide when a follow-up run can make progress. */
interface CollectorTimes {
  readonly policy: {
    readonly graceMs: number;
    readonly clockSkewMs: number;
    readonly minObjectAgeMs?: number;
    readonly minLedgerAgeMs?: number;
  };
}

/**
 * The follow-up wait for `collectors`' policies: the longest grace period or minimum age, plus the clock skew and a
 * margin (by then a released thing can be marked, and a marked one deleted).
 */
export function followUpDelayMs(...collectors: readonly CollectorTimes[]): number {
  let longest = 0;
  for (const { policy } of collectors) {
    const age = Math.max(policy.minObjectAgeMs ?? 0, policy.minLedgerAgeMs ?? 0);
    longest = Math.max(longest, Math.max(policy.graceMs, age) + policy.clockSkewMs);
  }
  return longest + FOLLOW_UP_MARGIN_MS;
}

/**
 * Wraps `store` so that every successful `trim` and `delete` runs the collections `route` names for the stream
 * (without waiting for them: the trim's caller gets its answer first). Collections never throw (failures are in
 * their reports, logged by the collectors). A trim while a run of its stream is in flight runs the stream again once
 * that run ends. Invariants: at most one run started here and one follow-up timer per stream; none after `stop()`.
 */
export function reclaimAfterTrim(
  store: StreamStore,
  route: CollectionRoute,
  options: ReclaimAfterTrimOptions,
): ReclaimingStreamStore {
  const followUps = new Map<string, NodeJS.Timeout>();
  /** Streams with a run in flight → whether their head moved again meanwhile (that run may not have seen it). */
  const running = new Map<string, boolean>();
  /** The collections of each stream seen here (the follow-ups run them again). */
  const routes = new Map<string, readonly StreamCollection[]>();
  let stopped = false;
  const runAll = async (streamId: string): Promise<boolean> => {
    let changed = false;
    for (const collection of routes.get(streamId) ?? []) changed = (await collection(streamId)) || changed;
    return changed;
  };
  const run = (streamId: string): void => {
    if (stopped) return;
    if (running.has(streamId)) {
      running.set(streamId, true);
      return;
    }
    running.set(streamId, false);
    void runAll(streamId).then((changed) => {
      const movedAgain = running.get(streamId) === true;
      running.delete(streamId);
      if (movedAgain) run(streamId);
      else if (changed) scheduleFollowUp(streamId);
      else routes.delete(streamId);
    });
  };
  const scheduleFollowUp = (streamId: string): void => {
    if (stopped || followUps.has(streamId)) return;
    const timer = setTimeout(() => {
      followUps.delete(streamId);
      run(streamId);
    }, options.followUpMs);
    timer.unref();
    followUps.set(streamId, timer);
  };
  const collect = (streamId: string, head: StreamHead): void => {
    const collections = route(head);
    if (collections.length === 0) return;
    routes.set(streamId, collections);
    run(streamId);
  };
  const trim: StreamStore["trim"] = async (streamId, ...rest) => {
    const head = await store.trim(streamId, ...rest);
    collect(streamId, head);
    return head;
  };
  const remove: StreamStore["delete"] = async (streamId, ...rest) => {
    const head = await store.delete(streamId, ...rest);
    collect(streamId, head);
    return head;
  };
  const wrapped = new Proxy(store, {
    get(target, property) {
      if (property === "trim") return trim;
      if (property === "delete") return remove;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...parameters: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    store: wrapped,
    stop: () => {
      stopped = true;
      for (const timer of followUps.values()) clearTimeout(timer);
      followUps.clear();
    },
  };
}
