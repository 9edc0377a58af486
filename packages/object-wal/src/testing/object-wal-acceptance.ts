// The Object WAL acceptance suite (issue 4): the observable contract of both Object WAL profiles end to end —
// StreamStore over the multi-stream WAL writer, the physical roots, the lag admission and the materialization
// worker — against a given metadata store and object store. The package runs it in memory and on the filesystem;
// the acceptance package runs it against s3proxy + a real etcd and against the filesystem + SQLite. Each crash test
// asserts the outcome docs/architecture.md §4.3 requires and that nothing acknowledged is lost. Registers vitest tests; starts no
// services.
import { performance } from "node:perf_hooks";
import {
  AppendFailedError,
  ErrorCode,
  NereusError,
  isValueCompare,
  type AppendResult,
  type MetadataStore,
  type ObjectStore,
  type TxnRequest,
} from "@nereus/core";
import { expectAppendFailure } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import type { MaterializationHooks } from "../generations/materialization-worker.js";
import { ObjectWalStack, opaque, ranged } from "./object-wal-stack.js";

/** Clients over durable state. */
export interface ObjectWalAcceptanceClients {
  readonly metadata: MetadataStore;
  readonly objectStore: ObjectStore;
}

export interface ObjectWalAcceptanceStack extends ObjectWalAcceptanceClients {
  /** Cluster name of this test (default: a random `owal-…`); lets the caller clean a shared service up by prefix. */
  readonly cluster?: string;
  /** New clients over the same durable state, as a restarted process would open (default: the same clients). */
  readonly reopen?: () => Promise<ObjectWalAcceptanceClients & { readonly close: () => Promise<void> }>;
  /** Runs after the test closed its processes. */
  readonly cleanup?: () => Promise<void>;
}

export interface ObjectWalAcceptanceOptions {
  /** Streams of the concurrency test (default 1,000). */
  readonly concurrentStreams?: number;
  /** Receives measured numbers (PUTs per flush/MiB/second). Default: console.log. */
  readonly report?: (line: string) => void;
}

const crash = (where: string): NereusError =>
  new NereusError(ErrorCode.CANCELLED, `simulated crash ${where}`, { retryable: false });
const SLOW_TEST_MS = 180_000;

export function describeObjectWalAcceptance(
  name: string,
  createStack: () => Promise<ObjectWalAcceptanceStack>,
  options: ObjectWalAcceptanceOptions = {},
): void {
  const report = options.report ?? ((line: string) => console.log(line));
  const withStack =
    (test: (stack: ObjectWalStack, base: ObjectWalAcceptanceStack) => Promise<void>) => async (): Promise<void> => {
      const base = await createStack();
      const stack = new ObjectWalStack(base.metadata, base.objectStore, base.cluster);
      try {
        await test(stack, base);
      } finally {
        await stack.dispose();
        await base.cleanup?.();
      }
    };

  /** A stack over reopened clients of the same durable state and cluster (a restarted process). */
  const restart = async (
    stack: ObjectWalStack,
    base: ObjectWalAcceptanceStack,
  ): Promise<{ stack: ObjectWalStack; close: () => Promise<void> }> => {
    if (base.reopen === undefined)
      return {
        stack: new ObjectWalStack(base.metadata, base.objectStore, stack.cluster),
        close: async () => undefined,
      };
    const clients = await base.reopen();
    return { stack: new ObjectWalStack(clients.metadata, clients.objectStore, stack.cluster), close: clients.close };
  };

  describe(`Object WAL acceptance: ${name}`, () => {
    describe("read-after-ack", () => {
      it(
        "OBJECT_WAL is canonicalized to OBJECT_WAL_SYNC_OBJECT; a sync append is acknowledged with its generation-0 index",
        withStack(async (stack) => {
          const { store } = stack.open();
          const { streamId, head } = await store.createStream("sync-orders", { profile: "OBJECT_WAL" });
          expect(head.profile).toBe("OBJECT_WAL_SYNC_OBJECT");
          const result = await store.append(streamId, ranged(["first", 3], ["second", 2]));
          expect(result).toMatchObject({ startOffset: 0, endOffset: 5, generation: 0, recordCount: 5, entryCount: 2 });
          expect(result.readTarget).toMatchObject({ type: "OBJECT_SLICE", objectType: "MULTI_STREAM_WAL_OBJECT" });
          expect((await stack.generationZero(streamId)).map((entry) => [entry.offsetStart, entry.offsetEnd])).toEqual([
            [0, 5],
          ]);
          expect(await stack.readAll(store, streamId)).toEqual([
            [0, 3, "first"],
            [3, 2, "second"],
          ]);
        }),
      );

      it(
        "an async append is acknowledged at the stable head and readable at once (the read path repairs the index)",
        withStack(async (stack) => {
          const { store } = stack.open();
          const { streamId } = await store.createStream("async-orders", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
          await store.append(streamId, opaque("a", "b"));
          await store.append(streamId, opaque("c"));
          expect(await stack.generationZero(streamId)).toEqual([]);
          expect(await stack.readAll(store, streamId)).toEqual([
            [0, 1, "a"],
            [1, 1, "b"],
            [2, 1, "c"],
          ]);
        }),
      );

      for (const profile of ["OBJECT_WAL_SYNC_OBJECT", "OBJECT_WAL_ASYNC_OBJECT"] as const) {
        it(
          `${profile}: after a process restart between ack and background work, reads and the worker resume from metadata`,
          withStack(async (stack, base) => {
            const first = stack.open();
            const { streamId } = await first.store.createStream(`restart-${profile}`, { profile });
            const acked: AppendResult[] = [];
            for (let index = 0; index < 4; index++)
              acked.push(await first.store.append(streamId, opaque(`e${String(index)}`)));
            await first.store.close();
            await first.runtime.close();
            const restarted = await restart(stack, base);
            try {
              const second = restarted.stack.open({ writerId: "broker-2" });
              expect(await restarted.stack.readAll(second.store, streamId)).toEqual(
                [0, 1, 2, 3].map((index) => [index, 1, `e${String(index)}`]),
              );
              // The new process's worker finds the stream through the registry, not through anything in memory.
              const pass = await second.runtime.worker.runOnce();
              expect(pass.streams).toBeGreaterThanOrEqual(1);
              expect((await restarted.stack.generationZero(streamId)).map((entry) => entry.offsetEnd)).toEqual([
                1, 2, 3, 4,
              ]);
              const committed = (await restarted.stack.generations(streamId)).filter(
                (entry) => entry.state === "COMMITTED",
              );
              expect(committed.map((entry) => [entry.offsetStart, entry.offsetEnd, entry.level])).toEqual([[0, 4, 1]]);
              expect(await restarted.stack.readAll(second.store, streamId)).toEqual(
                [0, 1, 2, 3].map((index) => [index, 1, `e${String(index)}`]),
              );
              expect(acked.every((result) => result.generation === 0)).toBe(true);
              await restarted.stack.dispose();
            } finally {
              await restarted.close();
            }
          }),
        );
      }
    });

    describe("crashes at every boundary", () => {
      it(
        "after PUT, before the intent: KNOWN_NOT_COMMITTED; the single-slice object is an orphan with no root and no protection",
        withStack(async (stack) => {
          const uploaded: string[] = [];
          let armed = true;
          const crashing = stack.open({
            runtime: { writerHooks: { afterUpload: (key) => void uploaded.push(key) } },
            store: {
              stepHooks: {
                afterWalWrite: () => {
                  if (armed) {
                    armed = false;
                    throw crash("after the PUT");
                  }
                },
              },
            },
          });
          const { streamId } = await crashing.store.createStream("crash-after-put", {
            profile: "OBJECT_WAL_SYNC_OBJECT",
          });
          await expectAppendFailure(crashing.store.append(streamId, opaque("lost")), {
            code: ErrorCode.CANCELLED,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          expect(await stack.head(streamId)).toMatchObject({ committedEndOffset: 0, lastCommitId: "" });
          expect(await stack.intentCount(streamId)).toBe(0);
          const orphan = uploaded[0] ?? "";
          // Its root would have been created by the head transaction that never ran (a collector finds it by inventory).
          expect(orphan).not.toBe("");
          expect(await stack.root(orphan)).toBeUndefined();
          expect(await stack.protectionCount(orphan)).toBe(0);
          const committedObjects: string[] = [];
          const restarted = stack.open({
            writerId: "broker-1",
            runtime: { writerHooks: { afterUpload: (key) => void committedObjects.push(key) } },
          });
          const retried = await restarted.store.append(streamId, opaque("retried"));
          expect(retried.startOffset).toBe(0);
          expect(await stack.readAll(restarted.store, streamId)).toEqual([[0, 1, "retried"]]);
          expect(await stack.protectionCount(orphan)).toBe(0);
          // The committed append's head transaction created its object's root and protection together.
          const committed = committedObjects[0] ?? "";
          expect(await stack.root(committed)).toMatchObject({
            lifecycle: "ACTIVE",
            kind: "OBJECT_WAL",
            objectKey: committed,
          });
          expect(await stack.protectionCount(committed)).toBe(1);
        }),
      );

      it(
        "after the intent is planned, before the head CAS: KNOWN_NOT_COMMITTED; nothing became visible",
        withStack(async (stack) => {
          let armed = false;
          const crashing = stack.open({
            store: {
              stepHooks: {
                beforeHeadCommit: () => {
                  if (armed) {
                    armed = false;
                    throw crash("before the head CAS");
                  }
                },
              },
            },
          });
          const { streamId } = await crashing.store.createStream("crash-before-cas", {
            profile: "OBJECT_WAL_ASYNC_OBJECT",
          });
          await crashing.store.append(streamId, opaque("kept"));
          armed = true;
          await expectAppendFailure(crashing.store.append(streamId, opaque("lost")), {
            code: ErrorCode.CANCELLED,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          expect(await stack.head(streamId)).toMatchObject({ committedEndOffset: 1, commitVersion: 1 });
          expect(await stack.intentCount(streamId)).toBe(1);
          const restarted = stack.open();
          await restarted.store.append(streamId, opaque("after"));
          expect(await stack.readAll(restarted.store, streamId)).toEqual([
            [0, 1, "kept"],
            [1, 1, "after"],
          ]);
        }),
      );

      it(
        "head CAS response lost: MAY_HAVE_COMMITTED, recovery returns the original result, the data is there exactly once",
        withStack(async (stack) => {
          const { store } = stack.open({ store: { autoRecovery: false } });
          const { streamId } = await store.createStream("cas-lost", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          const headKey = stack.keyspace.headKey(streamId);
          stack.metadata.loseResponseOf((request: TxnRequest) =>
            request.compares.some(
              (compare) => compare.key === headKey && !isValueCompare(compare) && compare.modRevision > 0,
            ),
          );
          const failure = await expectAppendFailure(store.append(streamId, opaque("maybe")), {
            code: ErrorCode.METADATA_UNAVAILABLE,
            outcome: "MAY_HAVE_COMMITTED",
          });
          expect(stack.metadata.lostResponses).toBe(1);
          const recovered = await store.recoverAppend(streamId, failure.attemptId as string);
          expect(recovered).toMatchObject({ startOffset: 0, endOffset: 1, generation: 0 });
          const next = await store.append(streamId, opaque("next"));
          expect(next.startOffset).toBe(1);
          expect(await stack.readAll(store, streamId)).toEqual([
            [0, 1, "maybe"],
            [1, 1, "next"],
          ]);
        }),
      );

      it(
        "async: after the head CAS, before any index: KNOWN_COMMITTED; recovery, reads and the worker all see the data",
        withStack(async (stack) => {
          let armed = true;
          const { store, runtime } = stack.open({
            store: {
              stepHooks: {
                afterHeadCommit: () => {
                  if (armed) {
                    armed = false;
                    throw crash("after the head CAS");
                  }
                },
              },
            },
          });
          const { streamId } = await store.createStream("crash-after-head", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
          const failure = await expectAppendFailure(store.append(streamId, opaque("committed")), {
            code: ErrorCode.CANCELLED,
            outcome: "KNOWN_COMMITTED",
          });
          expect(await stack.generationZero(streamId)).toEqual([]);
          const recovered = await store.recoverAppend(streamId, failure.attemptId as string);
          expect(recovered).toMatchObject({ startOffset: 0, endOffset: 1, generation: 0 });
          const reader = stack.open({ writerId: "reader" });
          expect(await stack.readAll(reader.store, streamId)).toEqual([[0, 1, "committed"]]);
          await runtime.worker.runOnce();
          expect((await stack.generationZero(streamId)).map((entry) => entry.offsetEnd)).toEqual([1]);
          expect((await stack.generations(streamId)).map((entry) => [entry.state, entry.offsetEnd])).toEqual([
            ["COMMITTED", 1],
          ]);
        }),
      );

      for (const point of ["afterOutputUpload", "afterPrepared", "beforePublish"] as const) {
        it(
          `materialization crash at ${point}: nothing readable changes; a later worker takes the claim over and publishes once`,
          withStack(async (stack) => {
            const { store } = stack.open();
            const { streamId } = await store.createStream(`crash-${point}`, { profile: "OBJECT_WAL_ASYNC_OBJECT" });
            for (let index = 0; index < 5; index++)
              await store.append(streamId, ranged([`batch-${String(index)}`, index + 1]));
            const expected = await stack.readAll(store, streamId);
            const hooks: MaterializationHooks = {
              [point]: () => {
                throw crash(`at ${point}`);
              },
            };
            const crashed = stack.worker({ workerId: "worker-a", hooks, claimTtlMs: 60_000 });
            await expect(crashed.runStream(streamId)).rejects.toThrow(/simulated crash/);
            await crashed.close();
            expect((await stack.generations(streamId)).filter((entry) => entry.state === "COMMITTED")).toEqual([]);
            expect(await stack.readAll(store, streamId)).toEqual(expected);
            // A live claim is respected; once it expired (+ skew) another worker resumes the same task.
            const early = stack.worker({ workerId: "worker-b" });
            await early.runStream(streamId);
            expect(early.stats.tasksResumed).toBe(0);
            const later = stack.worker({ workerId: "worker-b", clock: () => Date.now() + 120_000 });
            await later.runStream(streamId);
            expect(later.stats.tasksResumed).toBe(1);
            const generations = await stack.generations(streamId);
            const committed = generations.filter((entry) => entry.state === "COMMITTED");
            expect(committed.map((entry) => [entry.offsetStart, entry.offsetEnd, entry.level])).toEqual([[0, 15, 1]]);
            expect(generations.filter((entry) => entry.state === "PREPARED")).toEqual([]);
            stack.objects.stats.gets = 0;
            expect(await stack.readAll(store, streamId)).toEqual(expected);
            expect(stack.objects.stats.gets).toBe(1);
          }),
        );
      }

      it(
        "a worker whose task failed mid-way resumes its own claim at once (no wait for the claim to expire)",
        withStack(async (stack) => {
          const { store } = stack.open();
          const { streamId } = await store.createStream("own-claim", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          for (let index = 0; index < 3; index++) await store.append(streamId, opaque(`o${String(index)}`));
          let failures = 1;
          const worker = stack.worker({
            claimTtlMs: 600_000,
            hooks: {
              afterPrepared: () => {
                if (failures-- > 0) throw crash("transiently after PREPARE");
              },
            },
          });
          await expect(worker.runStream(streamId)).rejects.toThrow(/simulated crash/);
          await worker.runStream(streamId);
          expect(worker.stats).toMatchObject({ tasksResumed: 1, tasksPublished: 1 });
          expect((await stack.generations(streamId)).map((entry) => entry.state)).toEqual(["COMMITTED"]);
        }),
      );
    });

    describe("uncertain PUTs", () => {
      it(
        "a PUT whose response is lost and whose retry meets the key (412) is recognised as our own write",
        withStack(async (stack) => {
          const { store, runtime } = stack.open();
          const { streamId } = await store.createStream("lost-put", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          stack.objects.loseNextPutResponses(1);
          const result = await store.append(streamId, opaque("survives"));
          expect(result.startOffset).toBe(0);
          expect(runtime.writer.stats).toMatchObject({ objects: 1, puts: 2, recognisedOwnWrites: 1 });
          expect(await stack.readAll(store, streamId)).toEqual([[0, 1, "survives"]]);
        }),
      );
    });

    describe("multi-stream WAL objects", () => {
      it(
        "one stream's failure does not block the other slices of the same object",
        withStack(async (stack) => {
          const { store, runtime } = stack.open({ runtime: { flush: { lingerMs: 30 } } });
          const { streamId: fenced } = await store.createStream("fenced-member", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          const { streamId: healthy } = await store.createStream("healthy-member", {
            profile: "OBJECT_WAL_ASYNC_OBJECT",
          });
          await store.append(fenced, opaque("before"));
          // The healthy stream's session up front: its first append would otherwise take it first (a metadata round
          // trip the fenced append does not make), and under load reach the writer after the fenced slice's flush.
          await store.acquireSession(healthy);
          // Another broker takes the stream over: this process's session is now stale.
          await stack.open({ writerId: "broker-2" }).store.acquireSession(fenced, { preempt: true });
          const objectsBefore = runtime.writer.stats.objects;
          const [lost, kept] = await Promise.allSettled([
            store.append(fenced, opaque("stale")),
            store.append(healthy, opaque("fine")),
          ]);
          expect(runtime.writer.stats.objects - objectsBefore).toBe(1);
          expect(lost.status).toBe("rejected");
          const failure = (lost as PromiseRejectedResult).reason as AppendFailedError;
          expect({ code: failure.code, outcome: failure.outcome }).toEqual({
            code: ErrorCode.FENCED_APPEND,
            outcome: "KNOWN_NOT_COMMITTED",
          });
          expect(kept.status === "fulfilled" && kept.value.startOffset === 0).toBe(true);
          expect(await stack.readAll(store, healthy)).toEqual([[0, 1, "fine"]]);
          expect(await stack.readAll(store, fenced)).toEqual([[0, 1, "before"]]);
        }),
      );

      const streams = options.concurrentStreams ?? 1000;
      it(
        `${String(streams)} streams appending concurrently: one PUT per flush, every slice commits through its own stream`,
        { timeout: SLOW_TEST_MS },
        withStack(async (stack) => {
          const { store, runtime } = stack.open({ runtime: { flush: { lingerMs: 10 } } });
          const ids: string[] = [];
          for (let start = 0; start < streams; start += 100) {
            const created = await Promise.all(
              Array.from({ length: Math.min(100, streams - start) }, (_, index) =>
                store.createStream(`multi-${String(start + index)}`, { profile: "OBJECT_WAL_SYNC_OBJECT" }),
              ),
            );
            ids.push(...created.map((item) => item.streamId));
          }
          const payload = "p".repeat(1000);
          stack.objects.stats.puts = 0;
          stack.objects.stats.putBytes = 0;
          const started = performance.now();
          const results = await Promise.all(
            ids.map((streamId, index) => store.append(streamId, opaque(`${String(index)}:${payload}`))),
          );
          const seconds = (performance.now() - started) / 1000;
          const writer = runtime.writer.stats;
          expect(results.every((result) => result.startOffset === 0 && result.endOffset === 1)).toBe(true);
          expect(stack.objects.stats.puts).toBe(writer.objects);
          expect(writer.slices).toBe(streams);
          expect(writer.objects).toBeLessThan(streams / 4);
          const mib = stack.objects.stats.putBytes / (1024 * 1024);
          report(
            `[${name}] ${String(streams)} concurrent appends: ${String(writer.objects)} objects, ${String(stack.objects.stats.puts)} PUTs ` +
              `(PUTs per flush ${(stack.objects.stats.puts / writer.objects).toFixed(2)}, slices per PUT ${(writer.slices / writer.objects).toFixed(1)}), ` +
              `${(stack.objects.stats.puts / mib).toFixed(2)} PUTs/MiB, ${(stack.objects.stats.puts / seconds).toFixed(1)} PUTs/s over ${seconds.toFixed(2)} s`,
          );
          const sample = [0, Math.floor(streams / 2), streams - 1];
          for (const index of sample) {
            expect(await stack.readAll(store, ids[index] as string)).toEqual([[0, 1, `${String(index)}:${payload}`]]);
          }
        }),
      );
    });

    describe("higher generations", () => {
      it(
        "level-1 generations from slices spread over many WAL objects, merged into level 2: byte-identical reads, offsets unchanged",
        withStack(async (stack) => {
          const { store } = stack.open();
          const { streamId } = await store.createStream("generations", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
          const { streamId: other } = await store.createStream("generations-neighbour", {
            profile: "OBJECT_WAL_SYNC_OBJECT",
          });
          for (let index = 0; index < 12; index++) {
            await Promise.all([
              store.append(streamId, ranged([`r${String(index)}`, (index % 3) + 1])),
              store.append(other, opaque(`n${String(index)}`)),
            ]);
          }
          const fromZero = await stack.readAll(store, streamId);
          const worker = stack.worker({
            policy: { maxSources: 2, minMergeSources: 3, maxMergeSources: 4 },
            tasksPerStream: 20,
          });
          await worker.runStream(streamId);
          const generations = await stack.generations(streamId);
          const committed = generations.filter((entry) => entry.state === "COMMITTED");
          expect(committed.filter((entry) => entry.level === 1)).toHaveLength(6);
          const levelTwo = committed.filter((entry) => entry.level === 2);
          expect(levelTwo.map((entry) => [entry.offsetStart, entry.offsetEnd])).toEqual([[0, 15]]);
          expect(new Set(committed.map((entry) => entry.generation)).size).toBe(committed.length);
          // Every generation object is per-stream; generation-0 targets stay what the appends reported.
          expect(
            committed.every(
              (entry) =>
                entry.readTarget.type === "OBJECT_SLICE" && entry.readTarget.objectType === "STREAM_GENERATION_OBJECT",
            ),
          ).toBe(true);
          stack.objects.stats.gets = 0;
          expect(await stack.readAll(store, streamId)).toEqual(fromZero);
          expect(stack.objects.stats.gets).toBeLessThanOrEqual(3);
          const fresh = stack.open({ writerId: "reader" });
          expect(await stack.readAll(fresh.store, streamId, 5)).toEqual(
            fromZero.filter(([offset, count]) => offset + count > 5),
          );
        }),
      );

      it(
        "a corrupt generation is quarantined and reads fall back to a lower generation of the same view",
        withStack(async (stack) => {
          const { store } = stack.open();
          const { streamId } = await store.createStream("quarantine", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          for (let index = 0; index < 3; index++) await store.append(streamId, opaque(`q${String(index)}`));
          const expected = await stack.readAll(store, streamId);
          await stack.worker().runStream(streamId);
          const [generation] = await stack.generations(streamId);
          if (generation?.readTarget.type !== "OBJECT_SLICE") throw new Error("no generation object");
          await stack.corruptObject(generation.readTarget.objectKey, generation.readTarget.sliceOffset + 20);
          expect(await stack.readAll(store, streamId)).toEqual(expected);
          expect((await stack.generations(streamId)).map((entry) => entry.state)).toEqual(["QUARANTINED"]);
          expect(await stack.readAll(store, streamId)).toEqual(expected);
        }),
      );

      it(
        "two workers never publish conflicting generations: a stale claim cannot prepare or publish",
        withStack(async (stack) => {
          const { store } = stack.open();
          const { streamId } = await store.createStream("fenced", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
          for (let index = 0; index < 6; index++) await store.append(streamId, opaque(`f${String(index)}`));
          let release = (): void => undefined;
          const gate = new Promise<void>((resolve) => {
            release = resolve;
          });
          let paused = (): void => undefined;
          const pausedAt = new Promise<void>((resolve) => {
            paused = resolve;
          });
          const slow = stack.worker({
            workerId: "slow",
            hooks: {
              afterOutputUpload: async () => {
                paused();
                await gate;
              },
            },
          });
          const slowRun = slow.runStream(streamId);
          await pausedAt;
          const fast = stack.worker({ workerId: "fast", clock: () => Date.now() + 120_000 });
          await fast.runStream(streamId);
          release();
          await slowRun;
          expect(slow.stats.claimsLost).toBeGreaterThanOrEqual(1);
          expect(slow.stats.tasksPublished).toBe(0);
          const committed = (await stack.generations(streamId)).filter((entry) => entry.state === "COMMITTED");
          expect(committed.map((entry) => [entry.offsetStart, entry.offsetEnd])).toEqual([[0, 6]]);
          expect(await stack.readAll(store, streamId)).toEqual(
            [0, 1, 2, 3, 4, 5].map((index) => [index, 1, `f${String(index)}`]),
          );
        }),
      );
    });

    describe("required Object generation", () => {
      it(
        "an async append asking for REQUIRED_OBJECT_GENERATION is acknowledged once a committed generation covers it; a timeout is KNOWN_COMMITTED",
        withStack(async (stack) => {
          const { store, runtime } = stack.open({ runtime: { materialization: { intervalMs: 20 } } });
          const { streamId } = await store.createStream("required", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
          const timedOut = await expectAppendFailure(
            store.append(streamId, opaque("waits"), { completionPolicy: "REQUIRED_OBJECT_GENERATION", timeoutMs: 300 }),
            {
              code: ErrorCode.TIMEOUT,
              outcome: "KNOWN_COMMITTED",
            },
          );
          runtime.start();
          const recovered = await store.recoverAppend(streamId, timedOut.attemptId as string, { timeoutMs: 20_000 });
          expect(recovered).toMatchObject({ startOffset: 0, endOffset: 1, generation: 0 });
          const result = await store.append(streamId, opaque("covered"), {
            completionPolicy: "REQUIRED_OBJECT_GENERATION",
            timeoutMs: 20_000,
          });
          expect(result).toMatchObject({ startOffset: 1, endOffset: 2, generation: 0 });
          const committed = (await stack.generations(streamId)).filter(
            (entry) => entry.state === "COMMITTED" && entry.level === 1,
          );
          expect(Math.max(...committed.map((entry) => entry.offsetEnd))).toBeGreaterThanOrEqual(2);
        }),
      );
    });

    describe("async lag admission", () => {
      it(
        "rejects new appends before any PUT while the lag is above the bound, keeps committed data, admits again once materialized",
        withStack(async (stack) => {
          const { store, runtime } = stack.open({ runtime: { lagBound: { maxRecords: 3, maxBytes: 0 } } });
          const { streamId } = await store.createStream("lagging", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
          for (let index = 0; index < 4; index++) await store.append(streamId, opaque(`l${String(index)}`));
          const putsBefore = stack.objects.stats.puts;
          const rejected = await expectAppendFailure(store.append(streamId, opaque("rejected")), {
            code: ErrorCode.BACKPRESSURE_REJECTED,
            outcome: "KNOWN_NOT_COMMITTED",
            retryable: true,
          });
          expect(AppendFailedError.isAppendFailure(rejected)).toBe(true);
          expect(stack.objects.stats.puts).toBe(putsBefore);
          expect(runtime.admission.rejected).toBe(1);
          // A sync stream is never lag-limited.
          const { streamId: sync } = await store.createStream("not-lagging", { profile: "OBJECT_WAL_SYNC_OBJECT" });
          for (let index = 0; index < 5; index++) await store.append(sync, opaque(`s${String(index)}`));
          await runtime.worker.runOnce();
          await store.append(streamId, opaque("admitted"));
          expect((await stack.readAll(store, streamId)).map(([, , value]) => value)).toEqual([
            "l0",
            "l1",
            "l2",
            "l3",
            "admitted",
          ]);
        }),
      );
    });
  });
}
