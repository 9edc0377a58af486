// Runs the storage collector of a stream as soon as its head moves back: right after a trim (Kafka retention,
// DeleteRecords, a Pulsar trim) or a delete (DeleteTopics) through the broker's stream store, instead of waiting for
// the next background pass. That run releases what the new head no longer needs and marks the objects nothing else
// needs; while a run leaves objects marked or being deleted, another one follows once their grace period is over, so
// they are deleted within about one grace period of the trim. Objects too young to be marked at the time are left to
// the background passes.
import type { StreamStore } from "@nereus/core";
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

/** The follow-up wait for `reclaimer`'s policy: its grace period and clock skew, plus a margin. */
export function followUpDelayMs(reclaimer: Pick<StreamReclaimer, "policy">): number {
  return reclaimer.policy.graceMs + reclaimer.policy.clockSkewMs + FOLLOW_UP_MARGIN_MS;
}

/**
 * Wraps `store` so that every successful `trim` and `delete` runs `reclaimer` on that stream (without waiting for
 * it: the trim's caller gets its answer first). Runs never throw (failures are in their reports, logged by the
 * reclaimer). Invariant: at most one follow-up timer per stream; none after `stop()`.
 */
export function reclaimAfterTrim(
  store: StreamStore,
  reclaimer: Pick<StreamReclaimer, "runStream">,
  options: ReclaimAfterTrimOptions,
): ReclaimingStreamStore {
  const followUps = new Map<string, NodeJS.Timeout>();
  let stopped = false;
  const run = (streamId: string): void => {
    if (stopped) return;
    void reclaimer.runStream(streamId).then((report) => scheduleFollowUp(streamId, report));
  };
  const scheduleFollowUp = (streamId: string, report: ReclamationRunReport): void => {
    if (stopped || report.pendingObjects === 0 || followUps.has(streamId)) return;
    const timer = setTimeout(() => {
      followUps.delete(streamId);
      run(streamId);
    }, options.followUpMs);
    timer.unref();
    followUps.set(streamId, timer);
  };
  const trim: StreamStore["trim"] = async (streamId, ...rest) => {
    const head = await store.trim(streamId, ...rest);
    run(streamId);
    return head;
  };
  const remove: StreamStore["delete"] = async (streamId, ...rest) => {
    const head = await store.delete(streamId, ...rest);
    run(streamId);
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
