// The BookKeeper object profiles on this package's machinery, with core's in-memory BOOKKEEPER-kind WAL provider as
// the primary WAL (its reader installed as a source reader, through the WalReader SPI only): async lag admission
// rejects before any WAL I/O and the worker publishes Object generations from exact BK ranges; sync completion
// waits for a committed, read-back generation, and an object-store outage is KNOWN_COMMITTED with recovery that
// never writes the primary WAL again. (Real bookies: tooling/acceptance.)
import { AppendFailedError, ErrorCode, createStreamStore, type StorageProfile, type StreamStore } from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  createObjectWalRuntime,
  type ObjectWalRuntime,
  type ObjectWalRuntimeOptions,
} from "../runtime/create-object-wal-runtime.js";
import { FaultInjectingObjectStore } from "../testing/fault-injecting-object-store.js";
import { CoverageCache } from "../generations/coverage-cache.js";
import {
  BOOKKEEPER_OBJECT_PROFILES,
  LAG_BOUNDED_PROFILES,
  OBJECT_WAL_PROFILES,
  defaultMaterializedProfiles,
} from "./materialized-profiles.js";

const encoder = new TextEncoder();
const batch = (text: string) => ({
  payloadFormat: "OPAQUE_RECORD_BATCH" as const,
  entries: [{ payload: encoder.encode(text), recordCount: 1 }],
});

interface Stack {
  readonly bk: MemoryWalProvider;
  readonly objects: FaultInjectingObjectStore;
  readonly runtime: ObjectWalRuntime;
  readonly store: StreamStore;
}

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

function stack(overrides: Partial<ObjectWalRuntimeOptions> = {}): Stack {
  const metadata = new InMemoryMetadataStore();
  const objects = new FaultInjectingObjectStore(new InMemoryObjectStore());
  const bk = new MemoryWalProvider({ walKind: "BOOKKEEPER" });
  const runtime = createObjectWalRuntime({
    objectStore: objects,
    metadata,
    cluster: "bkobj",
    writerId: "w1",
    sourceReaders: [bk],
    ...overrides,
  });
  const objectSide = runtime.storeOptions();
  const store = createStreamStore({
    metadata,
    cluster: "bkobj",
    writerId: "w1",
    walWriters: [bk],
    walReaders: [bk, ...objectSide.walReaders],
    completionCoordinators: objectSide.completionCoordinators,
    admissionHooks: objectSide.admissionHooks,
    autoRecovery: false,
  });
  opened.push(async () => {
    await store.close();
    await runtime.close();
    await metadata.close();
  });
  return { bk, objects, runtime, store };
}

async function readAll(store: StreamStore, streamId: string): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ;) {
    const page = await store.read(streamId, offset);
    out.push(...page.entries.map((entry) => new TextDecoder().decode(entry.payload)));
    if (page.endOfStream) return out;
    offset = page.nextOffset;
  }
}

describe("profile sets", () => {
  it("lag-bounds both async profiles and serves BK profiles only with a BOOKKEEPER_ENTRY_RANGE source reader", () => {
    expect([...LAG_BOUNDED_PROFILES].sort()).toEqual<StorageProfile[]>([
      "BOOKKEEPER_WAL_ASYNC_OBJECT",
      "OBJECT_WAL_ASYNC_OBJECT",
    ]);
    expect(defaultMaterializedProfiles(["OBJECT_SLICE"])).toBe(OBJECT_WAL_PROFILES);
    expect([...defaultMaterializedProfiles(["BOOKKEEPER_ENTRY_RANGE"])]).toEqual([
      ...OBJECT_WAL_PROFILES,
      ...BOOKKEEPER_OBJECT_PROFILES,
    ]);
  });
});

describe("CoverageCache.changed", () => {
  it("wakes waiters of a stream when its coverage rises, not on a stale update; an abort releases the waiter", async () => {
    const cache = new CoverageCache();
    cache.update("s", { materializedEnd: 5, materializedCumulativeSize: 50 });
    let woke = false;
    const waiting = cache.changed("s").then(() => {
      woke = true;
    });
    cache.update("s", { materializedEnd: 3, materializedCumulativeSize: 30 });
    cache.update("t", { materializedEnd: 9, materializedCumulativeSize: 90 });
    await Promise.resolve();
    expect(woke).toBe(false);
    cache.update("s", { materializedEnd: 6, materializedCumulativeSize: 60 });
    await waiting;
    expect(woke).toBe(true);
    const controller = new AbortController();
    const released = cache.changed("s", controller.signal);
    controller.abort();
    await released;
  });
});

describe("BOOKKEEPER_WAL_ASYNC_OBJECT on the Object WAL runtime", () => {
  it("rejects over the lag bound before any primary-WAL I/O; the worker publishes from exact BK ranges; reads move to Object", async () => {
    const { bk, runtime, store } = stack({ lagBound: { maxRecords: 3, maxBytes: 0 } });
    const { streamId } = await store.createStream("async", { profile: "BOOKKEEPER_WAL_ASYNC_OBJECT" });
    for (let index = 0; index < 4; index++) {
      const result = await store.append(streamId, batch(`a${String(index)}`));
      expect(result.readTarget.type).toBe("BOOKKEEPER_ENTRY_RANGE");
    }
    const persists = bk.stats.persists;
    const rejected = await store.append(streamId, batch("over")).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(AppendFailedError);
    expect((rejected as AppendFailedError).code).toBe(ErrorCode.BACKPRESSURE_REJECTED);
    expect((rejected as AppendFailedError).outcome).toBe("KNOWN_NOT_COMMITTED");
    expect(bk.stats.persists).toBe(persists);
    // Existing commits stay readable from BookKeeper.
    const bkReads = bk.stats.reads;
    expect(await readAll(store, streamId)).toEqual(["a0", "a1", "a2", "a3"]);
    expect(bk.stats.reads).toBeGreaterThan(bkReads);

    await runtime.worker.runStream(streamId);
    expect(runtime.worker.stats.tasksPublished).toBe(1);
    const afterWorker = bk.stats.reads;
    const objectReads = runtime.reader.stats.reads;
    expect(await readAll(store, streamId)).toEqual(["a0", "a1", "a2", "a3"]);
    expect(bk.stats.reads).toBe(afterWorker);
    expect(runtime.reader.stats.reads).toBeGreaterThan(objectReads);
    await store.append(streamId, batch("a4"));
  });
});

describe("BOOKKEEPER_WAL_SYNC_OBJECT on the Object WAL runtime", () => {
  it("acknowledges after a committed generation covering the append was read back", async () => {
    const { runtime, store } = stack({ materialization: { intervalMs: 5 } });
    runtime.start();
    const { streamId } = await store.createStream("sync", { profile: "BOOKKEEPER_WAL_SYNC_OBJECT" });
    const result = await store.append(streamId, batch("s0"));
    expect(result.readTarget.type).toBe("BOOKKEEPER_ENTRY_RANGE");
    expect(runtime.storeOptions({ builtInCoordinators: false }).completionCoordinators).toEqual([runtime.required]);
    expect(runtime.required.verified).toBe(1);
    expect(await readAll(store, streamId)).toEqual(["s0"]);
  });

  it("an object-store outage during the append is KNOWN_COMMITTED; recovery reports the same offsets without a second BK write", async () => {
    const { bk, objects, runtime, store } = stack({ materialization: { intervalMs: 5 } });
    runtime.start();
    const { streamId } = await store.createStream("sync-outage", { profile: "BOOKKEEPER_WAL_SYNC_OBJECT" });
    await store.append(streamId, batch("before"));
    objects.outage = true;
    const failed = await store.append(streamId, batch("during"), { timeoutMs: 300 }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(AppendFailedError);
    const failure = failed as AppendFailedError;
    expect(failure.outcome).toBe("KNOWN_COMMITTED");
    expect(failure.attemptId).toBeDefined();
    expect(objects.refused).toBeGreaterThan(0);
    // Consumers read the committed range from BookKeeper meanwhile ("before" is served by its Object generation).
    const meanwhile = await store.read(streamId, 1);
    expect(meanwhile.entries.map((entry) => new TextDecoder().decode(entry.payload))).toEqual(["during"]);
    const persists = bk.stats.persists;
    objects.outage = false;
    const recovered = await store.recoverAppend(streamId, failure.attemptId as string, { timeoutMs: 10_000 });
    expect([recovered.startOffset, recovered.endOffset]).toEqual([1, 2]);
    expect(bk.stats.persists).toBe(persists);
    expect(await readAll(store, streamId)).toEqual(["before", "during"]);
  });
});
