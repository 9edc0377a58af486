// Scenarios of the Object WAL collector: shared multi-stream objects freed only once every stream let go, source
// retirement after generations, superseded generations, the grace period, vetoes, and the metadata a trimmed
// stream keeps. The randomized history checker (testing/reclamation-history.ts) covers crashes and lost responses.
import { InMemoryMetadataStore, InMemoryObjectStore } from "@nereus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { ObjectWalStack, opaque } from "../testing/object-wal-stack.js";
import { objectProtectionCodec } from "../roots/object-protection-codec.js";
import { objectKeyHash, objectProtectionKey } from "../roots/physical-object-keys.js";
import type { ReclamationPolicy } from "./reclamation-context.js";
import { StreamReclaimer } from "./stream-reclaimer.js";

const stacks: ObjectWalStack[] = [];
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.dispose();
});

const IMMEDIATE: ReclamationPolicy = { graceMs: 0, clockSkewMs: 0, minObjectAgeMs: 0, tombstoneRetentionMs: 0 };

function open(policy: Partial<ReclamationPolicy> = IMMEDIATE, clock?: () => number) {
  const inner = new InMemoryObjectStore();
  const stack = new ObjectWalStack(new InMemoryMetadataStore(), inner);
  stacks.push(stack);
  const process = stack.open({
    runtime: {
      flush: { lingerMs: 20 },
      reclamation: { policy },
      ...(clock === undefined ? {} : { clock }),
    },
  });
  return { stack, inner, ...process };
}

/** Polls `condition` for up to 5 s (a read reaches its GET on its own schedule). */
async function until(condition: () => boolean): Promise<void> {
  for (let spin = 0; spin < 1000 && !condition(); spin++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

async function walKeys(inner: InMemoryObjectStore): Promise<string[]> {
  const page = await inner.list("", { limit: 1000 });
  return page.items.map((item) => item.key);
}

async function streamKeys(stack: ObjectWalStack, streamId: string): Promise<string[]> {
  const page = await stack.metadata.scan(`${stack.keyspace.prefix}/streams/${streamId}/`, { limit: 10_000 });
  return page.items.map((item) => item.key.slice(stack.keyspace.prefix.length + streamId.length + 10));
}

describe("StreamReclaimer", () => {
  it("frees a multi-stream WAL object only once every stream with a slice in it released it", async () => {
    const { stack, inner, store, runtime } = open();
    const a = (await store.createStream("a", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
    const b = (await store.createStream("b", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
    await Promise.all([store.append(a, opaque("a0", "a1")), store.append(b, opaque("b0"))]);
    const shared = await walKeys(inner);
    expect(shared).toHaveLength(1);
    await store.append(a, opaque("a2"));
    expect(await walKeys(inner)).toHaveLength(2);

    await store.trim(a, 3);
    const first = await runtime.reclaimer.runStream(a);
    expect(first).toMatchObject({ floor: 3, commitsTrimmed: 2, targetsReleased: 2, objectsDeleted: 1 });
    // The object only `a` used is gone; the shared one stays: `b` still protects it.
    expect(await walKeys(inner)).toEqual(shared);
    expect(await stack.protectionCount(shared[0] as string)).toBe(1);
    expect(await stack.readAll(store, b)).toEqual([[0, 1, "b0"]]);

    await store.trim(b, 1);
    const second = await runtime.reclaimer.runStream(b);
    expect(second).toMatchObject({ commitsTrimmed: 1, targetsReleased: 1, objectsDeleted: 1 });
    expect(await walKeys(inner)).toEqual([]);
    expect(runtime.reclaimer.stats.objectsFreed.get("OBJECT_WAL")).toBe(2);
    // Below the trim nothing of the commits is left: only the head (and its registration and state) remain.
    for (const streamId of [a, b]) expect(await streamKeys(stack, streamId)).toEqual(["head"]);
  });

  it("retires WAL slices covered by a committed generation, and a generation superseded by a merge", async () => {
    const { stack, inner, store, runtime } = open();
    const s = (await store.createStream("s", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
    const worker = stack.worker({ policy: { minLevelOneBytes: 0, minMergeSources: 2, maxSources: 2 } });
    const written: Array<[number, number, string]> = [];
    for (let index = 0; index < 4; index++) {
      await store.append(s, opaque(`e${String(index)}`));
      written.push([index, 1, `e${String(index)}`]);
    }
    await worker.runStream(s);
    const generations = (await stack.generations(s)).filter((entry) => entry.state === "COMMITTED");
    expect(generations.map((entry) => entry.level).sort()).toEqual([1, 1, 2]);

    const report = await runtime.reclaimer.runStream(s);
    // Four WAL objects retired (their commits stay), two level-1 generations superseded by the level-2 one.
    expect(report).toMatchObject({ commitsRetired: 4, generationsReleased: 2, objectsDeleted: 6 });
    const left = await walKeys(inner);
    expect(left).toHaveLength(1);
    expect(left[0]).toContain("/generations/");
    expect(await stack.readAll(store, s)).toEqual(written);
    expect(await stack.intentCount(s)).toBe(4);
  });

  it("waits out the grace period, and a read of this process pins the object it reads", async () => {
    let now = 1_000_000;
    const { inner, store, runtime } = open({ ...IMMEDIATE, graceMs: 5_000 }, () => now);
    const s = (await store.createStream("s", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
    await store.append(s, opaque("x"));
    await store.trim(s, 1);
    expect(await runtime.reclaimer.runStream(s)).toMatchObject({ objectsDeleted: 0, pendingObjects: 1 });
    expect(runtime.reclaimer.stats.pendingObjects).toBe(1);
    now += 5_000;
    const [key] = await walKeys(inner);
    const release = runtime.readPins.pin([`object:${String(key)}`]);
    expect(await runtime.reclaimer.runStream(s)).toMatchObject({ objectsDeleted: 0, pendingObjects: 1 });
    release?.();
    expect(await runtime.reclaimer.runStream(s)).toMatchObject({ objectsDeleted: 1, pendingObjects: 0 });
    expect(runtime.reclaimer.stats.pendingObjects).toBe(0);
    expect(await walKeys(inner)).toEqual([]);
  });

  it("a read of this process that waits for its object's bytes finishes on them while a trim and a run pass", async () => {
    const { stack, inner, store, runtime } = open();
    const s = (await store.createStream("s", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
    await store.append(s, opaque("kept"));
    const resume = stack.objects.pauseGets();
    const reading = store.read(s, 0);
    await until(() => stack.objects.pendingGets > 0);
    await store.trim(s, 1);
    expect(await runtime.reclaimer.runStream(s)).toMatchObject({ objectsDeleted: 0, pendingObjects: 1 });
    resume();
    expect((await reading).entries.map((entry) => new TextDecoder().decode(entry.payload))).toEqual(["kept"]);
    expect(await runtime.reclaimer.runStream(s)).toMatchObject({ objectsDeleted: 1 });
    expect(await walKeys(inner)).toEqual([]);
  });

  it("a read whose object another process's collector deleted ends with a clean OFFSET_TRIMMED", async () => {
    const { stack, store } = open();
    const s = (await store.createStream("s", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
    await store.append(s, opaque("gone"));
    const resume = stack.objects.pauseGets();
    const reading = store.read(s, 0).then(
      () => undefined,
      (error: unknown) => error,
    );
    await until(() => stack.objects.pendingGets > 0);
    await store.trim(s, 1);
    const elsewhere = stack.open({ runtime: { reclamation: { policy: IMMEDIATE } } });
    expect(await elsewhere.runtime.reclaimer.runStream(s)).toMatchObject({ objectsDeleted: 1 });
    resume();
    expect(await reading).toMatchObject({ code: "OFFSET_TRIMMED", details: { trimOffset: 1 } });
  });

  it("a collector that crashes after any step leaves work the next one finishes, freeing each object once", async () => {
    for (let crashAt = 1; crashAt <= 8; crashAt++) {
      const { stack, inner, store, runtime } = open();
      const s = (await store.createStream("s", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
      await store.append(s, opaque("x"));
      await store.append(s, opaque("y"));
      await store.trim(s, 2);
      let calls = 0;
      const crash = (): void => {
        if (++calls === crashAt) throw new Error("crash");
      };
      const crashing = new StreamReclaimer({
        metadata: stack.metadata,
        objectStore: stack.objects,
        cluster: stack.cluster,
        writerId: "broker-1",
        readPins: runtime.readPins,
        policy: IMMEDIATE,
        hooks: { afterRelease: crash, afterStep: crash, afterObjectDelete: crash },
      });
      const first = await crashing.runStream(s);
      const second = await runtime.reclaimer.runStream(s);
      expect(second.error, `crash at ${String(crashAt)}`).toBeUndefined();
      const freed = (crashing.stats.objectsFreed.get("OBJECT_WAL") ?? 0) + second.objectsDeleted;
      expect(freed, `crash at ${String(crashAt)}`).toBe(2);
      expect(first.error, `crash at ${String(crashAt)}`).toBeDefined();
      expect(await walKeys(inner)).toEqual([]);
      expect(await streamKeys(stack, s)).toEqual(["head"]);
      const physical = await stack.metadata.scan(`${stack.keyspace.prefix}/physical-objects/`, { limit: 10 });
      expect(physical.items).toEqual([]);
    }
  });

  it("a protection found once the grace period is over vetoes the mark: the root is ACTIVE again, the object kept", async () => {
    let now = 1_000_000;
    const { stack, inner, store, runtime } = open({ ...IMMEDIATE, graceMs: 1_000 }, () => now);
    const s = (await store.createStream("s", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
    await store.append(s, opaque("x"));
    await store.trim(s, 1);
    expect(await runtime.reclaimer.runStream(s)).toMatchObject({ pendingObjects: 1 });
    const [objectKey] = await walKeys(inner);
    expect(await stack.root(objectKey as string)).toMatchObject({ lifecycle: "MARKED", lifecycleEpoch: 1 });
    // A reference made before the mark (its transaction compared the ACTIVE root) shows up only now.
    const hash = objectKeyHash(objectKey as string);
    await stack.metadata.txn({
      compares: [],
      writes: [
        {
          type: "put",
          key: objectProtectionKey(stack.cluster, hash, 1, "ra1-late"),
          value: objectProtectionCodec.encode({
            objectKeyHash: hash,
            type: "REACHABLE_APPEND",
            referenceId: "ra1-late",
            ownerKey: stack.keyspace.intentKey("s-other", "c1"),
            streamId: "s-other",
            rootLifecycleEpoch: 0,
          }),
        },
      ],
    });
    now += 1_000;
    expect(await runtime.reclaimer.runStream(s)).toMatchObject({ objectsDeleted: 0, pendingObjects: 0 });
    expect(runtime.reclaimer.stats.vetoes).toBe(1);
    expect(await stack.root(objectKey as string)).toMatchObject({ lifecycle: "ACTIVE", lifecycleEpoch: 2 });
    expect(await walKeys(inner)).toEqual([objectKey]);
    expect(await streamKeys(stack, s)).toEqual(["head"]);
  });

  it("an append still committing a slice of an object that gets marked fails retryable, not committed; its retry succeeds", async () => {
    const inner = new InMemoryObjectStore();
    const stack = new ObjectWalStack(new InMemoryMetadataStore(), inner);
    stacks.push(stack);
    let paused: (() => void) | undefined;
    let pausedAt: (() => void) | undefined;
    const reached = new Promise<void>((resolve) => {
      pausedAt = resolve;
    });
    const { store, runtime } = stack.open({
      runtime: { flush: { lingerMs: 20 }, reclamation: { policy: IMMEDIATE } },
      store: {
        stepHooks: {
          afterProtection: async (step) => {
            if (!step.streamId.endsWith(late) || paused !== undefined) return;
            await new Promise<void>((resolve) => {
              paused = resolve;
              pausedAt?.();
            });
          },
        },
      },
    });
    const a = (await store.createStream("a", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
    const b = (await store.createStream("b", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
    const late = b.slice(-8);
    const lateAppend = store.append(b, opaque("b0")).then(
      () => undefined,
      (error: unknown) => error,
    );
    await store.append(a, opaque("a0"));
    await reached;
    const objects = await walKeys(inner);
    expect(objects).toHaveLength(1);
    const [shared] = objects;
    await store.trim(a, 1);
    // `b`'s slice has no protection yet: the object is marked (and, with no grace, deleted) under it.
    expect(await runtime.reclaimer.runStream(a)).toMatchObject({ objectsDeleted: 1 });
    paused?.();
    expect(await lateAppend).toMatchObject({ outcome: "KNOWN_NOT_COMMITTED", retryable: true });
    expect(await walKeys(inner)).not.toContain(shared);
    await store.append(b, opaque("b0 again"));
    expect(await stack.readAll(store, b)).toEqual([[0, 1, "b0 again"]]);
  });

  it("skips a stream whose head and materialization record did not change since a run found nothing to do", async () => {
    const { store, runtime } = open();
    const s = (await store.createStream("s", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
    await store.append(s, opaque("x"));
    expect((await runtime.reclaimer.runStream(s)).skipped).toBeUndefined();
    expect(await runtime.reclaimer.runStream(s)).toMatchObject({ skipped: "unchanged" });
    await store.trim(s, 1);
    expect(await runtime.reclaimer.runStream(s)).toMatchObject({ commitsTrimmed: 1, objectsDeleted: 1 });
  });

  it("skips a stream another live writer owns", async () => {
    const { stack, store } = open();
    const s = (await store.createStream("s", { profile: "OBJECT_WAL_SYNC_OBJECT" })).streamId;
    await store.append(s, opaque("x"));
    await store.trim(s, 1);
    const other = stack.open({ writerId: "broker-2", runtime: { reclamation: { policy: IMMEDIATE } } });
    expect(await other.runtime.reclaimer.runStream(s)).toMatchObject({ skipped: "not-owner", objectsDeleted: 0 });
  });
});
