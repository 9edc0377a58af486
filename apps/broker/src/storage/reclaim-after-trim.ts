// Runs the storage collector of a stream as soon as its head moves back: right after a trim (Kafka retention,
// DeleteRecords, a Pulsar trim) or a delete (DeleteTopics) through the broker's stream store. The background passes
// only visit the streams registered for materialization (on the embedded store's default, only
// OBJECT_WAL_ASYNC_OBJECT topics), so for the others these runs are what collects them. A run releases what the new
// head no longer needs and marks the objects nothing else needs once they are old enough; while a run changes
// anything, another follows once every object it released can be marked and every mark's grace period is over, so a
// trimmed stream's objects are deleted within about two such periods.
import type { StreamHead, StreamStore } from "@nereus/core";
import type { ReclamationRunReport, StreamReclaimer } from "@nereus/object-wal";

/** Extra wait after the grace period and the clock skew before the follow-up run. */
const FOLLOW_UP_MARGIN_MS = 500;

export interface ReclaimAfterTrimOptions {
  /** Wait between a run that left objects pending and the next run of that stream. */
  readonly followUpMs: number;
}

/** A stream store whose trims and deletes start collection runs; `stop()` cancels the follow-ups. */
export interface ReclaimingStreamStore {
  readonly store: StreamStore;
  stop(): void;
}

/**
 * The follow-up wait for `reclaimer`'s policy: the longer of the grace period and the minimum object age, plus the
 * clock skew and a margin (by then a released object can be marked, and a marked one deleted).
 */
export function followUpDelayMs(reclaimer: Pick<StreamReclaimer, "policy">): number {
  const { graceMs, minObjectAgeMs, clockSkewMs } = reclaimer.policy;
  return Math.max(graceMs, minObjectAgeMs) + clockSkewMs + FOLLOW_UP_MARGIN_MS;
}

/** Whether the Object WAL collector looks after `head`'s stream (BookKeeper ledgers are not collected). */
function objectWalStream(head: StreamHead): boolean {
  return head.profile === "OBJECT_WAL_SYNC_OBJECT" || head.profile === "OBJECT_WAL_ASYNC_OBJECT";
}

/** Whether a run changed anything or left objects pending (then the stream may have more to do later). */
function changedSomething(report: ReclamationRunReport): boolean {
  return (
    report.error !== undefined ||
    report.pendingObjects > 0 ||
    report.targetsReleased > 0 ||
    report.metadataRecordsDeleted > 0 ||
    report.objectsDeleted > 0
  );
}

/**
 * Wraps `store` so that every successful `trim` and `delete` of an Object WAL stream runs `reclaimer` on it (without waiting for
 * it: the trim's caller gets its answer first). Runs never throw (failures are in their reports, logged by the
 * reclaimer). A trim while a run of its stream is in flight runs the stream again once that run ends. Invariants: at
 * most one run started here and one follow-up timer per stream; none after `stop()`.
 */
export function reclaimAfterTrim(
  store: StreamStore,
  reclaimer: Pick<StreamReclaimer, "runStream">,
  options: ReclaimAfterTrimOptions,
): ReclaimingStreamStore {
  const followUps = new Map<string, NodeJS.Timeout>();
  /** Streams with a run in flight → whether their head moved again meanwhile (that run may not have seen it). */
  const running = new Map<string, boolean>();
  let stopped = false;
  const run = (streamId: string): void => {
    if (stopped) return;
    if (running.has(streamId)) {
      running.set(streamId, true);
      return;
    }
    running.set(streamId, false);
    void reclaimer.runStream(streamId).then((report) => {
      const movedAgain = running.get(streamId) === true;
      running.delete(streamId);
      if (movedAgain) run(streamId);
      else scheduleFollowUp(streamId, report);
    });
  };
  const scheduleFollowUp = (streamId: string, report: ReclamationRunReport): void => {
    if (stopped || !changedSomething(report) || followUps.has(streamId)) return;
    const timer = setTimeout(() => {
      followUps.delete(streamId);
      run(streamId);
    }, options.followUpMs);
    timer.unref();
    followUps.set(streamId, timer);
  };
  const trim: StreamStore["trim"] = async (streamId, ...rest) => {
    const head = await store.trim(streamId, ...rest);
    if (objectWalStream(head)) run(streamId);
    return head;
  };
  const remove: StreamStore["delete"] = async (streamId, ...rest) => {
    const head = await store.delete(streamId, ...rest);
    if (objectWalStream(head)) run(streamId);
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
