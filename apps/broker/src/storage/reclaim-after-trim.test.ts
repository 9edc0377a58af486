// reclaimAfterTrim: a trim or delete through the wrapped store runs the collector on that stream after the call
// answered; runs follow while a run changes something and stop at the first run that finds nothing; a trim while a
// run is in flight runs the stream once more; stop() cancels what is scheduled; other members pass through.
import type { StreamHead, StreamStore } from "@nereus/core";
import type { LedgerReclamationRunReport } from "@nereus/bookkeeper";
import type { ReclamationRunReport } from "@nereus/object-wal";
import { describe, expect, test } from "vitest";
import { followUpDelayMs, reclaimAfterTrim } from "./reclaim-after-trim.js";
import { collectionRoute } from "./reclaim-routes.js";

const head = { streamId: "s-1", profile: "OBJECT_WAL_SYNC_OBJECT" } as unknown as StreamHead;
const bookKeeperHead = { streamId: "s-4", profile: "BOOKKEEPER_WAL_ONLY" } as unknown as StreamHead;

function report(streamId: string, changes: Partial<ReclamationRunReport> = {}): ReclamationRunReport {
  return {
    streamId,
    floor: 0,
    commitsTrimmed: 0,
    commitsRetired: 0,
    generationsReleased: 0,
    targetsReleased: 0,
    metadataRecordsDeleted: 0,
    objectsDeleted: 0,
    bytesFreed: 0,
    pendingObjects: 0,
    durationMs: 0,
    ...changes,
  };
}

/** A collector whose runs answer the queued reports in order (then "nothing to do"), each after `gate` opens. */
class ScriptedReclaimer {
  readonly runs: string[] = [];
  readonly #reports: ReclamationRunReport[];
  gate: Promise<void> = Promise.resolve();

  constructor(reports: ReclamationRunReport[]) {
    this.#reports = reports;
  }

  async runStream(streamId: string): Promise<ReclamationRunReport> {
    this.runs.push(streamId);
    await this.gate;
    return this.#reports.shift() ?? report(streamId);
  }
}

/** The route of a broker without BookKeeper. */
function objectsOnly(reclaimer: ScriptedReclaimer) {
  return collectionRoute({ objects: reclaimer, ledgers: undefined });
}

/** A ledger collector whose runs find nothing to do. */
class QuietLedgers {
  readonly runs: string[] = [];

  async runStream(streamId: string): Promise<LedgerReclamationRunReport> {
    this.runs.push(streamId);
    return {
      streamId,
      floor: 0,
      commitsTrimmed: 0,
      commitsRetired: 0,
      rangesReleased: 0,
      metadataRecordsDeleted: 0,
      ledgersDeleted: 0,
      bytesFreed: 0,
      pendingLedgers: 0,
      durationMs: 0,
    };
  }
}

function fakeStore(calls: string[], answer: StreamHead = head): StreamStore {
  return {
    trim: async (streamId: string, offset: number) => {
      calls.push(`trim ${streamId} ${String(offset)}`);
      return answer;
    },
    delete: async (streamId: string) => {
      calls.push(`delete ${streamId}`);
      return answer;
    },
    describe: () => "the real store",
  } as unknown as StreamStore;
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("reclaimAfterTrim", () => {
  test("a trim runs its stream; runs follow while one changes something, and stop at one that finds nothing", async () => {
    const calls: string[] = [];
    const reclaimer = new ScriptedReclaimer([
      report("s-1", { targetsReleased: 3 }),
      report("s-1", { pendingObjects: 2 }),
      report("s-1", { objectsDeleted: 2, bytesFreed: 100 }),
    ]);
    const wrapped = reclaimAfterTrim(fakeStore(calls), objectsOnly(reclaimer), { followUpMs: 10 });
    expect(await wrapped.store.trim("s-1", 7)).toBe(head);
    expect(calls).toEqual(["trim s-1 7"]);
    await until(() => reclaimer.runs.length === 4);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(reclaimer.runs).toEqual(["s-1", "s-1", "s-1", "s-1"]);
    wrapped.stop();
  });

  test("a delete runs its stream; a trim during a run runs it once more after it", async () => {
    const calls: string[] = [];
    const reclaimer = new ScriptedReclaimer([]);
    let open!: () => void;
    reclaimer.gate = new Promise((resolve) => (open = resolve));
    const wrapped = reclaimAfterTrim(fakeStore(calls), objectsOnly(reclaimer), { followUpMs: 10 });
    await wrapped.store.delete("s-2");
    await wrapped.store.trim("s-2", 3);
    await wrapped.store.trim("s-2", 4);
    expect(reclaimer.runs).toEqual(["s-2"]);
    open();
    await until(() => reclaimer.runs.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(reclaimer.runs).toEqual(["s-2", "s-2"]);
    expect(calls).toEqual(["delete s-2", "trim s-2 3", "trim s-2 4"]);
    wrapped.stop();
  });

  test("stop() cancels the follow-ups; other members pass through", async () => {
    const reclaimer = new ScriptedReclaimer([report("s-3", { pendingObjects: 1 })]);
    const wrapped = reclaimAfterTrim(fakeStore([]), objectsOnly(reclaimer), { followUpMs: 30 });
    expect((wrapped.store as unknown as { describe(): string }).describe()).toBe("the real store");
    await wrapped.store.trim("s-3", 1);
    await until(() => reclaimer.runs.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    wrapped.stop();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(reclaimer.runs).toEqual(["s-3"]);
    await wrapped.store.trim("s-3", 2);
    expect(reclaimer.runs).toEqual(["s-3"]);
  });

  test("trims of BookKeeper streams run nothing", async () => {
    const reclaimer = new ScriptedReclaimer([]);
    const wrapped = reclaimAfterTrim(fakeStore([], bookKeeperHead), objectsOnly(reclaimer), { followUpMs: 10 });
    expect(await wrapped.store.trim("s-4", 5)).toBe(bookKeeperHead);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reclaimer.runs).toEqual([]);
    wrapped.stop();
  });

  test("with a ledger collector, BookKeeper streams run it, and the BookKeeper object profiles run both", async () => {
    const objects = new ScriptedReclaimer([]);
    const ledgers = new QuietLedgers();
    const route = collectionRoute({ objects, ledgers });
    const asyncObject = { streamId: "s-5", profile: "BOOKKEEPER_WAL_ASYNC_OBJECT" } as unknown as StreamHead;
    const onlyLedgers = reclaimAfterTrim(fakeStore([], bookKeeperHead), route, { followUpMs: 10 });
    await onlyLedgers.store.trim("s-4", 5);
    const both = reclaimAfterTrim(fakeStore([], asyncObject), route, { followUpMs: 10 });
    await both.store.trim("s-5", 5);
    await until(() => objects.runs.length === 1);
    expect(ledgers.runs).toEqual(["s-4", "s-5"]);
    expect(objects.runs).toEqual(["s-5"]);
    onlyLedgers.stop();
    both.stop();
  });

  test("the follow-up waits for the longest grace or minimum age of the collectors, plus the skew and a margin", () => {
    const policy = { graceMs: 500, minObjectAgeMs: 2_000, clockSkewMs: 1_000, tombstoneRetentionMs: 0 };
    expect(followUpDelayMs({ policy })).toBe(3_500);
    const ledgerPolicy = { graceMs: 4_000, minLedgerAgeMs: 1_000, clockSkewMs: 1_000 };
    expect(followUpDelayMs({ policy }, { policy: ledgerPolicy })).toBe(5_500);
  });
});
