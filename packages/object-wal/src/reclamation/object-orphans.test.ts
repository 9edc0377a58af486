// The orphan sweep of the object store: an object no root names is deleted only after it was seen rootless for
// orphanAgeMs, behind a DELETING root that fences every later reference; objects with a root are never touched; a
// sweep cut short after the fence is finished by the next one.
import { ReclamationStats } from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore } from "@nereus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
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
    await objectStore.putIfAbsent("wal/lost-put", new Uint8Array(300));
    expect(await sweeper.sweep()).toMatchObject({ objectsListed: 1, orphansSighted: 1, orphansDeleted: 0 });
    advance(59_999);
    expect(await sweeper.sweep()).toMatchObject({ orphansDeleted: 0 });
    expect(await objectStore.head("wal/lost-put")).toBeDefined();
    advance(1);
    expect(await sweeper.sweep()).toMatchObject({ orphansDeleted: 1, orphanBytesDeleted: 300 });
    expect(await objectStore.head("wal/lost-put")).toBeUndefined();
    expect(await metadata.get(roots.rootKey("wal/lost-put"))).toBeUndefined();
    expect(stats.bytesFreed.get("ORPHAN_OBJECT")).toBe(300);
  });

  it("leaves an object alone once a root names it, and a fence makes a late reference fail", async () => {
    const { metadata, objectStore, sweeper, advance } = world();
    await objectStore.putIfAbsent("wal/late", new Uint8Array(10));
    await sweeper.sweep();
    // A head transaction names the object (it creates the root, comparing its absence) before the age passes.
    const rootKey = roots.rootKey("wal/late");
    await metadata.txn({
      compares: [{ key: rootKey, modRevision: 0 }],
      writes: [{ type: "put", key: rootKey, value: new Uint8Array([1]) }],
    });
    advance(120_000);
    expect(await sweeper.sweep()).toMatchObject({ orphansDeleted: 0 });
    expect(await objectStore.head("wal/late")).toBeDefined();

    // The other way round: the fence first, then a head transaction that would name the object cannot commit.
    await objectStore.putIfAbsent("wal/fenced", new Uint8Array(10));
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: () => true, times: 1 });
    await sweeper.sweep();
    advance(60_000);
    // The fence applied but its response was lost: the sweep stopped; the next one resumes from the DELETING root.
    const cut = await sweeper.sweep();
    expect(cut.error).toBeDefined();
    const fencedKey = roots.rootKey("wal/fenced");
    expect(await metadata.get(fencedKey)).toBeDefined();
    const late = await metadata.txn({
      compares: [{ key: fencedKey, modRevision: 0 }],
      writes: [{ type: "put", key: fencedKey, value: new Uint8Array([1]) }],
    });
    expect(late.succeeded).toBe(false);
    expect(await sweeper.sweep()).toMatchObject({ orphansDeleted: 1 });
    expect(await objectStore.head("wal/fenced")).toBeUndefined();
    expect(await metadata.get(fencedKey)).toBeUndefined();
  });
});
