// The worker's cost controls: deferral of small level-1 increments in background passes (and its limits), giving
// way to returning traffic inside a background task, the output proof by the store's CRC32C, and pacing. The full
// protocol (crashes, claims, publication) is covered by the Object WAL acceptance suite.
import { performance } from "node:perf_hooks";
import { InMemoryMetadataStore, InMemoryObjectStore } from "@nereus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { ObjectWalReader } from "../reader/object-wal-reader.js";
import { ObjectWalStack, opaque } from "../testing/object-wal-stack.js";
import type { SourceReaders } from "./generation-object.js";

const stacks: ObjectWalStack[] = [];
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.dispose();
});

function newStack(): ObjectWalStack {
  const stack = new ObjectWalStack(new InMemoryMetadataStore(), new InMemoryObjectStore());
  stacks.push(stack);
  return stack;
}

/** Source readers over `stack`'s objects that call `onRead` before each source read (a test's view of the task). */
function readersThat(stack: ObjectWalStack, onRead: () => void): SourceReaders {
  const reader = new ObjectWalReader({ objectStore: stack.objects });
  return () => ({
    spiVersion: reader.spiVersion,
    targetTypes: reader.targetTypes,
    readEntries: (target, options) => {
      onRead();
      return reader.readEntries(target, options);
    },
  });
}

/** Polls `condition` every 5 ms for up to 10 s (the task under test starts on its own schedule). */
async function until(condition: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!condition() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

async function committed(stack: ObjectWalStack, streamId: string): Promise<Array<[number, number]>> {
  return (await stack.generations(streamId))
    .filter((entry) => entry.state === "COMMITTED")
    .map((entry) => [entry.offsetStart, entry.offsetEnd]);
}

describe("MaterializationWorker deferral", () => {
  it("a background pass leaves a small increment for later; once it has waited the delay it is materialized with nothing new appended", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("small", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    for (let index = 0; index < 3; index++) await store.append(streamId, opaque(`small-${String(index)}`));
    let now = 1_000_000;
    const worker = stack.worker({
      clock: () => now,
      policy: { minLevelOneBytes: 1024 * 1024, maxLevelOneDelayMs: 1000 },
    });

    expect(worker.pendingBytes).toBe(0);
    await worker.runOnce(undefined, { defer: true });
    expect(worker.stats.tasksDeferred).toBe(1);
    expect(await committed(stack, streamId)).toEqual([]);
    // The deferred backlog is visible: the three appends' payload bytes.
    const pending = worker.pendingBytes;
    expect(pending).toBe(["small-0", "small-1", "small-2"].reduce((sum, text) => sum + text.length, 0));
    now += 500;
    await worker.runOnce(undefined, { defer: true });
    expect(worker.stats.tasksDeferred).toBe(2);
    expect(await committed(stack, streamId)).toEqual([]);
    // Idle since: the same head and record as the passes before, and still visited.
    now += 600;
    await worker.runOnce(undefined, { defer: true });
    expect(await committed(stack, streamId)).toEqual([[0, 3]]);
    expect(worker.stats.tasksPublished).toBe(1);
    expect(worker.pendingBytes).toBe(0);

    // An explicit pass defers nothing.
    await store.append(streamId, opaque("small-3"));
    await worker.runOnce();
    expect(await committed(stack, streamId)).toEqual([
      [0, 3],
      [3, 4],
    ]);
  });

  it("while the foreground is busy a background pass waits for the busy backlog and starts no merge; once quiet it merges", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("busy", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    let busy = true;
    let now = 1_000_000;
    const policy = {
      minLevelOneBytes: 1,
      maxLevelOneDelayMs: 1000,
      busyLevelOneBytes: 2000,
      busyLevelOneDelayMs: 30_000,
      minMergeSources: 2,
    };
    const worker = stack.worker({ clock: () => now, policy, foregroundBusy: () => busy });
    await store.append(streamId, opaque("a".repeat(600)));
    await worker.runOnce(undefined, { defer: true });
    expect(worker.stats).toMatchObject({ tasksDeferred: 1, mergesDeferred: 1, tasksPublished: 0 });
    // Past the quiet delay but not the busy one: still waiting.
    now += 5_000;
    await worker.runOnce(undefined, { defer: true });
    expect(await committed(stack, streamId)).toEqual([]);
    // The busy backlog reached: the level-1 task runs.
    await store.append(streamId, opaque("b".repeat(600), "c".repeat(600), "d".repeat(600)));
    await worker.runOnce(undefined, { defer: true });
    expect(await committed(stack, streamId)).toEqual([[0, 4]]);
    await store.append(streamId, opaque("e".repeat(700), "f".repeat(700), "g".repeat(700)));
    await worker.runOnce(undefined, { defer: true });
    expect(await committed(stack, streamId)).toEqual([
      [0, 4],
      [4, 7],
    ]);
    // Two level-1 generations could merge, but not while busy.
    await worker.runOnce(undefined, { defer: true });
    expect(await committed(stack, streamId)).toEqual([
      [0, 4],
      [4, 7],
    ]);
    busy = false;
    await worker.runOnce(undefined, { defer: true });
    expect(await committed(stack, streamId)).toContainEqual([0, 7]);
    // An explicit pass never asks.
    busy = true;
    await store.append(streamId, opaque("h"));
    await worker.runOnce();
    expect((await committed(stack, streamId)).at(-1)).toEqual([7, 8]);
  });

  it("passes over a deferred stream write nothing and walk only the index entries appended since the last pass", async () => {
    const metadata = new InMemoryMetadataStore();
    const stack = new ObjectWalStack(metadata, new InMemoryObjectStore());
    stacks.push(stack);
    const { store } = stack.open();
    const { streamId } = await store.createStream("walked", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    for (let index = 0; index < 600; index++) await store.append(streamId, opaque(`e-${String(index)}`));
    const worker = stack.worker({
      clock: () => 5_000,
      policy: { busyLevelOneBytes: 1 << 30, busyLevelOneDelayMs: 600_000 },
      foregroundBusy: () => true,
    });
    await worker.runOnce(undefined, { defer: true });
    metadata.stats.reset();
    await store.append(streamId, opaque("one more"));
    const appendScans = metadata.stats.scans;
    const appendTxns = metadata.stats.txns;
    await worker.runOnce(undefined, { defer: true });
    expect(worker.stats.tasksDeferred).toBe(2);
    expect(metadata.stats.txns - appendTxns).toBe(0);
    // Registry, index (one page from the last walk's end), no rescan of the 600 entries (3 pages of 256).
    expect(metadata.stats.scans - appendScans).toBeLessThanOrEqual(3);
  });

  it("a busy backlog that waited busyLevelOneDelayMs is materialized", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("waited", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    let now = 1_000_000;
    const worker = stack.worker({
      clock: () => now,
      policy: { busyLevelOneBytes: 1 << 30, busyLevelOneDelayMs: 30_000 },
      foregroundBusy: () => true,
    });
    await store.append(streamId, opaque("small"));
    await worker.runOnce(undefined, { defer: true });
    expect(await committed(stack, streamId)).toEqual([]);
    now += 30_000;
    await worker.runOnce(undefined, { defer: true });
    expect(await committed(stack, streamId)).toEqual([[0, 1]]);
  });

  it("an increment at the byte threshold is materialized by the first background pass", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("large", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    await store.append(streamId, opaque("x".repeat(600), "y".repeat(600)));
    const worker = stack.worker({ clock: () => 5_000, policy: { minLevelOneBytes: 1000, maxLevelOneDelayMs: 60_000 } });
    await worker.runOnce(undefined, { defer: true });
    expect(worker.stats.tasksDeferred).toBe(0);
    expect(await committed(stack, streamId)).toEqual([[0, 2]]);
  });

  it("an async stream is not deferred once its pending part reaches half the lag bound", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("bounded", { profile: "OBJECT_WAL_ASYNC_OBJECT" });
    for (let index = 0; index < 2; index++) await store.append(streamId, opaque(`a-${String(index)}`));
    const policy = { minLevelOneBytes: 1024 * 1024, maxLevelOneDelayMs: 60_000 };
    const deferring = stack.worker({ clock: () => 5_000, policy, lagBound: { maxRecords: 5, maxBytes: 0 } });
    await deferring.runOnce(undefined, { defer: true });
    expect(deferring.stats.tasksDeferred).toBe(1);
    await store.append(streamId, opaque("a-2"));
    await deferring.runOnce(undefined, { defer: true });
    expect(await committed(stack, streamId)).toEqual([[0, 3]]);
  });

  it("a poke makes the next background pass materialize a small increment at once", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("poked", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    await store.append(streamId, opaque("waits"));
    const worker = stack.worker({
      clock: () => 5_000,
      intervalMs: 600_000,
      policy: { minLevelOneBytes: 1024 * 1024, maxLevelOneDelayMs: 600_000 },
    });
    const published = worker.coverage.changed(streamId);
    worker.start();
    worker.poke();
    await published;
    expect(worker.stats.tasksDeferred).toBe(1);
    expect(await committed(stack, streamId)).toEqual([[0, 1]]);
  });
});

describe("MaterializationWorker output verification", () => {
  it("proves the output by the store's size + CRC32C: the only GETs are the source reads", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("proof", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    for (let index = 0; index < 3; index++) await store.append(streamId, opaque(`p-${String(index)}`));
    const expected = await stack.readAll(store, streamId);
    const sources = new Set(
      (await stack.generationZero(streamId)).map((entry) =>
        entry.readTarget.type === "OBJECT_SLICE" ? entry.readTarget.objectKey : "",
      ),
    );
    const worker = stack.worker();
    stack.objects.stats.gets = 0;
    stack.objects.stats.heads = 0;
    await worker.runStream(streamId);
    expect(worker.stats).toMatchObject({
      tasksPublished: 1,
      outputsVerifiedByChecksum: 1,
      outputsVerifiedByReadBack: 0,
    });
    expect(stack.objects.stats.gets).toBe(sources.size);
    expect(stack.objects.stats.heads).toBe(1);
    expect(await stack.readAll(store, streamId)).toEqual(expected);
  });
});

describe("MaterializationWorker pacing", () => {
  it("a background task that started in a quiet moment waits between its source reads while traffic is back, then finishes", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("gives-way", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    for (let index = 0; index < 20; index++) await store.append(streamId, opaque(`entry-${String(index)}`));
    let busy = false;
    let sourceReads = 0;
    const readers = readersThat(stack, () => {
      sourceReads += 1;
      busy = true; // traffic comes back once the task is under way
    });
    const worker = stack.worker({ readers, policy: { minLevelOneBytes: 1 }, foregroundBusy: () => busy });
    const started = performance.now();
    const pass = worker.runOnce(undefined, { defer: true });
    await until(() => sourceReads > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // At most one read per lane (8) started before the foreground turned busy; the rest wait, nothing is published.
    expect(sourceReads).toBeGreaterThan(0);
    expect(sourceReads).toBeLessThanOrEqual(8);
    expect(worker.stats.tasksPublished).toBe(0);
    busy = false;
    const readsBefore = sourceReads;
    const quiet = setInterval(() => {
      busy = false;
    }, 5);
    try {
      await pass;
    } finally {
      clearInterval(quiet);
    }
    expect(sourceReads).toBeGreaterThan(readsBefore);
    expect(await committed(stack, streamId)).toEqual([[0, 20]]);
    // Waited at least the busy spell, counted once for the task (its concurrent reads share one wait).
    expect(worker.stats.foregroundWaitMs).toBeGreaterThanOrEqual(250);
    expect(worker.stats.foregroundWaitMs).toBeLessThanOrEqual(performance.now() - started);
  });

  it("a task that gives way goes on once half its claim's lease has passed, even with the traffic still busy", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("lease-bound", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    for (let index = 0; index < 3; index++) await store.append(streamId, opaque(`entry-${String(index)}`));
    let now = 1_000_000;
    let busy = false;
    const readers = readersThat(stack, () => {
      busy = true;
    });
    const worker = stack.worker({
      readers,
      clock: () => now,
      claimTtlMs: 30_000,
      policy: { minLevelOneBytes: 1 },
      foregroundBusy: () => busy,
    });
    const pass = worker.runOnce(undefined, { defer: true });
    await until(() => busy);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(worker.stats.tasksPublished).toBe(0);
    // 15 s after the claim (half of the 30 s lease) the task stops waiting, though the foreground is still busy.
    now += 15_000;
    await pass;
    expect(busy).toBe(true);
    expect(await committed(stack, streamId)).toEqual([[0, 3]]);
  });

  it("a task the policy starts while the foreground is busy (its backlog waited long enough) does not wait", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("forced", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    for (let index = 0; index < 3; index++) await store.append(streamId, opaque(`entry-${String(index)}`));
    const worker = stack.worker({
      clock: () => 1_000_000,
      policy: { minLevelOneBytes: 1, busyLevelOneBytes: 1 },
      foregroundBusy: () => true,
    });
    await worker.runOnce(undefined, { defer: true });
    expect(await committed(stack, streamId)).toEqual([[0, 3]]);
    expect(worker.stats.foregroundWaitMs).toBe(0);
  });

  it("keeps to maxBytesPerSecond over several tasks", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("paced", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    for (let index = 0; index < 4; index++) await store.append(streamId, opaque("z".repeat(1000)));
    const sliceBytes = (await stack.generationZero(streamId)).reduce(
      (sum, entry) => sum + (entry.readTarget.type === "OBJECT_SLICE" ? entry.readTarget.sliceLength : 0),
      0,
    );
    const rate = 20_000;
    const worker = stack.worker({ maxBytesPerSecond: rate, policy: { maxSources: 1, maxLevel: 1 } });
    const started = performance.now();
    await worker.runStream(streamId);
    const elapsed = performance.now() - started;
    expect(worker.stats.tasksPublished).toBe(4);
    expect(worker.stats.bytesMaterialized).toBe(sliceBytes);
    expect(elapsed).toBeGreaterThanOrEqual(((sliceBytes * 1000) / rate) * 0.95);
    expect(worker.stats.pacingMs).toBeGreaterThan(0);
  });

  it("a pause after a task ends at close()", async () => {
    const stack = newStack();
    const { store } = stack.open();
    const { streamId } = await store.createStream("pause", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    await store.append(streamId, opaque("one"));
    const worker = stack.worker({ taskPauseMs: 600_000 });
    const published = worker.coverage.changed(streamId);
    const run = worker.runStream(streamId);
    await published;
    const started = performance.now();
    await worker.close();
    await run;
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(worker.stats.tasksPublished).toBe(1);
  });
});
