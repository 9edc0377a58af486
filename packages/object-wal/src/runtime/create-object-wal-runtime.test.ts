// The runtime's foreground-activity wiring: appends and reads through the runtime count as foreground load, the
// worker's own source reads do not, and a busy foreground makes background passes wait (materialization.
// busyBytesPerSecond with the policy's busy thresholds).
import { createStreamStore } from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore } from "@nereus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type ObjectWalRuntimeOptions, createObjectWalRuntime } from "./create-object-wal-runtime.js";

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

function stack(materialization: ObjectWalRuntimeOptions["materialization"]) {
  const metadata = new InMemoryMetadataStore();
  const runtime = createObjectWalRuntime({
    objectStore: new InMemoryObjectStore(),
    metadata,
    cluster: "rt",
    writerId: "w1",
    flush: { lingerMs: 0 },
    materialization,
  });
  const store = createStreamStore({
    metadata,
    cluster: "rt",
    writerId: "w1",
    autoRecovery: false,
    ...runtime.storeOptions(),
  });
  opened.push(async () => {
    await store.close();
    await runtime.close();
    await metadata.close();
  });
  return { runtime, store };
}

const bytes = (size: number): Uint8Array => new Uint8Array(size).fill(7);

describe("createObjectWalRuntime: foreground activity", () => {
  it("refuses a negative or non-finite busyBytesPerSecond", () => {
    const metadata = new InMemoryMetadataStore();
    for (const busyBytesPerSecond of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() =>
        createObjectWalRuntime({
          objectStore: new InMemoryObjectStore(),
          metadata,
          cluster: "rt",
          writerId: "w1",
          materialization: { busyBytesPerSecond },
        }),
      ).toThrow(RangeError);
    }
  });

  it("background passes wait while appends keep the process busy; explicit passes do not, and their reads are not foreground load", async () => {
    const { runtime, store } = stack({
      busyBytesPerSecond: 1,
      policy: { busyLevelOneBytes: 1 << 30, busyLevelOneDelayMs: 600_000 },
    });
    const { streamId } = await store.createStream("busy", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    for (let index = 0; index < 4; index++)
      await store.append(streamId, {
        payloadFormat: "OPAQUE_RECORD_BATCH",
        entries: [{ payload: bytes(2048), recordCount: 1 }],
      });
    await runtime.worker.runOnce(undefined, { defer: true });
    expect(runtime.worker.stats.tasksDeferred).toBe(1);
    expect(runtime.worker.stats.tasksPublished).toBe(0);
    const readBefore = runtime.reader.stats.requestedBytes;
    await runtime.worker.runOnce();
    expect(runtime.worker.stats.tasksPublished).toBe(1);
    expect(runtime.reader.stats.requestedBytes).toBe(readBefore);
    const read = await store.read(streamId, 0);
    expect(read.entries.length).toBeGreaterThan(0);
    expect(runtime.reader.stats.requestedBytes).toBeGreaterThan(readBefore);
  });

  it("without busyBytesPerSecond the same passes materialize at once", async () => {
    const { runtime, store } = stack({ policy: { minLevelOneBytes: 1, busyLevelOneBytes: 1 << 30 } });
    const { streamId } = await store.createStream("quiet", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    await store.append(streamId, {
      payloadFormat: "OPAQUE_RECORD_BATCH",
      entries: [{ payload: bytes(2048), recordCount: 1 }],
    });
    await runtime.worker.runOnce(undefined, { defer: true });
    expect(runtime.worker.stats.tasksPublished).toBe(1);
  });
});
