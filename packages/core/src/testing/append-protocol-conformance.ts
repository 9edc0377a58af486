// The append-protocol conformance suite: the observable contract of the StreamStore pipeline over a MetadataStore
// (create-or-get, the append example of docs/architecture.md §4.2, dense ranges, group commit, capability and admission before I/O,
// fencing between writers, lifecycle, the read path and its repair, and a crash at every pipeline step boundary
// with its outcome, durable state and recovery). Core runs it against InMemoryMetadataStore; the metadata
// package runs it against SQLite and a real etcd. WAL providers are the in-memory reference ones unless the stack
// supplies its own (`wal`, e.g. a real BookKeeper runtime); tests that need a WAL fault-injection capability are
// registered only when the stack declares it, and the suite name lists the ones left out. Registers vitest tests;
// starts no services.
import { describe, expect, it } from "vitest";
import { APPEND_STEPS, type AppendStep } from "../append/append-step-hooks.js";
import { StableHeadCoordinator } from "../completion/stable-head-coordinator.js";
import type { AppendResult } from "../domain/append-types.js";
import type { StorageProfile } from "../domain/storage-profile.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import {
  AppendProtocolHarness,
  type AppendProtocolWal,
  expectAppendFailure,
  opaqueBatch,
  rangedBatch,
  text,
} from "./append-protocol-harness.js";
import { expectNereusError } from "./rejections.js";

/** What `createStack` hands to the suite: a metadata store (shared across tests is fine: each test uses its own cluster). */
export interface AppendProtocolStack {
  readonly metadata: MetadataStore;
  /** The cluster the test's stores use (default: a fresh one); WAL providers bound to a cluster need it. */
  readonly cluster?: string;
  /** WAL providers of every store of the test (default: the in-memory reference providers, with every capability). */
  readonly wal?: AppendProtocolWal;
  /** Runs after the test closed its stores (e.g. closes the metadata store). */
  readonly cleanup?: () => Promise<void>;
}

/**
 * WAL fault-injection capabilities a stack's `wal` supplies, and the tests that need them:
 * - "corrupt" (`wal.corrupt`): corrupted WAL bytes are detected on read (OBJECT and BOOKKEEPER targets);
 * - "object-persist-faults" (`wal.objectPersistFaults`): a failed or response-lost WAL write leaves nothing visible.
 */
export type AppendProtocolWalCapability = "corrupt" | "object-persist-faults";

export const APPEND_PROTOCOL_WAL_CAPABILITIES: readonly AppendProtocolWalCapability[] = [
  "corrupt",
  "object-persist-faults",
];

export interface AppendProtocolConformanceOptions {
  /**
   * Capabilities every stack's `wal` supplies; a test that needs a missing one is not registered. Default: all
   * (what the in-memory default WAL supplies). Declared up front because tests are registered before any stack exists.
   */
  readonly walCapabilities?: readonly AppendProtocolWalCapability[];
}

/** Test titles left out per missing capability (listed in the suite name). */
const CAPABILITY_TESTS: Readonly<Record<AppendProtocolWalCapability, string>> = {
  corrupt: "corrupted WAL bytes",
  "object-persist-faults": "failed WAL writes",
};

/** Profiles whose commit writes the generation-0 index in the head transaction (and one that does not). */
const PROFILE_CASES: ReadonlyArray<{ readonly profile: StorageProfile; readonly indexInCommit: boolean }> = [
  { profile: "OBJECT_WAL_SYNC_OBJECT", indexInCommit: true },
  { profile: "BOOKKEEPER_WAL_ONLY", indexInCommit: false },
];

const crash = (step: AppendStep): NereusError =>
  new NereusError(ErrorCode.CANCELLED, `simulated crash at ${step}`, { retryable: false });

export function describeAppendProtocolConformance(
  name: string,
  createStack: () => Promise<AppendProtocolStack>,
  options: AppendProtocolConformanceOptions = {},
): void {
  const capabilities = new Set(options.walCapabilities ?? APPEND_PROTOCOL_WAL_CAPABILITIES);
  const missing = APPEND_PROTOCOL_WAL_CAPABILITIES.filter((capability) => !capabilities.has(capability));
  /** `it`, registered only when the stacks supply `capability`. */
  const itWith = (capability: AppendProtocolWalCapability): typeof it | ((...args: unknown[]) => void) =>
    capabilities.has(capability) ? it : () => undefined;
  const suiteName =
    missing.length === 0
      ? `append protocol conformance: ${name}`
      : `append protocol conformance: ${name} (left out, no WAL capability: ${missing.map((capability) => `${CAPABILITY_TESTS[capability]} [${capability}]`).join(", ")})`;
  const withHarness = (test: (harness: AppendProtocolHarness) => Promise<void>) => async (): Promise<void> => {
    const stack = await createStack();
    const harness = new AppendProtocolHarness(stack.metadata, stack.cluster, stack.wal);
    try {
      await test(harness);
    } finally {
      await harness.dispose();
      await stack.cleanup?.();
    }
  };

  describe(suiteName, () => {
    describe("create-or-get", () => {
      it(
        "creates once by deterministic id, canonicalizes OBJECT_WAL and keeps an existing stream's profile",
        withHarness(async (harness) => {
          const store = harness.open();
          const first = await store.createStream("orders", { profile: "OBJECT_WAL", attributes: { team: "a" } });
          expect(first.created).toBe(true);
          expect(first.head).toMatchObject({
            profile: "OBJECT_WAL_SYNC_OBJECT",
            state: "ACTIVE",
            committedEndOffset: 0,
            commitVersion: 0,
            lastCommitId: "",
          });
          const again = await harness
            .open({ writerId: "writer-b" })
            .createStream("orders", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          expect(again).toMatchObject({ streamId: first.streamId, created: false });
          expect(again.head.attributes).toEqual({ team: "a" });
          const mismatch = await expectNereusError(
            store.createStream("orders", { profile: "BOOKKEEPER_WAL_ONLY" }),
            ErrorCode.STREAM_ALREADY_EXISTS,
          );
          expect(mismatch.message).toContain("OBJECT_WAL_SYNC_OBJECT");
          expect(mismatch.message).toContain("BOOKKEEPER_WAL_ONLY");
          expect((await harness.head(first.streamId)).profile).toBe("OBJECT_WAL_SYNC_OBJECT");
        }),
      );

      it(
        "reports unknown streams as STREAM_NOT_FOUND (append: KNOWN_NOT_COMMITTED)",
        withHarness(async (harness) => {
          const store = harness.open();
          await expectNereusError(store.getHead("s-doesnotexist"), ErrorCode.STREAM_NOT_FOUND);
          await expectAppendFailure(store.append("s-doesnotexist", opaqueBatch("x")), {
            code: ErrorCode.STREAM_NOT_FOUND,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          expect(harness.walIo()).toBe(0);
        }),
      );
    });

    describe("append", () => {
      it(
        "append example: head at 100, ranged entries of 3 and 2 records commit [100,105) and bump the version once",
        withHarness(async (harness) => {
          const store = harness.open();
          const { streamId } = await store.createStream("kafka-0", { profile: "BOOKKEEPER_WAL_ONLY" });
          await store.append(streamId, rangedBatch(["first", 100]));
          const before = await harness.head(streamId);
          expect(before.committedEndOffset).toBe(100);
          const result = await store.append(streamId, rangedBatch(["batch-a", 3], ["bb", 2]), {
            expectedStartOffset: 100,
          });
          const after = await harness.head(streamId);
          expect(result).toMatchObject({
            streamId,
            startOffset: 100,
            endOffset: 105,
            committedEndOffset: 105,
            cumulativeSize: before.cumulativeSize + 9,
            commitVersion: before.commitVersion + 1,
            generation: 0,
            payloadFormat: "KAFKA_RECORD_BATCH",
            recordCount: 5,
            entryCount: 2,
            logicalBytes: 9,
          });
          expect(result.readTarget.type).toBe("BOOKKEEPER_ENTRY_RANGE");
          expect(after).toMatchObject({
            committedEndOffset: 105,
            commitVersion: before.commitVersion + 1,
            lastCommitId: result.commitId,
            cumulativeSize: result.cumulativeSize,
          });
          const [latest] = await harness.reachableCommits(streamId);
          expect(latest).toMatchObject({
            commitId: result.commitId,
            offsetStart: 100,
            offsetEnd: 105,
            entryRecordCounts: [3, 2],
            readTarget: result.readTarget,
          });
          const read = await store.read(streamId, 102);
          expect(read.entries.map((entry) => [entry.offset, entry.recordCount, text(entry.payload)])).toEqual([
            [100, 3, "batch-a"],
            [103, 2, "bb"],
          ]);
          expect(read).toMatchObject({ nextOffset: 105, endOfStream: true, committedEndOffset: 105 });
        }),
      );

      it(
        "commits dense ranges in call order and reads back the exact bytes (opaque: one offset per entry)",
        withHarness(async (harness) => {
          const store = harness.open({ groupCommit: false });
          const { streamId } = await store.createStream("dense", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
          const results: AppendResult[] = [];
          for (let index = 0; index < 5; index++)
            results.push(await store.append(streamId, opaqueBatch(`m${String(index)}`, "", `n${String(index)}`)));
          expect(results.map((result) => [result.startOffset, result.endOffset, result.commitVersion])).toEqual([
            [0, 3, 1],
            [3, 6, 2],
            [6, 9, 3],
            [9, 12, 4],
            [12, 15, 5],
          ]);
          const read = await store.read(streamId, 0);
          expect(read.entries.map((entry) => text(entry.payload))).toEqual(
            results.flatMap((_result, index) => [`m${String(index)}`, "", `n${String(index)}`]),
          );
          expect(read.entries.map((entry) => entry.offset)).toEqual(
            Array.from({ length: 15 }, (_value, index) => index),
          );
          expect((await harness.reachableCommits(streamId)).map((intent) => intent.commitId)).toEqual(
            results.map((result) => result.commitId).reverse(),
          );
        }),
      );

      it(
        "rejects invalid batches with INVALID_ARGUMENT before any I/O",
        withHarness(async (harness) => {
          const store = harness.open();
          const { streamId } = await store.createStream("invalid", { profile: "BOOKKEEPER_WAL_ONLY" });
          const cases = [
            { payloadFormat: "OPAQUE_RECORD_BATCH" as const, entries: [] },
            {
              payloadFormat: "OPAQUE_RECORD_BATCH" as const,
              entries: [{ payload: new Uint8Array(1), recordCount: 2 }],
            },
            { payloadFormat: "KAFKA_RECORD_BATCH" as const, entries: [{ payload: new Uint8Array(1), recordCount: 0 }] },
            {
              payloadFormat: "KAFKA_RECORD_BATCH" as const,
              entries: [{ payload: new Uint8Array(1), recordCount: 2 ** 31 }],
            },
            {
              payloadFormat: "KAFKA_RECORD_BATCH" as const,
              entries: [{ payload: new Uint8Array(1), recordCount: 1.5 }],
            },
          ];
          for (const batch of cases) {
            await expectAppendFailure(store.append(streamId, batch), {
              code: ErrorCode.INVALID_ARGUMENT,
              outcome: "KNOWN_NOT_COMMITTED",
              retryable: false,
            });
          }
          await expectAppendFailure(store.append(streamId, opaqueBatch("x"), { expectedStartOffset: -1 }), {
            code: ErrorCode.INVALID_ARGUMENT,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          expect(harness.walIo()).toBe(0);
          expect((await harness.head(streamId)).commitVersion).toBe(0);
        }),
      );

      it(
        "checks expectedStartOffset against the committed end before WAL I/O (OFFSET_CONFLICT)",
        withHarness(async (harness) => {
          const store = harness.open();
          const { streamId } = await store.createStream("expected", { profile: "BOOKKEEPER_WAL_ONLY" });
          await store.append(streamId, opaqueBatch("a", "b"), { expectedStartOffset: 0 });
          const io = harness.walIo();
          for (const expectedStartOffset of [0, 1, 3, 1000]) {
            await expectAppendFailure(store.append(streamId, opaqueBatch("c"), { expectedStartOffset }), {
              code: ErrorCode.OFFSET_CONFLICT,
              outcome: "KNOWN_NOT_COMMITTED",
            });
          }
          expect(harness.walIo()).toBe(io);
          // Another process moved the end: this lane's cached end (2) lags the expectation (3), so it reads the head
          // again before deciding — and then finds it was fenced, not that the offset conflicts.
          const other = harness.open();
          await other.append(streamId, opaqueBatch("from-other"), { expectedStartOffset: 2 });
          await expectAppendFailure(store.append(streamId, opaqueBatch("stale"), { expectedStartOffset: 3 }), {
            code: ErrorCode.FENCED_APPEND,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          expect((await harness.head(streamId)).committedEndOffset).toBe(3);
        }),
      );

      it(
        "fails closed on an unsupported profile or durability before any physical I/O",
        withHarness(async (harness) => {
          const full = harness.open();
          const bk = await full.createStream("needs-bk", { profile: "BOOKKEEPER_WAL_ONLY" });
          const syncObject = await full.createStream("sync-object", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          const asyncObject = await full.createStream("async-object", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
          const { walWriters, walReaders } = harness.wal;
          const objectOnly = harness.open({
            walWriters: walWriters.filter((writer) => writer.walKind === "OBJECT"),
            walReaders: walReaders.filter((reader) => !reader.targetTypes.includes("BOOKKEEPER_ENTRY_RANGE")),
          });
          const noReader = harness.open({
            walReaders: walReaders.filter((reader) => !reader.targetTypes.includes("BOOKKEEPER_ENTRY_RANGE")),
          });
          const preparesBefore = harness.wal.prepares?.();
          const stableOnly = harness.open({ completionCoordinators: [new StableHeadCoordinator()] });
          const ioBefore = harness.walIo();
          await expectNereusError(
            objectOnly.createStream("new-bk", { profile: "BOOKKEEPER_WAL_ONLY" }),
            ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
          );
          await expectNereusError(
            objectOnly.createStream("new-sync-bk", { profile: "BOOKKEEPER_WAL_SYNC_OBJECT" }),
            ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
          );
          await expectAppendFailure(objectOnly.append(bk.streamId, opaqueBatch("x")), {
            code: ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
            outcome: "KNOWN_NOT_COMMITTED",
            retryable: false,
          });
          await expectAppendFailure(noReader.append(bk.streamId, opaqueBatch("x")), {
            code: ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          await expectAppendFailure(stableOnly.append(syncObject.streamId, opaqueBatch("x")), {
            code: ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          await expectAppendFailure(
            stableOnly.append(asyncObject.streamId, opaqueBatch("x"), {
              durability: "WAL_DURABLE_AND_INDEX_COMMITTED",
            }),
            {
              code: ErrorCode.UNSUPPORTED_DURABILITY_LEVEL,
              outcome: "KNOWN_NOT_COMMITTED",
            },
          );
          await expectAppendFailure(full.append(syncObject.streamId, opaqueBatch("x"), { durability: "WAL_DURABLE" }), {
            code: ErrorCode.UNSUPPORTED_DURABILITY_LEVEL,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          await expectAppendFailure(
            full.append(asyncObject.streamId, opaqueBatch("x"), { completionPolicy: "REQUIRED_OBJECT_GENERATION" }),
            {
              code: ErrorCode.UNSUPPORTED_DURABILITY_LEVEL,
              outcome: "KNOWN_NOT_COMMITTED",
            },
          );
          expect(harness.walIo()).toBe(ioBefore);
          expect(harness.wal.prepares?.()).toBe(preparesBefore);
          // The same streams append fine where the capability exists, and a stronger explicit boundary is honoured.
          const upgraded = await full.append(asyncObject.streamId, opaqueBatch("x"), {
            durability: "WAL_DURABLE_AND_INDEX_COMMITTED",
          });
          expect((await harness.indexEntries(asyncObject.streamId)).map((entry) => entry.commitId)).toEqual([
            upgraded.commitId,
          ]);
        }),
      );

      it(
        "runs admission hooks before WAL I/O; a rejection is retriable BACKPRESSURE_REJECTED",
        withHarness(async (harness) => {
          let admit = false;
          const store = harness.open({
            admissionHooks: [
              {
                admit: async (streamId) => {
                  if (!admit) throw new NereusError(ErrorCode.BACKPRESSURE_REJECTED, `lag too high on ${streamId}`);
                },
              },
            ],
          });
          const { streamId } = await store.createStream("admission", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
          await expectAppendFailure(store.append(streamId, opaqueBatch("x")), {
            code: ErrorCode.BACKPRESSURE_REJECTED,
            outcome: "KNOWN_NOT_COMMITTED",
            retryable: true,
          });
          expect(harness.walIo()).toBe(0);
          admit = true;
          expect((await store.append(streamId, opaqueBatch("x"))).startOffset).toBe(0);
        }),
      );

      for (const { profile, indexInCommit } of PROFILE_CASES) {
        it(
          `${profile}: the commit ${indexInCommit ? "writes" : "defers"} the generation-0 index; reads see every range either way`,
          withHarness(async (harness) => {
            const store = harness.open();
            const { streamId } = await store.createStream(`index-${profile}`, { profile });
            const results = [
              await store.append(streamId, opaqueBatch("a")),
              await store.append(streamId, opaqueBatch("b", "c")),
            ];
            expect((await harness.indexEntries(streamId)).length).toBe(indexInCommit ? 2 : 0);
            expect((await store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual([
              "a",
              "b",
              "c",
            ]);
            const index = await harness.indexEntries(streamId);
            expect(
              index.map((entry) => [entry.offsetStart, entry.offsetEnd, entry.generation, entry.commitId]),
            ).toEqual(results.map((result) => [result.startOffset, result.endOffset, 0, result.commitId]));
          }),
        );
      }
    });

    describe("group commit", () => {
      it(
        "merges appends queued behind an in-flight one into fewer commits; each caller gets exactly its own range",
        withHarness(async (harness) => {
          const store = harness.open({ groupCommit: { maxBytes: 1 << 20, maxEntries: 8 } });
          const { streamId } = await store.createStream("grouped", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          const batches = Array.from({ length: 24 }, (_value, index) =>
            index % 3 === 0
              ? rangedBatch([`r${String(index)}`, 1 + (index % 4)])
              : rangedBatch([`p${String(index)}`, 1], [`q${String(index)}`, 2]),
          );
          const results = await Promise.all(batches.map((batch) => store.append(streamId, batch)));
          const head = await harness.head(streamId);
          expect(head.commitVersion).toBeLessThan(batches.length);
          let expectedStart = 0;
          results.forEach((result, index) => {
            const batch = batches[index];
            const records = batch?.entries.reduce((sum, entry) => sum + entry.recordCount, 0) ?? 0;
            const bytes = batch?.entries.reduce((sum, entry) => sum + entry.payload.byteLength, 0) ?? 0;
            expect(result).toMatchObject({
              startOffset: expectedStart,
              endOffset: expectedStart + records,
              recordCount: records,
              entryCount: batch?.entries.length,
              logicalBytes: bytes,
            });
            expectedStart += records;
          });
          expect(head.committedEndOffset).toBe(expectedStart);
          expect(results.at(-1)?.cumulativeSize).toBe(head.cumulativeSize);
          const commits = await harness.reachableCommits(streamId);
          expect(commits).toHaveLength(head.commitVersion);
          for (const commit of commits) {
            const members = results.filter((result) => result.commitId === commit.commitId);
            expect(members.length).toBeGreaterThan(0);
            expect(members.reduce((sum, result) => sum + result.entryCount, 0)).toBeLessThanOrEqual(8);
            for (const member of members) {
              expect(member).toMatchObject({
                commitVersion: commit.commitVersion,
                readTarget: commit.readTarget,
                committedEndOffset: commit.offsetEnd,
              });
            }
            expect(members[0]?.startOffset).toBe(commit.offsetStart);
            expect(members.at(-1)?.endOffset).toBe(commit.offsetEnd);
          }
          for (const [index, result] of results.entries()) {
            const read = await store.read(streamId, result.startOffset, { maxRecords: result.recordCount });
            expect(read.entries.map((entry) => text(entry.payload))).toEqual(
              batches[index]?.entries.map((entry) => text(entry.payload)),
            );
          }
        }),
      );
      it(
        "honours each member's expectedStartOffset inside a group; a wrong expectation fails only that member (OFFSET_CONFLICT)",
        withHarness(async (harness) => {
          const store = harness.open({ groupCommit: { maxBytes: 1 << 20, maxEntries: 64 } });
          const { streamId } = await store.createStream("grouped-expected", { profile: "BOOKKEEPER_WAL_ONLY" });
          const first = await Promise.all(
            [0, 2, 4, 6].map((start, index) =>
              store.append(streamId, rangedBatch([`a${String(index)}`, 2]), { expectedStartOffset: start }),
            ),
          );
          expect(first.map((result) => result.startOffset)).toEqual([0, 2, 4, 6]);
          const mixed = [8, 10, 99, 12].map((start, index) =>
            store.append(streamId, rangedBatch([`b${String(index)}`, 2]), { expectedStartOffset: start }),
          );
          // Settle all members first: the conflicting member may reject before the others resolve.
          await Promise.allSettled(mixed);
          expect((await mixed[0])?.startOffset).toBe(8);
          expect((await mixed[1])?.startOffset).toBe(10);
          await expectAppendFailure(mixed[2] as Promise<AppendResult>, {
            code: ErrorCode.OFFSET_CONFLICT,
            outcome: "KNOWN_NOT_COMMITTED",
            retryable: true,
          });
          expect((await mixed[3])?.startOffset).toBe(12);
          expect((await harness.head(streamId)).committedEndOffset).toBe(14);
        }),
      );
    });

    describe("sessions and fencing", () => {
      it(
        "a newer epoch fences the older writer: its in-flight append fails FENCED_APPEND and never becomes visible",
        withHarness(async (harness) => {
          let pause: { reached: () => void; release: Promise<void> } | undefined;
          const store = harness.open({
            stepHooks: {
              afterWalWrite: async () => {
                if (pause === undefined) return;
                const current = pause;
                pause = undefined;
                current.reached();
                await current.release;
              },
            },
          });
          const { streamId } = await store.createStream("fenced", { profile: "BOOKKEEPER_WAL_ONLY" });
          await store.append(streamId, opaqueBatch("a1"));
          let release: () => void = () => undefined;
          const reached = new Promise<void>((resolve) => {
            pause = { reached: resolve, release: new Promise<void>((done) => (release = done)) };
          });
          const inFlight = store.append(streamId, opaqueBatch("a2"));
          await reached;
          const newOwner = harness.open({ writerId: "writer-b" });
          const taken = await newOwner.acquireSession(streamId, { preempt: true });
          expect(taken.session).toMatchObject({ writerId: "writer-b", epoch: 2 });
          const b1 = await newOwner.append(streamId, opaqueBatch("b1"));
          release();
          await expectAppendFailure(inFlight, {
            code: ErrorCode.FENCED_APPEND,
            outcome: "KNOWN_NOT_COMMITTED",
            retryable: false,
          });
          expect(b1.startOffset).toBe(1);
          expect((await newOwner.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["a1", "b1"]);
          expect((await harness.reachableCommits(streamId)).map((intent) => intent.writerEpoch)).toEqual([2, 1]);
          await expectAppendFailure(store.append(streamId, opaqueBatch("a3")), {
            code: ErrorCode.FENCED_APPEND,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          expect((await harness.head(streamId)).committedEndOffset).toBe(2);
        }),
      );

      it(
        "a live session of another writer fences; an expired one is taken over with a higher epoch",
        withHarness(async (harness) => {
          let now = 1_000_000;
          const clock = (): number => now;
          const a = harness.open({ clock, sessionTtlMs: 1_000 });
          const b = harness.open({ clock, sessionTtlMs: 1_000, writerId: "writer-b" });
          const { streamId } = await a.createStream("expiry", { profile: "BOOKKEEPER_WAL_ONLY" });
          await a.append(streamId, opaqueBatch("a"));
          await expectAppendFailure(b.append(streamId, opaqueBatch("b")), {
            code: ErrorCode.FENCED_APPEND,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          now += 5_000;
          const stolen = await b.append(streamId, opaqueBatch("b"));
          expect(stolen.startOffset).toBe(1);
          expect((await harness.head(streamId)).session).toMatchObject({ writerId: "writer-b", epoch: 2 });
          await expectAppendFailure(a.append(streamId, opaqueBatch("late")), {
            code: ErrorCode.FENCED_APPEND,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          const noSteal = harness.open({
            clock,
            sessionTtlMs: 1_000,
            writerId: "writer-c",
            stealExpiredSessions: false,
          });
          now += 5_000;
          await expectAppendFailure(noSteal.append(streamId, opaqueBatch("c")), {
            code: ErrorCode.APPEND_SESSION_EXPIRED,
            outcome: "KNOWN_NOT_COMMITTED",
          });
        }),
      );

      it(
        "renews the lease inside a later commit when little of it remains (same epoch and token)",
        withHarness(async (harness) => {
          let now = 1_000_000;
          const store = harness.open({ clock: () => now, sessionTtlMs: 3_000, sessionRenewBeforeMs: 1_000 });
          const { streamId } = await store.createStream("renew", { profile: "BOOKKEEPER_WAL_ONLY" });
          await store.append(streamId, opaqueBatch("a"));
          const acquired = (await harness.head(streamId)).session;
          now += 2_500;
          await store.append(streamId, opaqueBatch("b"));
          const renewed = (await harness.head(streamId)).session;
          expect(renewed).toMatchObject({
            epoch: acquired?.epoch,
            fencingToken: acquired?.fencingToken,
            leaseVersion: (acquired?.leaseVersion ?? 0) + 1,
            expiresAtMillis: now + 3_000,
          });
        }),
      );

      it(
        "a restarted process with the same writer id takes a new epoch and fences its previous run",
        withHarness(async (harness) => {
          const first = harness.open();
          const { streamId } = await first.createStream("restart", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
          await first.append(streamId, opaqueBatch("one", "two"));
          const second = harness.open();
          const result = await second.append(streamId, opaqueBatch("three"));
          expect(result.startOffset).toBe(2);
          expect((await harness.head(streamId)).session?.epoch).toBe(2);
          await expectAppendFailure(first.append(streamId, opaqueBatch("zombie")), {
            code: ErrorCode.FENCED_APPEND,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          expect((await second.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual([
            "one",
            "two",
            "three",
          ]);
        }),
      );
    });

    describe("lifecycle", () => {
      it(
        "seal waits for earlier appends, then appends fail STREAM_NOT_ACTIVE while reads and trim still work",
        withHarness(async (harness) => {
          const store = harness.open();
          const { streamId } = await store.createStream("sealed", { profile: "BOOKKEEPER_WAL_ONLY" });
          const appends = [store.append(streamId, opaqueBatch("a")), store.append(streamId, opaqueBatch("b"))];
          const sealed = store.seal(streamId);
          const late = expectAppendFailure(store.append(streamId, opaqueBatch("late")), {
            code: ErrorCode.STREAM_NOT_ACTIVE,
            outcome: "KNOWN_NOT_COMMITTED",
            retryable: false,
          });
          await Promise.all(appends);
          expect(await sealed).toMatchObject({ state: "SEALED", committedEndOffset: 2 });
          await late;
          expect((await store.seal(streamId)).state).toBe("SEALED");
          expect((await store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["a", "b"]);
          expect((await store.trim(streamId, 1)).trimOffset).toBe(1);
          const other = harness.open({ writerId: "writer-b" });
          await expectAppendFailure(other.append(streamId, opaqueBatch("x")), {
            code: ErrorCode.STREAM_NOT_ACTIVE,
            outcome: "KNOWN_NOT_COMMITTED",
          });
        }),
      );

      it(
        "trim is monotone, bounded by the committed end, and reads below it fail OFFSET_TRIMMED",
        withHarness(async (harness) => {
          const store = harness.open();
          const { streamId } = await store.createStream("trimmed", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          await store.append(streamId, opaqueBatch("0", "1", "2", "3", "4"));
          expect((await store.trim(streamId, 3)).trimOffset).toBe(3);
          await expectNereusError(store.read(streamId, 2), ErrorCode.OFFSET_TRIMMED);
          expect((await store.read(streamId, 3)).entries.map((entry) => text(entry.payload))).toEqual(["3", "4"]);
          expect((await store.trim(streamId, 1)).trimOffset).toBe(3);
          await expectNereusError(store.trim(streamId, 6), ErrorCode.INVALID_ARGUMENT);
          const head = await harness.head(streamId);
          expect(head).toMatchObject({ trimOffset: 3, committedEndOffset: 5, commitVersion: 1 });
          // Trim changes the head between appends: the next append's CAS still commits (compatible change).
          expect((await store.append(streamId, opaqueBatch("5"))).startOffset).toBe(5);
          expect((await harness.open({ writerId: "writer-b" }).trim(streamId, 4)).trimOffset).toBe(4);
          expect((await store.append(streamId, opaqueBatch("6"))).startOffset).toBe(6);
        }),
      );

      it(
        "delete goes ACTIVE → DELETING → DELETED, is idempotent, and refuses reads, appends and seal",
        withHarness(async (harness) => {
          const store = harness.open();
          const { streamId } = await store.createStream("deleted", { profile: "BOOKKEEPER_WAL_ONLY" });
          await store.append(streamId, opaqueBatch("a"));
          expect((await store.delete(streamId)).state).toBe("DELETED");
          expect((await harness.head(streamId)).committedEndOffset).toBe(1);
          expect((await store.delete(streamId)).state).toBe("DELETED");
          await expectNereusError(store.read(streamId, 0), ErrorCode.STREAM_NOT_ACTIVE);
          await expectNereusError(store.seal(streamId), ErrorCode.STREAM_NOT_ACTIVE);
          await expectNereusError(store.trim(streamId, 0), ErrorCode.STREAM_NOT_ACTIVE);
          await expectAppendFailure(store.append(streamId, opaqueBatch("b")), {
            code: ErrorCode.STREAM_NOT_ACTIVE,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          expect((await store.createStream("deleted", { profile: "BOOKKEEPER_WAL_ONLY" })).head.state).toBe("DELETED");
        }),
      );
    });

    describe("read path", () => {
      it(
        "returns whole entries within record/byte budgets, at least one, and empty with endOfStream at the end",
        withHarness(async (harness) => {
          const store = harness.open();
          const { streamId } = await store.createStream("budgets", { profile: "BOOKKEEPER_WAL_ONLY" });
          await store.append(streamId, rangedBatch(["aaaaaaaaaa", 3], ["bbbbbbbbbb", 2], ["cccccccccc", 4]));
          await store.append(streamId, rangedBatch(["dddddddddd", 1]));
          const offsets = async (offset: number, options = {}): Promise<number[]> =>
            (await store.read(streamId, offset, options)).entries.map((entry) => entry.offset);
          expect(await offsets(4)).toEqual([3, 5, 9]);
          expect(await offsets(0, { maxRecords: 5 })).toEqual([0, 3]);
          expect(await offsets(0, { maxRecords: 1 })).toEqual([0]);
          expect(await offsets(0, { maxBytes: 25 })).toEqual([0, 3]);
          expect(await offsets(0, { maxBytes: 1 })).toEqual([0]);
          const partial = await store.read(streamId, 0, { maxRecords: 5 });
          expect(partial).toMatchObject({
            requestedOffset: 0,
            nextOffset: 5,
            endOfStream: false,
            committedEndOffset: 10,
          });
          expect(await store.read(streamId, 10)).toMatchObject({ entries: [], nextOffset: 10, endOfStream: true });
          expect(await store.read(streamId, 50)).toMatchObject({ entries: [], nextOffset: 50, endOfStream: true });
          await expectNereusError(store.read(streamId, -1), ErrorCode.INVALID_ARGUMENT);
          await expectNereusError(store.read(streamId, 0, { maxRecords: 0 }), ErrorCode.INVALID_ARGUMENT);
        }),
      );

      it(
        "repairs a missing generation-0 index entry from the commit chain instead of reporting end of stream",
        withHarness(async (harness) => {
          const store = harness.open();
          const { streamId } = await store.createStream("repair", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          const results = [
            await store.append(streamId, opaqueBatch("a")),
            await store.append(streamId, opaqueBatch("b")),
            await store.append(streamId, opaqueBatch("c")),
          ];
          const middle = results[1] as AppendResult;
          await harness.metadata.txn({
            compares: [],
            writes: [{ type: "delete", key: harness.keyspace.indexKey(streamId, middle.endOffset, 0) }],
          });
          expect(await harness.indexEntries(streamId)).toHaveLength(2);
          const read = await store.read(streamId, 1);
          expect(read.entries.map((entry) => text(entry.payload))).toEqual(["b", "c"]);
          expect((await harness.indexEntries(streamId)).map((entry) => entry.commitId)).toEqual(
            results.map((result) => result.commitId),
          );
        }),
      );

      itWith("corrupt")(
        "detects corrupted WAL bytes (checksum error, never wrong data)",
        withHarness(async (harness) => {
          const store = harness.open();
          for (const profile of ["OBJECT_WAL_ASYNC_OBJECT", "BOOKKEEPER_WAL_ONLY"] as const) {
            const { streamId } = await store.createStream(`corrupt-${profile.toLowerCase()}`, { profile });
            const result = await store.append(streamId, opaqueBatch("precious"));
            if (harness.wal.corrupt === undefined)
              throw new Error("the stack declared corrupt but its wal has no corrupt");
            await harness.wal.corrupt(result.readTarget);
            await expectNereusError(store.read(streamId, 0), ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH);
          }
        }),
      );
    });

    describe("failures and recovery", () => {
      itWith("object-persist-faults")(
        "a WAL write that fails (or whose response is lost) is KNOWN_NOT_COMMITTED and leaves nothing visible",
        withHarness(async (harness) => {
          const faults = harness.wal.objectPersistFaults;
          if (faults === undefined)
            throw new Error("the stack declared object-persist-faults but its wal has no objectPersistFaults");
          const store = harness.open();
          const { streamId } = await store.createStream("wal-faults", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          const targetsBefore = faults.targetCount();
          faults.add("fail-before-persist");
          await expectAppendFailure(store.append(streamId, opaqueBatch("x")), {
            code: ErrorCode.PRIMARY_WAL_WRITE_FAILED,
            outcome: "KNOWN_NOT_COMMITTED",
            retryable: true,
          });
          faults.add("persist-then-lose-response");
          await expectAppendFailure(store.append(streamId, opaqueBatch("y")), {
            code: ErrorCode.PRIMARY_WAL_WRITE_FAILED,
            outcome: "KNOWN_NOT_COMMITTED",
            retryable: true,
          });
          expect(faults.targetCount()).toBe(targetsBefore + 1);
          expect(await harness.head(streamId)).toMatchObject({ committedEndOffset: 0, commitVersion: 0 });
          const retried = await store.append(streamId, opaqueBatch("y"));
          expect(retried.startOffset).toBe(0);
          expect((await store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["y"]);
        }),
      );

      it(
        "recoverAppend refuses an attempt id this process never issued",
        withHarness(async (harness) => {
          const store = harness.open();
          const { streamId } = await store.createStream("unknown-attempt", { profile: "BOOKKEEPER_WAL_ONLY" });
          await expectNereusError(store.recoverAppend(streamId, "nope/1"), ErrorCode.UNKNOWN_APPEND_ATTEMPT);
        }),
      );

      for (const { profile, indexInCommit } of PROFILE_CASES) {
        for (const step of APPEND_STEPS) {
          const committed = step === "afterHeadCommit" || step === "afterCompletion";
          it(
            `${profile}: a crash at ${step} is ${committed ? "KNOWN_COMMITTED and recovers the original result" : "KNOWN_NOT_COMMITTED with nothing visible"}`,
            withHarness(async (harness) => {
              let armed = false;
              const store = harness.open({
                autoRecovery: false,
                stepHooks: {
                  [step]: () => {
                    if (armed) {
                      armed = false;
                      throw crash(step);
                    }
                  },
                },
              });
              const { streamId } = await store.createStream(`crash-${step}`, { profile });
              const first = await store.append(streamId, opaqueBatch("before"));
              armed = true;
              const failure = await expectAppendFailure(store.append(streamId, opaqueBatch("crash-1", "crash-2")), {
                code: ErrorCode.CANCELLED,
                outcome: committed ? "KNOWN_COMMITTED" : "KNOWN_NOT_COMMITTED",
                retryable: false,
              });
              const head = await harness.head(streamId);
              const reachable = await harness.reachableCommits(streamId);
              if (!committed) {
                expect(head).toMatchObject({ committedEndOffset: 1, commitVersion: 1, lastCommitId: first.commitId });
                expect(reachable.map((intent) => intent.commitId)).toEqual([first.commitId]);
                expect((await harness.indexEntries(streamId)).filter((entry) => entry.offsetStart >= 1)).toEqual([]);
                expect((await store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["before"]);
                // Retrying is safe and lands exactly where the failed attempt would have.
                const retried = await store.append(streamId, opaqueBatch("crash-1", "crash-2"));
                expect(retried).toMatchObject({ startOffset: 1, endOffset: 3, commitVersion: 2 });
                return;
              }
              expect(head).toMatchObject({ committedEndOffset: 3, commitVersion: 2 });
              const [latest] = reachable;
              expect(latest).toMatchObject({ offsetStart: 1, offsetEnd: 3, commitId: head.lastCommitId });
              const indexedNow = (await harness.indexEntries(streamId)).some(
                (entry) => entry.commitId === latest?.commitId,
              );
              expect(indexedNow).toBe(indexInCommit);
              const recovered = await store.recoverAppend(streamId, failure.attemptId ?? "");
              expect(recovered).toMatchObject({
                streamId,
                startOffset: 1,
                endOffset: 3,
                commitVersion: 2,
                commitId: latest?.commitId,
                generation: 0,
                readTarget: latest?.readTarget,
              });
              expect(await store.recoverAppend(streamId, failure.attemptId ?? "")).toEqual(recovered);
              expect((await harness.indexEntries(streamId)).some((entry) => entry.commitId === latest?.commitId)).toBe(
                true,
              );
              expect(
                (await harness.open({ writerId: "reader" }).read(streamId, 0)).entries.map((entry) =>
                  text(entry.payload),
                ),
              ).toEqual(["before", "crash-1", "crash-2"]);
              expect((await store.append(streamId, opaqueBatch("after"))).startOffset).toBe(3);
            }),
          );
        }
      }

      it(
        "a new process on the same metadata reads every acknowledged range and continues at the committed end",
        withHarness(async (harness) => {
          const first = harness.open();
          const { streamId } = await first.createStream("restart-read", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
          const acknowledged = [
            await first.append(streamId, opaqueBatch("a", "b")),
            await first.append(streamId, opaqueBatch("c")),
          ];
          await first.close();
          const second = harness.open();
          expect((await second.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["a", "b", "c"]);
          expect((await second.append(streamId, opaqueBatch("d"))).startOffset).toBe(acknowledged.at(-1)?.endOffset);
          await expectAppendFailure(first.append(streamId, opaqueBatch("closed")), {
            code: ErrorCode.STORAGE_CLOSED,
            outcome: "KNOWN_NOT_COMMITTED",
          });
        }),
      );
    });
  });
}
