// The orphan sweep of the object store: an object no root names is deleted only after it was seen rootless for
// orphanAgeMs, behind a DELETING root that fences every later reference; objects with a root are never touched; a
// sweep cut short after the fence is finished by the next one.
import { ReclamationStats } from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore } from "@nereus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { objectKeyHash } from "../roots/physical-object-keys.js";
import { physicalObjectRootCodec } from "../roots/physical-object-root-codec.js";
import { PhysicalObjectRoots } from "../roots/physical-object-roots.js";
import { ObjectOrphanSweeper } from "./object-orphans.js";

const CLUSTER = "orphans";
const stores: InMemoryMetadataStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

function world() {
  const metadata = new InMemoryMetadataStore();
  stores.push(metadata);
  const objectStore = new InMemoryObjectStore();
  let now = 1_000_000;
  const stats = new ReclamationStats();
  const sweeper = new ObjectOrphanSweeper({
    metadata,
    objectStore,
    cluster: CLUSTER,
    orphanAgeMs: 60_000,
    stats,
    clock: () => now,
  });
  return { metadata, objectStore, sweeper, stats, advance: (ms: number) => (now += ms) };
}

const roots = new PhysicalObjectRoots(CLUSTER);

describe("ObjectOrphanSweeper", () => {
  it("deletes a rootless object only after it was seen rootless for orphanAgeMs, fencing references first", async () => {
    const { metadata, objectStore, sweeper, stats, advance } = world();
    await objectStore.putIfAbsent("orphans/wal/v1/lost-put.nrs", new Uint8Array(300));
    expect(await sweeper.sweep()).toMatchObject({ objectsListed: 1, orphansSighted: 1, orphansDeleted: 0 });
    advance(59_999);
    expect(await sweeper.sweep()).toMatchObject({ orphansDeleted: 0 });
    expect(await objectStore.head("orphans/wal/v1/lost-put.nrs")).toBeDefined();
    advance(1);
    expect(await sweeper.sweep()).toMatchObject({ orphansDeleted: 1, orphanBytesDeleted: 300 });
    expect(await objectStore.head("orphans/wal/v1/lost-put.nrs")).toBeUndefined();
    expect(await metadata.get(roots.rootKey("orphans/wal/v1/lost-put.nrs"))).toBeUndefined();
    expect(stats.bytesFreed.get("ORPHAN_OBJECT")).toBe(300);
  });

  it("never lists what lies outside the Object WAL's key spaces (cursor snapshots)", async () => {
    const { objectStore, sweeper, advance } = world();
    await objectStore.putIfAbsent("cursor-snapshots/v1/orphans/s-1/c/1/x.ncs", new Uint8Array(50));
    await sweeper.sweep();
    advance(120_000);
    expect(await sweeper.sweep()).toMatchObject({ objectsListed: 0, orphansDeleted: 0 });
    expect(await objectStore.head("cursor-snapshots/v1/orphans/s-1/c/1/x.ncs")).toBeDefined();
  });

  it("leaves an object alone once a root names it, and a fence makes a late reference fail", async () => {
    const { metadata, objectStore, sweeper, advance } = world();
    await objectStore.putIfAbsent("orphans/wal/v1/late.nrs", new Uint8Array(10));
    await sweeper.sweep();
    // A head transaction names the object (it creates the root, comparing its absence) before the age passes.
    const rootKey = roots.rootKey("orphans/wal/v1/late.nrs");
    const root = physicalObjectRootCodec.encode({
      objectKey: "orphans/wal/v1/late.nrs",
      objectKeyHash: objectKeyHash("orphans/wal/v1/late.nrs"),
      objectId: "late",
      kind: "OBJECT_WAL",
      lifecycle: "ACTIVE",
      lifecycleEpoch: 0,
      writerId: "writer-a",
      processRunId: "run-1",
      createdAtMillis: 1,
      orphanNotBeforeMillis: 1,
      objectLength: 10,
      storageChecksum: 0,
      formatMajor: 1,
      formatMinor: 0,
      sliceCount: 1,
      manifestOffset: 0,
      manifestLength: 1,
      manifestChecksum: 0,
    });
    await metadata.txn({
      compares: [{ key: rootKey, modRevision: 0 }],
      writes: [{ type: "put", key: rootKey, value: root }],
    });
    advance(120_000);
    expect(await sweeper.sweep()).toMatchObject({ orphansDeleted: 0 });
    expect(await objectStore.head("orphans/wal/v1/late.nrs")).toBeDefined();

    // The other way round: the fence first, then a head transaction that would name the object cannot commit.
    await objectStore.putIfAbsent("orphans/generations/v1/s-1/fenced.nrs", new Uint8Array(10));
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: () => true, times: 1 });
    await sweeper.sweep();
    advance(60_000);
    // The fence applied but its response was lost: the sweep stopped; the next one resumes from the DELETING root.
    const cut = await sweeper.sweep();
    expect(cut.error).toBeDefined();
    const fencedKey = roots.rootKey("orphans/generations/v1/s-1/fenced.nrs");
    expect(await metadata.get(fencedKey)).toBeDefined();
    const late = await metadata.txn({
      compares: [{ key: fencedKey, modRevision: 0 }],
      writes: [{ type: "put", key: fencedKey, value: new Uint8Array([1]) }],
    });
    expect(late.succeeded).toBe(false);
    expect(await sweeper.sweep()).toMatchObject({ orphansDeleted: 1 });
    expect(await objectStore.head("orphans/generations/v1/s-1/fenced.nrs")).toBeUndefined();
    expect(await metadata.get(fencedKey)).toBeUndefined();
  });
});
