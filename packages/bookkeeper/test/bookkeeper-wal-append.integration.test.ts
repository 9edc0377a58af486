// The full append pipeline (createStreamStore) on the BookKeeper WAL with the harness's three real bookies and the
// in-memory metadata store: BOOKKEEPER_WAL_ONLY appends write exact contiguous entry ranges before the commit,
// the head transaction carries the range protection, reads come back from BookKeeper verified, every pipeline
// boundary fails with the right outcome, ledgers roll over by entries/bytes/age, and a restarted process seals
// its predecessor's ledger by recovery-open instead of appending to it. (@nereus/metadata may not be imported by
// bookkeeper tests — tooling/lint/src/rules.ts — so the metadata store is core's InMemoryMetadataStore.)
import {
  APPEND_STEPS,
  ErrorCode,
  NereusError,
  type AppendResult,
  type BookKeeperEntryRangeTarget,
  type StreamStoreOptions,
} from "@nereus/core";
import {
  AppendProtocolHarness,
  InMemoryMetadataStore,
  expectAppendFailure,
  opaqueBatch,
  rangedBatch,
  text,
} from "@nereus/core/testing";
import { loadServices } from "@nereus/test-services";
import { afterAll, describe, expect, it } from "vitest";
import type { BookKeeperWalRuntime, BookKeeperWalRuntimeOptions } from "../src/wal/create-bookkeeper-wal-runtime.js";
import { decodeEntryFrame } from "../src/wal/entry-frame.js";
import {
  ledgerHash,
  ledgerRootKey,
  rangeProtectionKey,
  writerStateKey,
} from "../src/wal/records/bookkeeper-wal-keys.js";
import { ledgerRootCodec } from "../src/wal/records/ledger-root-codec.js";
import { rangeProtectionCodec } from "../src/wal/records/range-protection-codec.js";
import { writerStateCodec } from "../src/wal/records/writer-state-codec.js";
import { BookKeeperWalKit, TEST_ALIAS, TEST_PASSWORD } from "./support/bookkeeper-wal-kit.js";

const kit = new BookKeeperWalKit(loadServices());
const inspector = kit.client();
afterAll(() => kit.close());

/** One test's world: a metadata store, a harness (cluster) on it, and helpers to open BookKeeper "processes". */
class World {
  readonly metadata = new InMemoryMetadataStore();
  readonly harness = new AppendProtocolHarness(this.metadata);

  /** A new process: its own BookKeeper client and WAL runtime, and a StreamStore on them. */
  process(
    storeOverrides: Partial<StreamStoreOptions> = {},
    walOverrides: Partial<BookKeeperWalRuntimeOptions> = {},
  ): { runtime: BookKeeperWalRuntime; store: ReturnType<AppendProtocolHarness["open"]> } {
    const runtime = kit.runtime(this.metadata, this.harness.cluster, walOverrides);
    const store = this.harness.open({ ...runtime.storeOptions(), ...storeOverrides });
    return { runtime, store };
  }

  async writerState(streamId: string) {
    const key = writerStateKey(this.harness.cluster, streamId);
    const stored = await this.metadata.get(key);
    return stored === undefined ? undefined : writerStateCodec.decode(stored.value, key);
  }

  async root(ledgerId: string) {
    const key = ledgerRootKey(this.harness.cluster, ledgerHash(TEST_ALIAS, BigInt(ledgerId)));
    const stored = await this.metadata.get(key);
    return stored === undefined ? undefined : ledgerRootCodec.decode(stored.value, key);
  }

  async dispose(): Promise<void> {
    await this.harness.dispose();
    await this.metadata.close();
  }
}

const withWorld = (test: (world: World) => Promise<void>) => async (): Promise<void> => {
  const world = new World();
  try {
    await test(world);
  } finally {
    await world.dispose();
  }
};

function rangeOf(result: AppendResult): BookKeeperEntryRangeTarget {
  if (result.readTarget.type !== "BOOKKEEPER_ENTRY_RANGE")
    throw new Error(`expected a BookKeeper target, got ${result.readTarget.type}`);
  return result.readTarget;
}

/** The raw BookKeeper entries of a target, decoded from their frames (independent of the WAL reader). */
async function rawEntries(target: BookKeeperEntryRangeTarget): Promise<Array<[number, string]>> {
  const reader = await inspector.openLedger(BigInt(target.ledgerId), { recovery: false, password: TEST_PASSWORD });
  const entries = await reader.readUnconfirmedEntries(target.firstEntryId, target.firstEntryId + target.entryCount - 1);
  return entries.map((entry) => {
    const frame = decodeEntryFrame(entry.payload, String(entry.entryId));
    return [frame.recordCount, text(frame.payload)];
  });
}

describe("BookKeeper WAL under the append pipeline (3 real bookies, E=3 Qw=2 Qa=2)", () => {
  it(
    "append example: [100,105) commits as one exact entry range, protected in the head transaction, read back from BookKeeper",
    withWorld(async (world) => {
      const { runtime, store } = world.process();
      const { streamId } = await store.createStream("kafka-0", { profile: "BOOKKEEPER_WAL_ONLY" });
      const first = await store.append(streamId, rangedBatch(["first", 100]));
      const result = await store.append(streamId, rangedBatch(["batch-a", 3], ["bb", 2]), { expectedStartOffset: 100 });
      expect(result).toMatchObject({
        startOffset: 100,
        endOffset: 105,
        committedEndOffset: 105,
        recordCount: 5,
        entryCount: 2,
        logicalBytes: 9,
        generation: 0,
      });
      const target = rangeOf(result);
      expect(target).toMatchObject({
        clusterAlias: TEST_ALIAS,
        ledgerId: rangeOf(first).ledgerId,
        firstEntryId: 1,
        entryCount: 2,
      });
      // One Nereus entry = one BookKeeper entry, framed with its record count.
      expect(await rawEntries(target)).toEqual([
        [3, "batch-a"],
        [2, "bb"],
      ]);
      expect(runtime.stats.entriesAdded).toBe(3);
      // The commit named the range and protected it in the same transaction.
      const [latest] = await world.harness.reachableCommits(streamId);
      expect(latest).toMatchObject({ commitId: result.commitId, readTarget: target });
      const protectionKey = rangeProtectionKey(
        world.harness.cluster,
        ledgerHash(TEST_ALIAS, BigInt(target.ledgerId)),
        target.firstEntryId,
        1,
      );
      const protection = await world.metadata.get(protectionKey);
      expect(protection).toBeDefined();
      expect(rangeProtectionCodec.decode(protection?.value ?? new Uint8Array(), protectionKey)).toMatchObject({
        type: "REACHABLE_APPEND",
        firstEntryId: 1,
        entryCount: 2,
        rangeChecksum: target.rangeChecksum,
        ownerKey: world.harness.keyspace.intentKey(streamId, result.commitId),
      });
      expect(await world.writerState(streamId)).toMatchObject({
        lifecycle: "ACTIVE",
        owner: { writerId: "writer-a", writerEpoch: 1 },
        ledger: { ledgerId: BigInt(target.ledgerId) },
      });
      expect(await world.root(target.ledgerId)).toMatchObject({
        lifecycle: "ACTIVE",
        streamId,
        ensembleSize: 3,
        writeQuorumSize: 2,
        ackQuorumSize: 2,
      });
      const read = await store.read(streamId, 102);
      expect(read.entries.map((entry) => [entry.offset, entry.recordCount, text(entry.payload)])).toEqual([
        [100, 3, "batch-a"],
        [103, 2, "bb"],
      ]);
    }),
  );

  it(
    "BOOKKEEPER_WAL_ASYNC_OBJECT: an admission hook (the lag bound) rejects before any BookKeeper I/O; BOOKKEEPER_WAL_SYNC_OBJECT fails closed without an Object-generation coordinator",
    withWorld(async (world) => {
      let overBound = true;
      const lagHook = {
        admit: async (streamId: string) => {
          if (overBound)
            throw new NereusError(
              ErrorCode.BACKPRESSURE_REJECTED,
              `materialization lag of ${streamId} is above the bound`,
              { retryable: true },
            );
        },
      };
      const { runtime, store } = world.process({}, { admissionHooks: [lagHook] });
      const { streamId } = await store.createStream("async-object", { profile: "BOOKKEEPER_WAL_ASYNC_OBJECT" });
      const ioBefore = runtime.stats.bookKeeperIo;
      await expectAppendFailure(store.append(streamId, opaqueBatch("rejected")), {
        code: ErrorCode.BACKPRESSURE_REJECTED,
        outcome: "KNOWN_NOT_COMMITTED",
        retryable: true,
      });
      expect(runtime.stats.bookKeeperIo).toBe(ioBefore);
      expect(runtime.stats.persists).toBe(0);
      overBound = false;
      const admitted = await store.append(streamId, opaqueBatch("admitted"));
      expect(rangeOf(admitted)).toMatchObject({ firstEntryId: 0, entryCount: 1 });
      expect(runtime.stats.bookKeeperIo).toBeGreaterThan(ioBefore);
      // Existing commits stay readable from BookKeeper while later appends are rejected again.
      overBound = true;
      await expectAppendFailure(store.append(streamId, opaqueBatch("rejected-again")), {
        code: ErrorCode.BACKPRESSURE_REJECTED,
        outcome: "KNOWN_NOT_COMMITTED",
      });
      expect((await store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["admitted"]);
      const io = runtime.stats.bookKeeperIo;
      let caught: unknown;
      try {
        await store.createStream("sync-object", { profile: "BOOKKEEPER_WAL_SYNC_OBJECT" });
      } catch (error) {
        caught = error;
      }
      expect(NereusError.hasCode(caught, ErrorCode.UNSUPPORTED_STORAGE_PROFILE)).toBe(true);
      expect(runtime.stats.bookKeeperIo).toBe(io);
    }),
  );

  it(
    "a warm append costs one metadata round trip (the head transaction) and one BookKeeper add per entry",
    withWorld(async (world) => {
      const { runtime, store } = world.process({ groupCommit: false });
      const { streamId } = await store.createStream("warm", { profile: "BOOKKEEPER_WAL_ONLY" });
      await store.append(streamId, opaqueBatch("warm-up"));
      world.metadata.stats.reset();
      const adds = runtime.stats.entriesAdded;
      for (let index = 0; index < 10; index++)
        await store.append(streamId, opaqueBatch(`a${String(index)}`, `b${String(index)}`));
      expect(world.metadata.stats.roundTrips).toBe(10);
      expect(world.metadata.stats.txns).toBe(10);
      expect(runtime.stats.entriesAdded - adds).toBe(20);
    }),
  );

  it(
    "group commit: concurrent appends share ranges; every caller reads back exactly its own entries",
    withWorld(async (world) => {
      const { store } = world.process({ groupCommit: { maxBytes: 1 << 20, maxEntries: 16 } });
      const { streamId } = await store.createStream("grouped", { profile: "BOOKKEEPER_WAL_ONLY" });
      const batches = Array.from({ length: 40 }, (_value, index) =>
        rangedBatch([`r${String(index)}`, 1 + (index % 3)], [`s${String(index)}`, 1]),
      );
      const results = await Promise.all(batches.map((batch) => store.append(streamId, batch)));
      const head = await world.harness.head(streamId);
      expect(head.commitVersion).toBeLessThan(batches.length);
      let expected = 0;
      for (const [index, result] of results.entries()) {
        expect(result.startOffset).toBe(expected);
        expected = result.endOffset;
        const read = await store.read(streamId, result.startOffset, { maxRecords: result.recordCount });
        expect(read.entries.map((entry) => text(entry.payload))).toEqual([`r${String(index)}`, `s${String(index)}`]);
      }
      // Ranges of consecutive commits are contiguous in one ledger: no entry id is skipped or reused.
      const commits = (await world.harness.reachableCommits(streamId)).reverse();
      let nextEntryId = 0;
      for (const commit of commits) {
        const target = commit.readTarget as BookKeeperEntryRangeTarget;
        expect(target.firstEntryId).toBe(nextEntryId);
        nextEntryId += target.entryCount;
      }
    }),
  );

  for (const step of APPEND_STEPS) {
    const committed = step === "afterHeadCommit" || step === "afterCompletion";
    it(
      `a crash at ${step} is ${committed ? "KNOWN_COMMITTED and recovers the original result" : "KNOWN_NOT_COMMITTED; the retry commits a fresh range"}`,
      withWorld(async (world) => {
        let armed = false;
        const { store } = world.process({
          autoRecovery: false,
          stepHooks: {
            [step]: () => {
              if (!armed) return;
              armed = false;
              throw new NereusError(ErrorCode.CANCELLED, `simulated crash at ${step}`, { retryable: false });
            },
          },
        });
        const { streamId } = await store.createStream(`crash-${step}`, { profile: "BOOKKEEPER_WAL_ONLY" });
        await store.append(streamId, opaqueBatch("before"));
        armed = true;
        const failure = await expectAppendFailure(store.append(streamId, opaqueBatch("crash-1", "crash-2")), {
          code: ErrorCode.CANCELLED,
          outcome: committed ? "KNOWN_COMMITTED" : "KNOWN_NOT_COMMITTED",
          retryable: false,
        });
        if (committed) {
          const recovered = await store.recoverAppend(streamId, failure.attemptId ?? "");
          expect(recovered).toMatchObject({ startOffset: 1, endOffset: 3, commitVersion: 2 });
        } else {
          expect(await world.harness.head(streamId)).toMatchObject({ committedEndOffset: 1, commitVersion: 1 });
          const retried = await store.append(streamId, opaqueBatch("crash-1", "crash-2"));
          expect(retried).toMatchObject({ startOffset: 1, endOffset: 3, commitVersion: 2 });
          // A failure after the WAL write left its entries unreachable in the ledger; the retry wrote new ones.
          if (step !== "beforeWalWrite") expect(rangeOf(retried).firstEntryId).toBe(3);
        }
        const { store: reader } = world.process({ writerId: "reader" });
        expect((await reader.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual([
          "before",
          "crash-1",
          "crash-2",
        ]);
      }),
    );
  }

  it(
    "rolls the ledger over by entries, never splitting a batch; sealed ledgers stay readable",
    withWorld(async (world) => {
      const { runtime, store } = world.process({ groupCommit: false }, { rollover: { maxEntries: 5 } });
      const { streamId } = await store.createStream("rollover-entries", { profile: "BOOKKEEPER_WAL_ONLY" });
      const results: AppendResult[] = [];
      for (let index = 0; index < 6; index++)
        results.push(await store.append(streamId, opaqueBatch(`x${String(index)}`, `y${String(index)}`)));
      results.push(
        await store.append(
          streamId,
          opaqueBatch(...Array.from({ length: 7 }, (_value, index) => `big${String(index)}`)),
        ),
      );
      const placement = results.map((result) => [
        rangeOf(result).ledgerId,
        rangeOf(result).firstEntryId,
        rangeOf(result).entryCount,
      ]);
      const ledgers = [...new Set(placement.map(([ledgerId]) => ledgerId))];
      // 2+2 | 2+2 | 2+2 | 7 (alone in a fresh ledger, above the limit rather than split)
      expect(ledgers).toHaveLength(4);
      expect(placement.map(([, first, count]) => [first, count])).toEqual([
        [0, 2],
        [2, 2],
        [0, 2],
        [2, 2],
        [0, 2],
        [2, 2],
        [0, 7],
      ]);
      expect(runtime.stats.rollovers).toBe(3);
      for (const ledgerId of ledgers.slice(0, 3)) {
        expect(await world.root(String(ledgerId))).toMatchObject({ lifecycle: "SEALED", sealedEntryCount: 4 });
        expect((await inspector.getLedgerMetadata(BigInt(ledgerId as string)))?.metadata).toMatchObject({
          state: "CLOSED",
          lastEntryId: 3,
        });
      }
      expect(await world.root(String(ledgers[3]))).toMatchObject({ lifecycle: "ACTIVE" });
      expect(await world.writerState(streamId)).toMatchObject({
        lifecycle: "ACTIVE",
        nextSegmentSequence: 4,
        ledger: { segmentSequence: 3 },
      });
      const read = await store.read(streamId, 0, { maxRecords: 100 });
      expect(read.entries.map((entry) => text(entry.payload))).toEqual(
        results.flatMap((_result, index) =>
          index < 6
            ? [`x${String(index)}`, `y${String(index)}`]
            : Array.from({ length: 7 }, (_value, big) => `big${String(big)}`),
        ),
      );
    }),
  );

  it(
    "rolls the ledger over by bytes and by age",
    withWorld(async (world) => {
      let now = 1_000_000;
      const { store: bytesStore } = world.process({ groupCommit: false }, { rollover: { maxBytes: 100 } });
      const bytesStream = (await bytesStore.createStream("rollover-bytes", { profile: "BOOKKEEPER_WAL_ONLY" }))
        .streamId;
      const byBytes: AppendResult[] = [];
      // 30-byte payloads in 47-byte frames: two fit in 100 framed bytes, the third rolls.
      for (let index = 0; index < 5; index++)
        byBytes.push(await bytesStore.append(bytesStream, opaqueBatch("b".repeat(30))));
      expect(byBytes.map((result) => rangeOf(result).firstEntryId)).toEqual([0, 1, 0, 1, 0]);

      const { store: ageStore } = world.process(
        { groupCommit: false, writerId: "writer-age", clock: () => now, sessionTtlMs: 3_600_000 },
        { rollover: { maxAgeMs: 60_000 }, clock: () => now },
      );
      const ageStream = (await ageStore.createStream("rollover-age", { profile: "BOOKKEEPER_WAL_ONLY" })).streamId;
      const first = await ageStore.append(ageStream, opaqueBatch("t0"));
      now += 30_000;
      const second = await ageStore.append(ageStream, opaqueBatch("t30"));
      now += 30_000;
      const third = await ageStore.append(ageStream, opaqueBatch("t60"));
      expect(rangeOf(second).ledgerId).toBe(rangeOf(first).ledgerId);
      expect(rangeOf(third).ledgerId).not.toBe(rangeOf(first).ledgerId);
      expect((await ageStore.read(ageStream, 0)).entries.map((entry) => text(entry.payload))).toEqual([
        "t0",
        "t30",
        "t60",
      ]);
    }),
  );

  it(
    "a restarted process (same writer id, next epoch) recovery-opens its predecessor's ledger and never appends to it",
    withWorld(async (world) => {
      const before = world.process();
      const { streamId } = await before.store.createStream("restart", { profile: "BOOKKEEPER_WAL_ONLY" });
      const old = [
        await before.store.append(streamId, opaqueBatch("one", "two")),
        await before.store.append(streamId, opaqueBatch("three")),
      ];
      const oldLedger = rangeOf(old[0] as AppendResult).ledgerId;
      const after = world.process();
      const next = await after.store.append(streamId, opaqueBatch("four"));
      expect(next.startOffset).toBe(3);
      expect(rangeOf(next).ledgerId).not.toBe(oldLedger);
      expect(rangeOf(next).firstEntryId).toBe(0);
      expect(after.runtime.stats).toMatchObject({
        takeovers: 1,
        recoveryOpens: 1,
        ledgersSealed: 1,
        ledgersCreated: 1,
      });
      expect(await world.root(oldLedger)).toMatchObject({
        lifecycle: "SEALED",
        sealedEntryCount: 3,
        owner: { writerEpoch: 1 },
      });
      expect(await world.writerState(streamId)).toMatchObject({
        lifecycle: "ACTIVE",
        owner: { writerId: "writer-a", writerEpoch: 2 },
        nextSegmentSequence: 2,
      });
      // The previous run is fenced at the head (its session is gone) — and at BookKeeper, had it got that far.
      await expectAppendFailure(before.store.append(streamId, opaqueBatch("zombie")), {
        code: ErrorCode.FENCED_APPEND,
        outcome: "KNOWN_NOT_COMMITTED",
      });
      const ledgerHandle = await inspector.openLedger(BigInt(oldLedger), { recovery: false, password: TEST_PASSWORD });
      expect(ledgerHandle.isClosed).toBe(true);
      expect(ledgerHandle.lastAddConfirmed).toBe(2);
      expect((await after.store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual([
        "one",
        "two",
        "three",
        "four",
      ]);
    }),
  );

  it(
    "close() seals the process's ledgers, so the next owner starts a new ledger without recovery",
    withWorld(async (world) => {
      const first = world.process();
      const { streamId } = await first.store.createStream("closed", { profile: "BOOKKEEPER_WAL_ONLY" });
      const written = await first.store.append(streamId, opaqueBatch("a", "b"));
      await first.store.close();
      await first.runtime.close();
      expect(await world.root(rangeOf(written).ledgerId)).toMatchObject({ lifecycle: "SEALED", sealedEntryCount: 2 });
      expect(await world.writerState(streamId)).toMatchObject({ lifecycle: "IDLE", ledger: undefined });
      const second = world.process({ writerId: "writer-b" });
      await second.store.acquireSession(streamId, { preempt: true });
      expect((await second.store.append(streamId, opaqueBatch("c"))).startOffset).toBe(2);
      expect(second.runtime.stats.recoveryOpens).toBe(0);
      expect((await second.store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual([
        "a",
        "b",
        "c",
      ]);
    }),
  );
});
