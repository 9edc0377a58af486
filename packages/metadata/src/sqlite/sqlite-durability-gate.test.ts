// Durability gates on the SQLite store (TxnRequest.after): a gate with shared words rides to the writer thread,
// which waits on the words before the round that applies the txn; a gate without them is awaited on the event loop
// before the txn is queued. Either way the txn applies nothing until the gate opens and is refused as not applied
// (PRIMARY_WAL_WRITE_FAILED, ambiguous false) when it fails. "Not committed yet" is checked through a separate
// read-only connection to the file and the store's commit counters (a store read issued while a shared gate is
// closed waits for the gated round, see the shared-gate tests). Every SharedDurabilityGates a test makes is failed
// before its store closes, so a failing test cannot leave the writer thread waiting GATE_TIMEOUT_MS.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  DURABILITY_GATE_WORDS,
  type DurabilityGate,
  ErrorCode,
  MetadataAmbiguousError,
  type MetadataStore,
  NereusError,
  SharedDurabilityGates,
  type TxnRequest,
  type TxnResult,
  type WatchEvent,
} from "@nereus/core";
import { manualGate, type ManualGate } from "@nereus/core/testing";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMetadataStore } from "./sqlite-metadata-store.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined): string | undefined =>
  value === undefined ? undefined : new TextDecoder().decode(value);

/** Long enough for a writer thread that ignored a closed gate to have committed, even on a slow machine. */
const HOLD_MS = 150;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function revisionOf(result: TxnResult): number {
  if (!result.succeeded) throw new Error("expected the txn to succeed");
  return result.revision;
}

/** Whether `promise` has settled yet (observed from the outside, without consuming its rejection). */
function watchSettled(promise: Promise<unknown>): { readonly settled: () => boolean } {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { settled: () => settled };
}

const put = (key: string, value: string, after?: DurabilityGate): TxnRequest => ({
  compares: [],
  writes: [{ type: "put", key, value: bytes(value) }],
  ...(after === undefined ? {} : { after }),
});

function expectRefusedAsNotApplied(error: unknown): void {
  expect(NereusError.hasCode(error, ErrorCode.PRIMARY_WAL_WRITE_FAILED)).toBe(true);
  expect((error as NereusError).details["ambiguous"]).toBe(false);
  expect(MetadataAmbiguousError.isAmbiguous(error)).toBe(false);
}

describe("SqliteMetadataStore durability gates", () => {
  const cleanups: (() => Promise<void>)[] = [];
  const allGates: SharedDurabilityGates[] = [];
  afterEach(async () => {
    // A closed gate would hold the writer thread (and so close()) for GATE_TIMEOUT_MS.
    for (const gates of allGates.splice(0)) gates.fail();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(options: { gateTimeoutMs?: number } = {}) {
    const directory = await mkdtemp(path.join(tmpdir(), "nereus-sqlite-gate-"));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const file = path.join(directory, "metadata.db");
    const store = await createSqliteMetadataStore({ path: file, ...options });
    cleanups.push(() => store.close());
    /** What another connection sees committed in the file (independent of the store's read path). */
    const committed = (key: string): string | undefined => {
      const reader = new Database(file, { readonly: true });
      try {
        const row = reader.prepare("SELECT value FROM kv WHERE key = ?").get(key) as { value: Uint8Array } | undefined;
        return text(row?.value);
      } finally {
        reader.close();
      }
    };
    return { store, committed };
  }

  function sharedGates(): SharedDurabilityGates {
    const gates = new SharedDurabilityGates();
    allGates.push(gates);
    return gates;
  }

  /** A shared gate on `gates` for its next sequence, with a `durable` promise the test settles. */
  function sharedGate(gates: SharedDurabilityGates): { gate: DurabilityGate; sequence: number; durable: ManualGate } {
    const sequence = gates.nextSequence();
    const durable = manualGate();
    return {
      gate: { durable: durable.promise, accelerations: { shared: { words: gates.words, sequence } } },
      sequence,
      durable,
    };
  }

  /**
   * A gated put of `<prefix>head` and, submitted right behind it, a txn that puts `<prefix>after` only if the head
   * holds the gated value (the shape of a speculative head CAS riding behind the group ahead).
   */
  function gatedWithRider(
    store: MetadataStore,
    prefix: string,
    gate: DurabilityGate,
  ): { gated: Promise<TxnResult>; speculative: Promise<TxnResult> } {
    const gated = store.txn(put(`${prefix}head`, "next", gate));
    const speculative = store.txn({
      compares: [{ key: `${prefix}head`, value: bytes("next") }],
      writes: [{ type: "put", key: `${prefix}after`, value: bytes("rode behind") }],
    });
    return { gated, speculative };
  }

  describe("with shared words (the writer thread waits)", () => {
    it("does not commit while the gate is closed, commits once it opens (without waiting for the durable promise)", async () => {
      const { store, committed } = await open();
      const gates = sharedGates();
      const { gate, sequence, durable } = sharedGate(gates);
      const events: WatchEvent[] = [];
      await store.watch("g/", (event) => events.push(event));
      const txnsBefore = store.stats.txns;

      const pending = store.txn(put("g/a", "a", gate));
      const txn = watchSettled(pending);
      // Issued while the gate is closed: whenever it answers, it must not see the gated write.
      const earlyRead = store.get("g/a");
      await sleep(HOLD_MS);
      expect(txn.settled()).toBe(false);
      expect(committed("g/a")).toBeUndefined();
      expect(store.stats.txns).toBe(txnsBefore);
      expect(events).toEqual([]);

      // Only the shared words open: the store must not hop through `durable` for a shared gate.
      gates.open(sequence);
      const revision = revisionOf(await pending);
      expect(await earlyRead).toBeUndefined();
      const stored = await store.get("g/a");
      expect(text(stored?.value)).toBe("a");
      expect(stored?.modRevision).toBe(revision);
      expect(committed("g/a")).toBe("a");
      await sleep(0);
      expect(events.map((event) => [event.type, event.key, event.modRevision])).toEqual([["put", "g/a", revision]]);
      durable.resolve();
    });

    it("times the wait for a closed gate apart from the round's own work, and the -wal datasync", async () => {
      const { store } = await open();
      await store.txn(put("t/ungated", "u"));
      const before = store.ioTimings();
      expect(before.round.count).toBeGreaterThan(0);
      expect(before.walSync.count).toBeGreaterThan(0);
      expect(before.gateWait.count).toBe(0);
      const gates = sharedGates();
      const { gate, sequence } = sharedGate(gates);
      const pending = store.txn(put("t/gated", "g", gate));
      await sleep(HOLD_MS);
      gates.open(sequence);
      revisionOf(await pending);
      const after = store.ioTimings();
      expect(after.gateWait.count).toBe(1);
      // The round waited about HOLD_MS for its gate; that wait is not in the round's own time.
      expect(after.gateWait.sumSeconds).toBeGreaterThanOrEqual((HOLD_MS - 20) / 1000);
      expect(after.round.count).toBeGreaterThanOrEqual(before.round.count + 1);
      expect(after.round.sumSeconds - before.round.sumSeconds).toBeLessThan((HOLD_MS - 20) / 1000);
      expect(after.walSync.count).toBeGreaterThanOrEqual(before.walSync.count + 1);
    });

    it("a gate still closed after gateTimeoutMs refuses its txn as not applied, and the store goes on", async () => {
      const { store, committed } = await open({ gateTimeoutMs: 200 });
      const gates = sharedGates();
      const { gate } = sharedGate(gates);
      const started = performance.now();
      const error = await store.txn(put("w/gated", "x", gate)).catch((caught: unknown) => caught);
      expect(performance.now() - started).toBeGreaterThanOrEqual(190);
      expectRefusedAsNotApplied(error);
      expect((error as NereusError).message).toContain("not durable within 200 ms");
      expect(await store.get("w/gated")).toBeUndefined();
      expect(committed("w/gated")).toBeUndefined();
      revisionOf(await store.txn(put("w/next", "y")));
      expect(committed("w/next")).toBe("y");
    });

    it("refuses a gate timeout that is not a positive 31-bit integer before opening anything", async () => {
      const directory = await mkdtemp(path.join(tmpdir(), "nereus-sqlite-gate-"));
      cleanups.push(() => rm(directory, { recursive: true, force: true }));
      for (const gateTimeoutMs of [0, -1, 1.5, 2 ** 31, Number.NaN]) {
        const error = await createSqliteMetadataStore({
          path: path.join(directory, "metadata.db"),
          gateTimeoutMs,
        }).catch((caught: unknown) => caught);
        expect(NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)).toBe(true);
        expect((error as NereusError).message).toContain("gateTimeoutMs");
      }
      expect(existsSync(path.join(directory, "metadata.db"))).toBe(false);
    });

    it("a failed gate refuses its txn as not applied; an ungated txn of the same round commits", async () => {
      const { store, committed } = await open();
      const gates = sharedGates();
      const { gate, durable } = sharedGate(gates);
      const before = { ...store.stats };
      const events: WatchEvent[] = [];
      await store.watch("f/", (event) => events.push(event));

      // Same synchronous run: one txns operation, so one round of the writer thread.
      const gated = store.txn(put("f/gated", "x", gate));
      const plain = store.txn(put("f/plain", "y"));
      const gatedError = gated.catch((caught: unknown) => caught);
      await sleep(HOLD_MS);
      expect(committed("f/gated")).toBeUndefined();

      gates.fail();
      durable.reject(new Error("segment write failed"));
      const error = await gatedError;
      expectRefusedAsNotApplied(error);
      const revision = revisionOf(await plain);
      expect(store.stats.groupCommits - before.groupCommits).toBe(1);

      expect(await store.get("f/gated")).toBeUndefined();
      expect(committed("f/gated")).toBeUndefined();
      expect(text((await store.get("f/plain"))?.value)).toBe("y");
      await sleep(0);
      expect(events.map((event) => event.key)).toEqual(["f/plain"]);
      // The refused txn took no revision, and the store goes on.
      expect(revisionOf(await store.txn(put("f/next", "z")))).toBe(revision + 1);
    });

    it("a txn queued behind a failed gate never sees what the refused txn would have written", async () => {
      // The writer thread runs a round's body before its gates settle: the rollback must take every txn of the
      // round back, not only the refused one, because a later one may have compared on the refused write.
      const { store, committed } = await open();
      const gates = sharedGates();
      const { gate, durable } = sharedGate(gates);
      const { gated, speculative } = gatedWithRider(store, "v/", gate);
      const gatedError = gated.catch((caught: unknown) => caught);
      await sleep(HOLD_MS);
      gates.fail();
      durable.reject(new Error("segment write failed"));
      expectRefusedAsNotApplied(await gatedError);
      expect((await speculative).succeeded).toBe(false);
      expect(committed("v/head")).toBeUndefined();
      expect(committed("v/after")).toBeUndefined();
      expect(await store.get("v/after")).toBeUndefined();
    });

    it("a txn queued behind an opened gate sees the gated write and commits after it", async () => {
      const { store, committed } = await open();
      const gates = sharedGates();
      const { gate, sequence, durable } = sharedGate(gates);
      const { gated, speculative } = gatedWithRider(store, "w/", gate);
      await sleep(HOLD_MS);
      expect(committed("w/after")).toBeUndefined();
      gates.open(sequence);
      const headRevision = revisionOf(await gated);
      expect(revisionOf(await speculative)).toBeGreaterThan(headRevision);
      expect(committed("w/after")).toBe("rode behind");
      durable.resolve();
    });

    it("after the writer failed, gates up to its durable sequence stay open and every later one is refused", async () => {
      const { store } = await open();
      const gates = sharedGates();
      const durableOne = sharedGate(gates);
      const failedOne = sharedGate(gates);
      gates.open(durableOne.sequence);
      gates.fail();
      const [opened, refused] = await Promise.allSettled([
        store.txn(put("a/durable", "1", durableOne.gate)),
        store.txn(put("a/failed", "2", failedOne.gate)),
      ]);
      expect(opened.status).toBe("fulfilled");
      expect(refused.status).toBe("rejected");
      if (refused.status === "rejected") expectRefusedAsNotApplied(refused.reason);
      // A gate issued after the failure is refused without waiting for GATE_TIMEOUT_MS.
      const late = sharedGate(gates);
      const lateError = await store.txn(put("a/late", "3", late.gate)).catch((caught: unknown) => caught);
      expectRefusedAsNotApplied(lateError);
      expect(text((await store.get("a/durable"))?.value)).toBe("1");
      expect(await store.get("a/failed")).toBeUndefined();
      expect(await store.get("a/late")).toBeUndefined();
    });

    it("opening a lower sequence does not open a higher one", async () => {
      const { store, committed } = await open();
      const gates = sharedGates();
      const lower = sharedGate(gates);
      const higher = sharedGate(gates);
      const pending = store.txn(put("s/high", "h", higher.gate));
      const txn = watchSettled(pending);
      gates.open(lower.sequence);
      await sleep(HOLD_MS);
      expect(txn.settled()).toBe(false);
      expect(committed("s/high")).toBeUndefined();
      gates.open(higher.sequence);
      const revision = revisionOf(await pending);
      expect((await store.get("s/high"))?.modRevision).toBe(revision);
    });

    it("opening a higher sequence opens every lower one; gated txns keep their submission order", async () => {
      const { store, committed } = await open();
      const gates = sharedGates();
      const first = sharedGate(gates);
      const second = sharedGate(gates);
      const third = sharedGate(gates);
      const early = store.txn(put("o/1", "1", first.gate));
      await sleep(0);
      // A later synchronous run: possibly another round, queued behind the gated one.
      const late = store.txn(put("o/2", "2", second.gate));
      const settled = [watchSettled(early), watchSettled(late)];
      await sleep(HOLD_MS);
      expect(settled.map((item) => item.settled())).toEqual([false, false]);
      expect(committed("o/1")).toBeUndefined();
      gates.open(third.sequence);
      const [one, two] = await Promise.all([early, late]);
      expect(revisionOf(two)).toBeGreaterThan(revisionOf(one));
      expect((await store.getMany(["o/1", "o/2"])).size).toBe(2);
    });

    it("a txn whose gate is still closed does not hold back the commit of an open-gated txn submitted before it, in the same run", async () => {
      const { store, committed } = await open();
      const gates = sharedGates();
      const first = sharedGate(gates);
      const second = sharedGate(gates);
      gates.open(first.sequence);
      // One synchronous run: both reach the writer thread together.
      const ahead = store.txn(put("p/1", "1", first.gate));
      const behind = store.txn(put("p/2", "2", second.gate));
      const aheadRevision = revisionOf(await ahead);
      const waiting = watchSettled(behind);
      expect(committed("p/1")).toBe("1");
      await sleep(HOLD_MS);
      expect(waiting.settled()).toBe(false);
      expect(committed("p/2")).toBeUndefined();
      gates.open(second.sequence);
      expect(revisionOf(await behind)).toBeGreaterThan(aheadRevision);
      expect(committed("p/2")).toBe("2");
    });
  });

  describe("without shared words (awaited on the event loop)", () => {
    it("does not commit until the durable promise resolves; reads meanwhile answer without the write", async () => {
      const { store, committed } = await open();
      const durable = manualGate();
      const txnsBefore = store.stats.txns;
      const pending = store.txn(put("p/a", "a", { durable: durable.promise }));
      const txn = watchSettled(pending);
      await sleep(HOLD_MS);
      expect(txn.settled()).toBe(false);
      // The txn is not queued yet, so a read is not held behind it.
      expect(await store.get("p/a")).toBeUndefined();
      expect(committed("p/a")).toBeUndefined();
      expect(store.stats.txns).toBe(txnsBefore);

      durable.resolve();
      const revision = revisionOf(await pending);
      const stored = await store.get("p/a");
      expect(text(stored?.value)).toBe("a");
      expect(stored?.modRevision).toBe(revision);
    });

    it("a rejected durable promise refuses the txn as not applied, and nothing reaches the writer thread", async () => {
      const { store, committed } = await open();
      const durable = manualGate();
      const txnsBefore = store.stats.txns;
      const pending = store.txn(put("p/b", "b", { durable: durable.promise })).catch((caught: unknown) => caught);
      await sleep(HOLD_MS);
      durable.reject(new Error("segment write failed"));
      const error = await pending;
      expectRefusedAsNotApplied(error);
      expect(String((error as Error).message)).toContain("segment write failed");
      expect(store.stats.txns).toBe(txnsBefore);
      expect(await store.get("p/b")).toBeUndefined();
      expect(committed("p/b")).toBeUndefined();
    });

    it("a txn whose caller aborts while it waits for its gate is CANCELLED and applies nothing", async () => {
      const { store } = await open();
      const durable = manualGate();
      const controller = new AbortController();
      const pending = store
        .txn(put("p/c", "c", { durable: durable.promise }), { signal: controller.signal })
        .catch((caught: unknown) => caught);
      controller.abort();
      durable.resolve();
      expect(NereusError.hasCode(await pending, ErrorCode.CANCELLED)).toBe(true);
      expect(await store.get("p/c")).toBeUndefined();
    });
  });

  describe("gate validation (before any I/O)", () => {
    const valid = new SharedDurabilityGates();
    const validShared = { words: valid.words, sequence: 1 };
    const cases: Array<[string, unknown]> = [
      ["null", null],
      ["durable missing", { accelerations: { shared: validShared } }],
      ["durable not a promise", { durable: 42, accelerations: { shared: validShared } }],
      ["durable a plain object", { durable: {} }],
      ["accelerations null", { durable: Promise.resolve(), accelerations: null }],
      ["accelerations a number", { durable: Promise.resolve(), accelerations: 1 }],
      ["shared null", { durable: Promise.resolve(), accelerations: { shared: null } }],
      [
        "words an ArrayBuffer",
        {
          durable: Promise.resolve(),
          accelerations: { shared: { words: new ArrayBuffer(DURABILITY_GATE_WORDS * 8), sequence: 1 } },
        },
      ],
      [
        "words a typed array",
        {
          durable: Promise.resolve(),
          accelerations: { shared: { words: new BigInt64Array(valid.words), sequence: 1 } },
        },
      ],
      [
        "words too small",
        {
          durable: Promise.resolve(),
          accelerations: { shared: { words: new SharedArrayBuffer(DURABILITY_GATE_WORDS * 8 - 8), sequence: 1 } },
        },
      ],
      [
        "words not whole 64-bit words",
        {
          durable: Promise.resolve(),
          accelerations: { shared: { words: new SharedArrayBuffer(DURABILITY_GATE_WORDS * 8 + 1), sequence: 1 } },
        },
      ],
      ["sequence 0", { durable: Promise.resolve(), accelerations: { shared: { words: valid.words, sequence: 0 } } }],
      [
        "sequence negative",
        { durable: Promise.resolve(), accelerations: { shared: { words: valid.words, sequence: -1 } } },
      ],
      [
        "sequence not an integer",
        { durable: Promise.resolve(), accelerations: { shared: { words: valid.words, sequence: 1.5 } } },
      ],
      [
        "sequence NaN",
        { durable: Promise.resolve(), accelerations: { shared: { words: valid.words, sequence: Number.NaN } } },
      ],
      [
        "sequence beyond safe integers",
        { durable: Promise.resolve(), accelerations: { shared: { words: valid.words, sequence: 2 ** 53 } } },
      ],
      [
        "sequence a string",
        { durable: Promise.resolve(), accelerations: { shared: { words: valid.words, sequence: "1" } } },
      ],
    ];

    it.each(cases)("rejects a gate with %s as INVALID_ARGUMENT and applies nothing", async (_name, after) => {
      const { store, committed } = await open();
      const txnsBefore = store.stats.txns;
      const error = await store
        .txn({ ...put("v/k", "v"), after: after as DurabilityGate })
        .catch((caught: unknown) => caught);
      expect(NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)).toBe(true);
      expect(store.stats.txns).toBe(txnsBefore);
      expect(committed("v/k")).toBeUndefined();
      // The store is unharmed.
      expect(revisionOf(await store.txn(put("v/k", "ok")))).toBeGreaterThan(0);
    });

    it("accepts the smallest valid gate: exactly the documented words, sequence 1", async () => {
      const { store } = await open();
      const gates = sharedGates();
      const sequence = gates.nextSequence();
      expect(gates.words.byteLength).toBe(DURABILITY_GATE_WORDS * 8);
      gates.open(sequence);
      const result = await store.txn(
        put("v/min", "m", { durable: Promise.resolve(), accelerations: { shared: { words: gates.words, sequence } } }),
      );
      expect(revisionOf(result)).toBeGreaterThan(0);
    });
  });
});
