// Ownership change on the BookKeeper WAL (issue 6 acceptance), on the harness's real bookies: writer B takes a
// stream while writer A has appends in flight. A is fenced twice — at BookKeeper (B recovery-opens A's ledger, so
// A's later adds fail FENCED_APPEND at the bookies) and at the head CAS (A's session epoch is gone and the ledger
// root A's protection compares has left ACTIVE) — and nothing A wrote after the fence ever becomes visible.
import {
  AppendFailedError,
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
  text,
} from "@nereus/core/testing";
import { loadServices } from "@nereus/test-services";
import { afterAll, describe, expect, it } from "vitest";
import { ledgerHash, ledgerRootKey } from "../src/wal/records/bookkeeper-wal-keys.js";
import { ledgerRootCodec } from "../src/wal/records/ledger-root-codec.js";
import { BookKeeperWalKit, TEST_ALIAS, TEST_PASSWORD, freshCluster, readAll } from "./support/bookkeeper-wal-kit.js";

const kit = new BookKeeperWalKit(loadServices());
const inspector = kit.client();
afterAll(() => kit.close());

function rangeOf(result: AppendResult): BookKeeperEntryRangeTarget {
  if (result.readTarget.type !== "BOOKKEEPER_ENTRY_RANGE")
    throw new Error(`expected a BookKeeper target, got ${result.readTarget.type}`);
  return result.readTarget;
}

interface Pause {
  arm(): Promise<void>;
  release(): void;
  hook(): Promise<void>;
}

/** A step hook that, once armed, stops the next append at its step until released; `arm()` resolves when reached. */
function pause(): Pause {
  let armed: { reached: () => void; released: Promise<void> } | undefined;
  let release: () => void = () => undefined;
  return {
    arm: () =>
      new Promise<void>((reached) => {
        armed = { reached, released: new Promise<void>((done) => (release = done)) };
      }),
    release: () => release(),
    hook: async () => {
      const current = armed;
      if (current === undefined) return;
      armed = undefined;
      current.reached();
      await current.released;
    },
  };
}

async function withHarness(
  test: (harness: AppendProtocolHarness, metadata: InMemoryMetadataStore) => Promise<void>,
): Promise<void> {
  const metadata = new InMemoryMetadataStore();
  const harness = new AppendProtocolHarness(metadata);
  try {
    await test(harness, metadata);
  } finally {
    await harness.dispose();
    await metadata.close();
  }
}

function open(
  harness: AppendProtocolHarness,
  metadata: InMemoryMetadataStore,
  overrides: Partial<StreamStoreOptions> = {},
) {
  const runtime = kit.runtime(metadata, harness.cluster);
  const store = harness.open({
    walWriters: runtime.walWriters,
    walReaders: runtime.walReaders,
    completionCoordinators: runtime.completionCoordinators,
    ...overrides,
  });
  return { runtime, store };
}

async function rootOf(metadata: InMemoryMetadataStore, cluster: string, ledgerId: string) {
  const key = ledgerRootKey(cluster, ledgerHash(TEST_ALIAS, BigInt(ledgerId)));
  const stored = await metadata.get(key);
  if (stored === undefined) throw new Error(`no root for ledger ${ledgerId}`);
  return ledgerRootCodec.decode(stored.value, key);
}

describe("ownership change on the BookKeeper WAL", () => {
  it("A's range, durable before B took over, fails at the head CAS and stays unreachable inside the sealed ledger", () =>
    withHarness(async (harness, metadata) => {
      const gate = pause();
      const a = open(harness, metadata, { stepHooks: { afterWalWrite: () => gate.hook() } });
      const { streamId } = await a.store.createStream("fenced-after-write", { profile: "BOOKKEEPER_WAL_ONLY" });
      const a1 = await a.store.append(streamId, opaqueBatch("a1"));
      const reached = gate.arm();
      const a2 = a.store.append(streamId, opaqueBatch("a2-durable-but-stale"));
      await reached;
      const b = open(harness, metadata, { writerId: "writer-b" });
      expect((await b.store.acquireSession(streamId, { preempt: true })).session).toMatchObject({
        writerId: "writer-b",
        epoch: 2,
      });
      const b1 = await b.store.append(streamId, opaqueBatch("b1"));
      gate.release();
      await expectAppendFailure(a2, {
        code: ErrorCode.FENCED_APPEND,
        outcome: "KNOWN_NOT_COMMITTED",
        retryable: false,
      });
      // A's ledger was recovered with A's durable entry in it, then sealed; B writes a new ledger.
      const oldLedger = rangeOf(a1).ledgerId;
      expect(rangeOf(b1).ledgerId).not.toBe(oldLedger);
      expect(await rootOf(metadata, harness.cluster, oldLedger)).toMatchObject({
        lifecycle: "SEALED",
        sealedEntryCount: 2,
      });
      expect(b.runtime.stats).toMatchObject({ takeovers: 1, recoveryOpens: 1 });
      // ...but the stream never names it.
      expect((await b.store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["a1", "b1"]);
      expect(
        (await harness.reachableCommits(streamId)).map((intent) => [
          intent.writerEpoch,
          (intent.readTarget as BookKeeperEntryRangeTarget).ledgerId,
        ]),
      ).toEqual([
        [2, rangeOf(b1).ledgerId],
        [1, oldLedger],
      ]);
      await expectAppendFailure(a.store.append(streamId, opaqueBatch("a3")), {
        code: ErrorCode.FENCED_APPEND,
        outcome: "KNOWN_NOT_COMMITTED",
      });
      expect((await harness.head(streamId)).committedEndOffset).toBe(2);
    }));

  it("B seals A's ledger between A's protection and A's head CAS (B never reaches its head): FENCED_APPEND, not METADATA_CONDITION_FAILED", () =>
    withHarness(async (harness, metadata) => {
      const gate = pause();
      const a = open(harness, metadata, { stepHooks: { afterProtection: () => gate.hook() } });
      const { streamId } = await a.store.createStream("fenced-at-protection", { profile: "BOOKKEEPER_WAL_ONLY" });
      const a1 = await a.store.append(streamId, opaqueBatch("a1"));
      const reached = gate.arm();
      const a2 = a.store.append(streamId, opaqueBatch("a2-protected-then-sealed"));
      await reached;
      // B plans epoch 2 and recovery-opens (seals) A's ledger in its WAL write, but never commits its head.
      const b = kit.runtime(metadata, harness.cluster);
      await b.writer.persist(
        b.writer.prepare({
          streamId,
          attemptId: "b/1",
          writerId: "writer-b",
          writerEpoch: 2,
          expectedStartOffset: 1,
          payloadFormat: "OPAQUE_RECORD_BATCH",
          entries: [{ payload: new TextEncoder().encode("b-never-committed"), recordCount: 1 }],
        }),
      );
      expect(await rootOf(metadata, harness.cluster, rangeOf(a1).ledgerId)).toMatchObject({ lifecycle: "SEALED" });
      const txnsBefore = metadata.stats.txns;
      gate.release();
      // A's head compare holds (the head is unchanged), its root compare does not: the writer classifies it FENCED.
      await expectAppendFailure(a2, {
        code: ErrorCode.FENCED_APPEND,
        outcome: "KNOWN_NOT_COMMITTED",
        retryable: false,
      });
      expect(metadata.stats.txns).toBe(txnsBefore + 1);
      expect(await harness.head(streamId)).toMatchObject({
        committedEndOffset: 1,
        lastCommitId: a1.commitId,
        session: { writerId: "writer-a", epoch: 1 },
      });
      expect((await a.store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["a1"]);
    }));

  it("A's adds after B's recovery-open fail FENCED_APPEND at the bookies; the sealed ledger ends where B recovered it", () =>
    withHarness(async (harness, metadata) => {
      const gate = pause();
      const a = open(harness, metadata, { stepHooks: { beforeWalWrite: () => gate.hook() } });
      const { streamId } = await a.store.createStream("fenced-at-bookkeeper", { profile: "BOOKKEEPER_WAL_ONLY" });
      const a1 = await a.store.append(streamId, opaqueBatch("a1"));
      const reached = gate.arm();
      const a2 = a.store.append(streamId, opaqueBatch("a2-after-the-fence"));
      await reached;
      const b = open(harness, metadata, { writerId: "writer-b" });
      await b.store.acquireSession(streamId, { preempt: true });
      await b.store.append(streamId, opaqueBatch("b1"));
      const addsBefore = a.runtime.stats.entriesAdded;
      gate.release();
      const failure = await expectAppendFailure(a2, {
        code: ErrorCode.FENCED_APPEND,
        outcome: "KNOWN_NOT_COMMITTED",
        retryable: false,
      });
      // The add reached the bookies and was refused there (not short-circuited by the head).
      expect(a.runtime.stats.entriesAdded).toBe(addsBefore + 1);
      expect(a.runtime.stats.failedWrites).toBe(1);
      expect(failure.message).toMatch(/fenced/);
      const oldLedger = BigInt(rangeOf(a1).ledgerId);
      expect((await inspector.getLedgerMetadata(oldLedger))?.metadata).toMatchObject({
        state: "CLOSED",
        lastEntryId: 0,
      });
      const reader = await inspector.openLedger(oldLedger, { recovery: false, password: TEST_PASSWORD });
      await expect(reader.readUnconfirmedEntries(1, 1)).rejects.toMatchObject({
        code: ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
      });
      expect((await b.store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["a1", "b1"]);
    }));

  it("at the WAL level alone: a stale writer's persisted range can no longer be protected, and its next persist is fenced", async () => {
    const metadata = new InMemoryMetadataStore();
    const cluster = freshCluster("wal-fence");
    try {
      const a = kit.runtime(metadata, cluster).writer;
      const b = kit.runtime(metadata, cluster).writer;
      const request = (writerId: string, writerEpoch: number, payload: string) => ({
        streamId: "s-walfence",
        attemptId: `${writerId}/${payload}`,
        writerId,
        writerEpoch,
        expectedStartOffset: 0,
        payloadFormat: "OPAQUE_RECORD_BATCH" as const,
        entries: [{ payload: new TextEncoder().encode(payload), recordCount: 1 }],
      });
      const stale = await a.persist(a.prepare(request("writer-a", 1, "a1")));
      const protection = await a.protect(stale, "commit-a1", metadata);
      // B (higher epoch) takes the stream's ledgers: recovery-open fences A's ledger and moves its root to SEALED.
      const fresh = await b.persist(b.prepare(request("writer-b", 2, "b1")));
      expect((fresh.readTarget as BookKeeperEntryRangeTarget).ledgerId).not.toBe(
        (stale.readTarget as BookKeeperEntryRangeTarget).ledgerId,
      );
      expect((await metadata.txn({ compares: protection.compares, writes: protection.writes })).succeeded).toBe(false);
      let caught: unknown;
      try {
        await a.persist(a.prepare(request("writer-a", 1, "a2")));
      } catch (error) {
        caught = error;
      }
      expect(NereusError.hasCode(caught, ErrorCode.FENCED_APPEND)).toBe(true);
      // A stale owner that had not written yet is refused before any BookKeeper I/O (its epoch is below B's).
      const late = kit.runtime(metadata, cluster);
      await expect(late.writer.persist(late.writer.prepare(request("writer-c", 1, "c1")))).rejects.toMatchObject({
        code: ErrorCode.FENCED_APPEND,
      });
      expect(late.stats.bookKeeperIo).toBe(0);
    } finally {
      await metadata.close();
    }
  });

  it("a takeover that never reached the head holds the head's writer off for a grace, then the head's writer takes its ledgers back", () =>
    withHarness(async (harness, metadata) => {
      let now = Date.now();
      const runtime = kit.runtime(metadata, harness.cluster, { clock: () => now, takeoverGraceMs: 30_000 });
      const store = harness.open({ ...runtime.storeOptions(), clock: () => now, sessionTtlMs: 3_600_000 });
      const { streamId } = await store.createStream("failed-takeover", { profile: "BOOKKEEPER_WAL_ONLY" });
      const a1 = await store.append(streamId, opaqueBatch("a1"));
      // B plans epoch 2 and seals A's ledger in its WAL write, then dies before its head CAS.
      const b = kit.runtime(metadata, harness.cluster, { clock: () => now }).writer;
      await b.persist(
        b.prepare({
          streamId,
          attemptId: "b/1",
          writerId: "writer-b",
          writerEpoch: 2,
          expectedStartOffset: 1,
          payloadFormat: "OPAQUE_RECORD_BATCH",
          entries: [{ payload: new TextEncoder().encode("b-never-committed"), recordCount: 1 }],
        }),
      );
      expect((await harness.head(streamId)).session).toMatchObject({ writerId: "writer-a", epoch: 1 });
      // A's next add hits its fenced ledger (A drops its session); re-planned at epoch 2 — the epoch B planned — A
      // is held off while B's claim is fresh (B may be about to commit)...
      await expectAppendFailure(store.append(streamId, opaqueBatch("a2-fenced")), {
        code: ErrorCode.FENCED_APPEND,
        outcome: "KNOWN_NOT_COMMITTED",
      });
      await expectAppendFailure(store.append(streamId, opaqueBatch("a3-held-off")), {
        code: ErrorCode.FENCED_APPEND,
        outcome: "KNOWN_NOT_COMMITTED",
      });
      // ...and takes the stream's ledgers back once the claim is older than the grace.
      now += 30_000;
      const a4 = await store.append(streamId, opaqueBatch("a4"));
      expect(a4.startOffset).toBe(1);
      expect(rangeOf(a4).ledgerId).not.toBe(rangeOf(a1).ledgerId);
      expect(runtime.stats.takeovers).toBe(1);
      expect((await store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["a1", "a4"]);
    }));

  for (const how of ["preempts the session first", "steals A's expired session inside its first append"] as const) {
    it(`streaming: B ${how} while A has many appends in flight; every acknowledged append survives, no failed one appears`, () =>
      withHarness(async (harness, metadata) => {
        const a = open(harness, metadata, { groupCommit: { maxBytes: 1 << 20, maxEntries: 32 } });
        const { streamId } = await a.store.createStream("streaming-takeover", { profile: "BOOKKEEPER_WAL_ONLY" });
        const acknowledged = new Map<string, AppendResult>();
        const failed: Array<{ payload: string; error: unknown }> = [];
        let sequence = 0;
        let stop = false;
        const producer = async (): Promise<void> => {
          while (!stop) {
            const payload = `a-${String(sequence++)}`;
            try {
              acknowledged.set(payload, await a.store.append(streamId, opaqueBatch(payload, `${payload}-tail`)));
            } catch (error) {
              failed.push({ payload, error });
              if (failed.length >= 12) return;
            }
          }
        };
        const producers = Array.from({ length: 6 }, producer);
        while (acknowledged.size < 60) await new Promise((resolve) => setImmediate(resolve));
        // B's clock is an hour ahead: A's 30 s session looks expired to it, so B may steal it inside an append.
        const b = open(harness, metadata, { writerId: "writer-b", clock: () => Date.now() + 3_600_000 });
        if (how === "preempts the session first") await b.store.acquireSession(streamId, { preempt: true });
        const fromB: AppendResult[] = [];
        for (let index = 0; index < 20; index++)
          fromB.push(await b.store.append(streamId, opaqueBatch(`b-${String(index)}`)));
        stop = true;
        await Promise.all(producers);
        expect(failed.length).toBeGreaterThan(0);
        for (const { error } of failed) {
          expect(
            AppendFailedError.isAppendFailure(error) && error.outcome === "KNOWN_NOT_COMMITTED",
            `unexpected failure ${String(error)}`,
          ).toBe(true);
          // FENCED_APPEND at the bookies, at the head, or when A's head transaction found the head unchanged but its
          // ledger root no longer ACTIVE (B sealed it before B's own head CAS; classifyProtectionConflict).
          expect((error as AppendFailedError).code).toBe(ErrorCode.FENCED_APPEND);
        }
        const head = await harness.head(streamId);
        expect(head.session).toMatchObject({ writerId: "writer-b", epoch: 2 });
        const read = { entries: await readAll(b.store, streamId) };
        expect(read.entries).toHaveLength(head.committedEndOffset);
        const visible = read.entries.map((entry) => text(entry.payload));
        // Exactly A's acknowledged appends, each at its acknowledged offsets, then B's.
        for (const [payload, result] of acknowledged)
          expect(visible.slice(result.startOffset, result.endOffset)).toEqual([payload, `${payload}-tail`]);
        expect(visible.length).toBe(acknowledged.size * 2 + fromB.length);
        expect(visible.slice(acknowledged.size * 2)).toEqual(fromB.map((_result, index) => `b-${String(index)}`));
        for (const { payload } of failed) expect(visible).not.toContain(payload);
        expect(b.runtime.stats.recoveryOpens).toBe(1);
      }));
  }
});
