import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  DurabilityGateWord,
  ErrorCode,
  NereusError,
  streamIdFromName,
  type DurabilityGate,
  type ObjectSliceTarget,
  type PersistedWrite,
  type ReadTarget,
  type WalWriteRequest,
} from "@nereus/core";
import {
  InMemoryMetadataStore,
  InMemoryObjectStore,
  corruptObjectSlice,
  describeWalProviderConformance,
} from "@nereus/core/testing";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { decodeWalObject } from "../format/decode-wal-object.js";
import {
  createFileSystemObjectStore,
  type FileSystemObjectStore,
  type SegmentLayoutOptions,
} from "../file-system/file-system-object-store.js";
import { ObjectWalReader } from "../reader/object-wal-reader.js";
import { objectProtectionCodec } from "../roots/object-protection-codec.js";
import { segmentFileName } from "../file-system/segments/segment-recovery.js";
import { parseObjectProtectionKey, physicalObjectRootKey, objectKeyHash } from "../roots/physical-object-keys.js";
import { physicalObjectRootCodec } from "../roots/physical-object-root-codec.js";
import { objectWalConformanceFixture } from "../testing/object-wal-conformance-fixture.js";
import { ObjectWalWriter, type ObjectWalWriterOptions } from "./object-wal-writer.js";
import { walObjectIdentity } from "./wal-object-naming.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CLUSTER = "unit";

describeWalProviderConformance(
  "ObjectWalWriter over InMemoryObjectStore",
  async () => objectWalConformanceFixture(new InMemoryObjectStore(), { cluster: CLUSTER, lingerMs: 0 }),
  { supportsCorruption: true },
);

describeWalProviderConformance(
  "ObjectWalWriter over FileSystemObjectStore",
  async () => {
    const root = await mkdtemp(path.join(tmpdir(), "nereus-owal-"));
    const objectStore = createFileSystemObjectStore({ root });
    return objectWalConformanceFixture(objectStore, {
      cluster: CLUSTER,
      lingerMs: 1,
      release: async () => {
        await objectStore.close();
        await rm(root, { recursive: true, force: true });
      },
    });
  },
  { supportsCorruption: true },
);

interface Fixture {
  readonly objectStore: InMemoryObjectStore;
  readonly metadata: InMemoryMetadataStore;
  readonly writer: ObjectWalWriter;
  readonly reader: ObjectWalReader;
}

const open: Fixture[] = [];

function fixture(overrides: Partial<ObjectWalWriterOptions> = {}): Fixture {
  const objectStore = new InMemoryObjectStore();
  const metadata = new InMemoryMetadataStore();
  const writer = new ObjectWalWriter({
    objectStore,
    metadata,
    cluster: CLUSTER,
    writerId: "broker-1",
    flush: { lingerMs: 5 },
    ...overrides,
  });
  const created = { objectStore, metadata, writer, reader: new ObjectWalReader({ objectStore }) };
  open.push(created);
  return created;
}

afterEach(async () => {
  for (const item of open.splice(0)) {
    await item.writer.close();
    await item.metadata.close();
  }
});

let attempts = 0;
function request(stream: string, texts: readonly string[], expectedStartOffset = 0): WalWriteRequest {
  attempts += 1;
  return {
    streamId: streamIdFromName(stream),
    attemptId: `run/${String(attempts)}`,
    writerId: "broker-1",
    writerEpoch: 1,
    expectedStartOffset,
    payloadFormat: "OPAQUE_RECORD_BATCH",
    entries: texts.map((text) => ({ payload: encoder.encode(text), recordCount: 1 })),
  };
}

const asSlice = (target: ReadTarget): ObjectSliceTarget => {
  if (target.type !== "OBJECT_SLICE") throw new Error("expected an object slice");
  return target;
};

async function expectError(promise: Promise<unknown>, code: string): Promise<NereusError> {
  try {
    await promise;
  } catch (error) {
    expect(NereusError.is(error), String(error)).toBe(true);
    expect((error as NereusError).code).toBe(code);
    return error as NereusError;
  }
  throw new Error(`expected ${code}`);
}

describe("ObjectWalWriter: multi-stream objects", () => {
  it("packs appends of many streams that arrive within the linger time into ONE object with ONE PUT", async () => {
    const { writer, objectStore, reader } = fixture();
    const streams = Array.from({ length: 50 }, (_, index) => `orders-${String(index)}`);
    const persisted = await Promise.all(
      streams.map((stream) => writer.persist(writer.prepare(request(stream, [`${stream}:a`, `${stream}:b`])))),
    );
    expect(objectStore.stats.puts).toBe(1);
    expect(writer.stats).toMatchObject({ objects: 1, puts: 1, slices: 50, failedFlushes: 0 });
    const keys = new Set(persisted.map((item) => asSlice(item.readTarget).objectKey));
    expect(keys.size).toBe(1);
    const decoded = decodeWalObject(await objectStore.get([...keys][0] ?? ""));
    expect(decoded.slices).toHaveLength(50);
    for (const [index, item] of persisted.entries()) {
      const entries = await reader.readEntries(item.readTarget);
      expect(entries.map((entry) => decoder.decode(entry.payload))).toEqual([
        `${streams[index] ?? ""}:a`,
        `${streams[index] ?? ""}:b`,
      ]);
    }
  });

  it("linger 0: appends reaching the writer through promise chains of any depth in one turn share ONE object, uploaded before the turn's check phase", async () => {
    const uploads: string[] = [];
    let checkPhaseRan = false;
    const { writer, objectStore } = fixture({
      flush: { lingerMs: 0 },
      hooks: { beforeUpload: (key) => void uploads.push(`${key}:${String(checkPhaseRan)}`) },
    });
    const persistAfter = async (stream: string, awaits: number): Promise<PersistedWrite> => {
      for (let step = 0; step < awaits; step += 1) await Promise.resolve();
      return writer.persist(writer.prepare(request(stream, [stream])));
    };
    setImmediate(() => {
      checkPhaseRan = true;
    });
    const persisted = await Promise.all([
      persistAfter("shallow", 0),
      persistAfter("middle", 3),
      persistAfter("deep", 12),
    ]);
    expect(new Set(persisted.map((item) => asSlice(item.readTarget).objectKey)).size).toBe(1);
    expect(objectStore.stats.puts).toBe(1);
    // The upload started before the check phase of the turn the appends were issued in.
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.endsWith(":false")).toBe(true);
    // A later turn starts a new object.
    await new Promise((resolve) => setImmediate(resolve));
    await persistAfter("later", 0);
    expect(writer.stats.objects).toBe(2);
  });

  it("starts a new object at maxSlices and at maxBytes", async () => {
    const bySlices = fixture({ flush: { lingerMs: 100, maxSlices: 10 } });
    await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        bySlices.writer.persist(bySlices.writer.prepare(request(`s-${String(index)}`, ["x"]))),
      ),
    );
    expect(bySlices.writer.stats).toMatchObject({ objects: 3, puts: 3, slices: 30 });

    const byBytes = fixture({ flush: { lingerMs: 100, maxBytes: 64 * 1024 } });
    const payload = "y".repeat(20 * 1024);
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        byBytes.writer.persist(byBytes.writer.prepare(request(`b-${String(index)}`, [payload]))),
      ),
    );
    expect(byBytes.writer.stats.objects).toBe(2);
  });

  it("never puts two slices of one stream into one object", async () => {
    const { writer } = fixture();
    const [first, second] = await Promise.all([
      writer.persist(writer.prepare(request("same", ["one"]))),
      writer.persist(writer.prepare(request("same", ["two"], 1))),
    ]);
    expect(asSlice(first?.readTarget as ReadTarget).objectKey).not.toBe(
      asSlice(second?.readTarget as ReadTarget).objectKey,
    );
    expect(writer.stats.objects).toBe(2);
  });

  it("keeps collecting while every upload slot is busy instead of issuing tiny PUTs", async () => {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let uploads = 0;
    const { writer } = fixture({
      flush: { lingerMs: 1, maxConcurrentFlushes: 1 },
      hooks: {
        beforeUpload: async () => {
          uploads += 1;
          if (uploads === 1) await gate;
        },
      },
    });
    const first = writer.persist(writer.prepare(request("first", ["a"])));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const later = Array.from({ length: 20 }, (_, index) =>
      writer.persist(writer.prepare(request(`later-${String(index)}`, ["b"]))),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    await Promise.all([first, ...later]);
    expect(writer.stats).toMatchObject({ objects: 2, slices: 21 });
  });

  it("persisting the same prepared write again returns the same target without another PUT", async () => {
    const { writer, objectStore } = fixture();
    const prepared = writer.prepare(request("again", ["x"]));
    const first = await writer.persist(prepared);
    const second = await writer.persist(prepared);
    expect(second).toBe(first);
    expect(objectStore.stats.puts).toBe(1);
  });

  it("copies caller-owned payloads at prepare, and keeps handed-over ones by reference", async () => {
    const { writer, reader } = fixture();
    const kept = encoder.encode("kept!");
    const handedOver = writer.prepare({
      ...request("kept", []),
      entries: [{ payload: kept, recordCount: 1 }],
      payloadsHandedOver: true,
    });
    const ownedAgain = encoder.encode("later");
    const copiedWrite = writer.prepare({
      ...request("copied", []),
      entries: [{ payload: ownedAgain, recordCount: 1 }],
    });
    ownedAgain.set(encoder.encode("XXXXX"));
    const [keptTarget, copiedTarget] = await Promise.all([writer.persist(handedOver), writer.persist(copiedWrite)]);
    expect(decoder.decode((await reader.readEntries(copiedTarget.readTarget))[0]?.payload)).toBe("later");
    expect(decoder.decode((await reader.readEntries(keptTarget.readTarget))[0]?.payload)).toBe("kept!");
    expect(handedOver.request.entries[0]?.payload).toBe(kept);
    expect(copiedWrite.request.entries[0]?.payload).not.toBe(ownedAgain);
  });

  it("builds the object in the store's allocateBody memory when the store offers it, and releases it after the upload", async () => {
    const objectStore = new InMemoryObjectStore();
    const allocated: Uint8Array[] = [];
    const released: Uint8Array[] = [];
    const withAllocator = Object.assign(objectStore, {
      accelerations: {
        allocateBody(length: number): Uint8Array {
          const body = new Uint8Array(new SharedArrayBuffer(length));
          allocated.push(body);
          return body;
        },
        releaseBody(body: Uint8Array): void {
          released.push(body);
        },
      },
    });
    const metadata = new InMemoryMetadataStore();
    const writer = new ObjectWalWriter({
      objectStore: withAllocator,
      metadata,
      cluster: CLUSTER,
      writerId: "broker-1",
      flush: { lingerMs: 0 },
    });
    const reader = new ObjectWalReader({ objectStore });
    open.push({ objectStore, metadata, writer, reader });
    const persisted = await writer.persist(writer.prepare(request("allocated", ["in shared memory"])));
    expect(allocated).toHaveLength(1);
    expect(decoder.decode((await reader.readEntries(persisted.readTarget))[0]?.payload)).toBe("in shared memory");
    if (persisted.readTarget.type !== "OBJECT_SLICE") throw new Error("not a slice");
    expect(
      Buffer.compare(
        Buffer.from(await objectStore.get(persisted.readTarget.objectKey)),
        Buffer.from(allocated[0] ?? []),
      ),
    ).toBe(0);
    // Released once, after the upload ended; a flush whose upload fails releases its body too.
    expect(released).toEqual([allocated[0]]);
    objectStore.faults.add({ op: "put", mode: "fail-before-apply", times: 10 });
    await expect(writer.persist(writer.prepare(request("allocated-2", ["fails"])))).rejects.toThrow();
    expect(released).toEqual(allocated);
  });

  it("drops a member whose caller gave up before the flush; the others are uploaded", async () => {
    const { writer, objectStore } = fixture({ flush: { lingerMs: 20 } });
    const controller = new AbortController();
    const gone = writer.persist(writer.prepare(request("gone", ["never"])), { signal: controller.signal });
    const kept = writer.persist(writer.prepare(request("kept", ["kept"])));
    controller.abort();
    await expectError(gone, ErrorCode.CANCELLED);
    const persisted = await kept;
    const decoded = decodeWalObject(await objectStore.get(asSlice(persisted.readTarget).objectKey));
    expect(decoded.slices.map((slice) => slice.streamId)).toEqual([streamIdFromName("kept")]);
  });
});

describe("ObjectWalWriter: upload, validation and uncertain PUTs", () => {
  it("uses a deterministic key from writer identity, run id and flush sequence", async () => {
    const clock = (): number => Date.UTC(2026, 10, 30, 12, 0, 0);
    const { writer } = fixture({ processRunId: "runabc", clock });
    const persisted = await writer.persist(writer.prepare(request("k", ["x"])));
    const expected = walObjectIdentity({
      cluster: CLUSTER,
      writerId: "broker-1",
      processRunId: "runabc",
      sequence: 1,
      createdAtMillis: clock(),
    });
    expect(asSlice(persisted.readTarget).objectKey).toBe(expected.objectKey);
    expect(expected.objectKey).toMatch(/^unit\/wal\/v1\/2026\/11\/30\/[a-z2-7]{52}\/runabc\/0000000000000000001\.nrs$/);
    expect(expected.objectId).toBe("wo-runabc-0000000000000000001");
  });

  it("recognises its own write when a PUT response was lost and the retry meets the key (412)", async () => {
    const { writer, objectStore, reader } = fixture();
    objectStore.faults.add({ op: "put", mode: "apply-then-lose-response" });
    const persisted = await writer.persist(writer.prepare(request("lost", ["survives"])));
    expect(objectStore.stats.puts).toBe(2);
    expect(writer.stats).toMatchObject({ objects: 1, puts: 2, recognisedOwnWrites: 1 });
    expect(decoder.decode((await reader.readEntries(persisted.readTarget))[0]?.payload)).toBe("survives");
  });

  it("refuses a key that holds someone else's bytes (an invariant violation, never an overwrite)", async () => {
    const clock = (): number => Date.UTC(2026, 0, 1);
    const { writer, objectStore } = fixture({ processRunId: "collide", clock });
    const key = walObjectIdentity({
      cluster: CLUSTER,
      writerId: "broker-1",
      processRunId: "collide",
      sequence: 1,
      createdAtMillis: clock(),
    }).objectKey;
    await objectStore.putIfAbsent(key, encoder.encode("not ours"));
    const error = await expectError(
      writer.persist(writer.prepare(request("c", ["x"]))),
      ErrorCode.PRIMARY_WAL_WRITE_FAILED,
    );
    expect(NereusError.hasCode(error.cause, ErrorCode.METADATA_INVARIANT_VIOLATION)).toBe(true);
    expect(decoder.decode(await objectStore.get(key))).toBe("not ours");
  });

  it("fails every member of a flush whose upload fails, and a retry of the same prepared write uses a new object", async () => {
    const { writer, objectStore, reader } = fixture({ putAttempts: 2 });
    objectStore.faults.add({ op: "put", mode: "fail-before-apply", times: 2 });
    const a = writer.prepare(request("fa", ["a"]));
    const b = writer.prepare(request("fb", ["b"]));
    const failures = await Promise.allSettled([writer.persist(a), writer.persist(b)]);
    for (const failure of failures) {
      expect(failure.status).toBe("rejected");
      const reason = (failure as PromiseRejectedResult).reason as NereusError;
      expect(reason.code).toBe(ErrorCode.PRIMARY_WAL_WRITE_FAILED);
      expect(reason.retryable).toBe(true);
    }
    expect(writer.stats.failedFlushes).toBe(1);
    const retried = await writer.persist(a);
    expect(decoder.decode((await reader.readEntries(retried.readTarget))[0]?.payload)).toBe("a");
    expect(asSlice(retried.readTarget).objectKey).toMatch(/0000000000000000002\.nrs$/);
  });

  it("a single-slice object's root is created by the head transaction that names it, not before", async () => {
    const { writer, objectStore, metadata } = fixture({ processRunId: "rootrun" });
    const persisted = await writer.persist(writer.prepare(request("rooted", ["x", "y"])));
    const objectKey = asSlice(persisted.readTarget).objectKey;
    const rootKey = physicalObjectRootKey(CLUSTER, objectKeyHash(objectKey));
    expect(await metadata.get(rootKey)).toBeUndefined();
    const protection = await writer.protect(persisted, "commitone", metadata);
    expect(protection.compares).toEqual([{ key: rootKey, modRevision: 0 }]);
    expect(protection.writes.map((write) => write.key)).toEqual([
      rootKey,
      expect.stringContaining("/protections/") as unknown as string,
    ]);
    expect((await metadata.txn({ compares: protection.compares, writes: protection.writes })).succeeded).toBe(true);
    const stored = await metadata.get(rootKey);
    const root = physicalObjectRootCodec.decode(stored?.value ?? new Uint8Array(), rootKey);
    const info = await objectStore.head(objectKey);
    expect(root).toMatchObject({
      objectKey,
      kind: "OBJECT_WAL",
      lifecycle: "ACTIVE",
      lifecycleEpoch: 0,
      writerId: "broker-1",
      processRunId: "rootrun",
      objectLength: info?.size,
      storageChecksum: info?.crc32c,
      sliceCount: 1,
    });
    // The same creating protection cannot commit twice: the root is no longer absent.
    expect((await metadata.txn({ compares: protection.compares, writes: protection.writes })).succeeded).toBe(false);
    // A later protect (a retried head transaction) compares the stored root's revision.
    const again = await writer.protect(persisted, "commitone", metadata);
    expect(again.compares).toEqual([{ key: rootKey, modRevision: stored?.modRevision }]);
  });

  it("a retried protect of a single-slice object whose head transaction did not commit creates the root again", async () => {
    const { writer, metadata } = fixture();
    const persisted = await writer.persist(writer.prepare(request("retried", ["x"])));
    const rootKey = physicalObjectRootKey(CLUSTER, objectKeyHash(asSlice(persisted.readTarget).objectKey));
    await writer.protect(persisted, "lost", metadata);
    const retried = await writer.protect(persisted, "lost", metadata);
    expect(retried.compares).toEqual([{ key: rootKey, modRevision: 0 }]);
    expect((await metadata.txn({ compares: retried.compares, writes: retried.writes })).succeeded).toBe(true);
  });

  it("a multi-slice object's root is created (ACTIVE) before its members resolve; protect compares its revision", async () => {
    const { writer, metadata } = fixture({ flush: { lingerMs: 60_000 } });
    const pending = [
      writer.persist(writer.prepare(request("shared-a", ["x"]))),
      writer.persist(writer.prepare(request("shared-b", ["y"]))),
    ];
    await writer.flushNow();
    const [persisted, other] = await Promise.all(pending);
    if (persisted === undefined || other === undefined) throw new Error("expected two slices");
    const objectKey = asSlice(persisted.readTarget).objectKey;
    expect(asSlice(other.readTarget).objectKey).toBe(objectKey);
    const rootKey = physicalObjectRootKey(CLUSTER, objectKeyHash(objectKey));
    const stored = await metadata.get(rootKey);
    expect(physicalObjectRootCodec.decode(stored?.value ?? new Uint8Array(), rootKey)).toMatchObject({
      objectKey,
      lifecycle: "ACTIVE",
      sliceCount: 2,
    });
    const protection = await writer.protect(persisted, "commitabc", metadata);
    expect(protection.compares).toEqual([{ key: rootKey, modRevision: stored?.modRevision }]);
    const [write] = protection.writes;
    if (write?.type !== "put") throw new Error("expected a put");
    const record = objectProtectionCodec.decode(write.value, write.key);
    expect(record).toMatchObject({
      type: "REACHABLE_APPEND",
      streamId: streamIdFromName("shared-a"),
      rootLifecycleEpoch: 0,
    });
    expect(record.ownerKey).toBe(
      `/nereus/clusters/${CLUSTER}/streams/${streamIdFromName("shared-a")}/commit-log/commitabc`,
    );
    expect(parseObjectProtectionKey(write.key).referenceId).toMatch(/^ra1-[a-z2-7]{52}$/);
    // Once a collector changed the root (e.g. marked it), the protecting transaction cannot commit.
    await metadata.txn({
      compares: [],
      writes: [{ type: "put", key: rootKey, value: stored?.value ?? new Uint8Array() }],
    });
    expect((await metadata.txn({ compares: protection.compares, writes: protection.writes })).succeeded).toBe(false);
  });

  it("protect of a target from another process loads and checks the root", async () => {
    const { writer, metadata, objectStore } = fixture();
    const persisted = await writer.persist(writer.prepare(request("elsewhere", ["x"])));
    const created = await writer.protect(persisted, "commitxyz", metadata);
    expect((await metadata.txn({ compares: created.compares, writes: created.writes })).succeeded).toBe(true);
    const other = new ObjectWalWriter({ objectStore, metadata, cluster: CLUSTER, writerId: "broker-2" });
    const protection = await other.protect(persisted, "commitxyz", metadata);
    expect(protection.compares[0]?.modRevision).toBeGreaterThan(0);
    expect((await metadata.txn({ compares: protection.compares, writes: protection.writes })).succeeded).toBe(true);
    const orphan: typeof persisted = {
      ...persisted,
      readTarget: { ...asSlice(persisted.readTarget), objectKey: "unit/wal/v1/none.nrs" },
    };
    await expectError(other.protect(orphan, "c", metadata), ErrorCode.METADATA_CONDITION_FAILED);
    await other.close();
  });

  it("close uploads what is pending and refuses later persists", async () => {
    const { writer, objectStore } = fixture({ flush: { lingerMs: 60_000 } });
    const pending = writer.persist(writer.prepare(request("closing", ["x"])));
    await writer.close();
    await pending;
    expect(objectStore.stats.puts).toBe(1);
    await expectError(writer.persist(writer.prepare(request("late", ["y"]))), ErrorCode.STORAGE_CLOSED);
  });
});

describe("ObjectWalWriter: durability gates (FileSystemObjectStore segment layout)", () => {
  interface GatedFixture {
    readonly objectStore: FileSystemObjectStore;
    readonly root: string;
    readonly metadata: InMemoryMetadataStore;
    readonly writer: ObjectWalWriter;
    readonly reader: ObjectWalReader;
  }
  const gatedOpen: GatedFixture[] = [];
  afterEach(async () => {
    for (const item of gatedOpen.splice(0)) {
      await item.writer.close();
      await item.objectStore.close();
      await item.metadata.close();
      await rm(item.root, { recursive: true, force: true });
    }
  });
  async function gatedFixture(
    overrides: Partial<ObjectWalWriterOptions> = {},
    segments: boolean | SegmentLayoutOptions = { segmentBytes: 1024 * 1024, compactBelow: 0 },
  ): Promise<GatedFixture> {
    const root = await mkdtemp(path.join(tmpdir(), "nereus-owal-gated-"));
    const objectStore = createFileSystemObjectStore({ root, segments });
    const metadata = new InMemoryMetadataStore();
    const writer = new ObjectWalWriter({
      objectStore,
      metadata,
      cluster: CLUSTER,
      writerId: "broker-1",
      flush: { lingerMs: 1 },
      ...overrides,
    });
    const created = { objectStore, root, metadata, writer, reader: new ObjectWalReader({ objectStore }) };
    gatedOpen.push(created);
    return created;
  }
  function sharedWords(gate: DurabilityGate): {
    readonly sequence: number;
    readonly durable: () => bigint;
    readonly failed: () => bigint;
  } {
    const form = gate.accelerations?.shared;
    if (form === undefined) throw new Error("expected a gate with shared words");
    const view = new BigInt64Array(form.words);
    return {
      sequence: form.sequence,
      durable: () => Atomics.load(view, DurabilityGateWord.durable),
      failed: () => Atomics.load(view, DurabilityGateWord.failed),
    };
  }
  function gateOf(persisted: PersistedWrite): DurabilityGate {
    if (persisted.gate === undefined) throw new Error("expected the persisted write to carry a gate");
    return persisted.gate;
  }

  it("a single-slice object is put through the gated path: the persisted write carries a gate that opens", async () => {
    const { writer, reader, objectStore } = await gatedFixture();
    const persisted = await writer.persist(writer.prepare(request("gated", ["first", "second"])));
    const gate = gateOf(persisted);
    const words = sharedWords(gate);
    // The target reads back at once (a read of the object waits for its write).
    expect((await reader.readEntries(persisted.readTarget)).map((entry) => decoder.decode(entry.payload))).toEqual([
      "first",
      "second",
    ]);
    await gate.durable;
    expect(words.durable()).toBeGreaterThanOrEqual(BigInt(words.sequence));
    expect(words.failed()).toBe(0n);
    expect(writer.stats).toMatchObject({ objects: 1, puts: 1, slices: 1, failedFlushes: 0 });
    const objectKey = asSlice(persisted.readTarget).objectKey;
    expect(await objectStore.head(objectKey)).toMatchObject({ key: objectKey, size: writer.stats.objectBytes });
    expect(objectStore.segmentStats?.records).toBe(1);
  });

  it("the head transaction carrying the gate commits the root with the stored object's size and checksum", async () => {
    const { writer, objectStore, metadata } = await gatedFixture();
    const persisted = await writer.persist(writer.prepare(request("gated-root", ["x"])));
    const objectKey = asSlice(persisted.readTarget).objectKey;
    const protection = await writer.protect(persisted, "gatedcommit", metadata);
    const rootKey = physicalObjectRootKey(CLUSTER, objectKeyHash(objectKey));
    expect(protection.compares).toEqual([{ key: rootKey, modRevision: 0 }]);
    const result = await metadata.txn({
      compares: protection.compares,
      writes: protection.writes,
      after: gateOf(persisted),
    });
    expect(result.succeeded).toBe(true);
    const stored = await metadata.get(rootKey);
    const root = physicalObjectRootCodec.decode(stored?.value ?? new Uint8Array(), rootKey);
    const info = await objectStore.head(objectKey);
    expect(root).toMatchObject({
      objectKey,
      lifecycle: "ACTIVE",
      objectLength: info?.size,
      storageChecksum: info?.crc32c,
      sliceCount: 1,
    });
  });

  it("several streams flushed into one object use the ordinary upload: no gate", async () => {
    const { writer, reader } = await gatedFixture({ flush: { lingerMs: 50 } });
    const persisted = await Promise.all([
      writer.persist(writer.prepare(request("multi-a", ["a"]))),
      writer.persist(writer.prepare(request("multi-b", ["b"]))),
    ]);
    expect(new Set(persisted.map((item) => asSlice(item.readTarget).objectKey)).size).toBe(1);
    for (const item of persisted) expect(item.gate).toBeUndefined();
    expect(writer.stats).toMatchObject({ objects: 1, puts: 1, slices: 2 });
    expect(
      (await reader.readEntries(persisted[1]?.readTarget as ReadTarget)).map((entry) => decoder.decode(entry.payload)),
    ).toEqual(["b"]);
  });

  it("a store without accelerations.putIfAbsentGated, or one that declines (segment layout off), gets no gate", async () => {
    const { writer: inMemory } = fixture({ flush: { lingerMs: 1 } });
    expect((await inMemory.persist(inMemory.prepare(request("no-gate", ["x"])))).gate).toBeUndefined();
    const { writer, reader, objectStore } = await gatedFixture({}, false);
    const persisted = await writer.persist(writer.prepare(request("layout-off", ["y"])));
    expect(persisted.gate).toBeUndefined();
    expect(objectStore.segmentStats).toBeUndefined();
    expect((await reader.readEntries(persisted.readTarget)).map((entry) => decoder.decode(entry.payload))).toEqual([
      "y",
    ]);
  });

  it("with the afterUpload hook set, the gated put is written before the hook runs", async () => {
    let recordsAtHook: number | undefined;
    const holder: { store?: FileSystemObjectStore } = {};
    const hooks = {
      afterUpload: () => {
        // Records are counted once written (and synced): 0 here would mean the hook ran while the put was queued.
        recordsAtHook = holder.store?.segmentStats?.records;
      },
    };
    const { writer, objectStore } = await gatedFixture({ hooks });
    holder.store = objectStore;
    await objectStore.open();
    const persisted = await writer.persist(writer.prepare(request("hooked", ["x"])));
    expect(persisted.gate).toBeDefined();
    expect(recordsAtHook).toBe(1);
  });

  it("a gated write that fails rejects the gate's promise, fails its shared words, and a txn after it is not applied", async () => {
    const { writer, objectStore, metadata, root } = await gatedFixture();
    await objectStore.open();
    const directory = path.join(root, "segments");
    expect((await readdir(directory)).filter((name) => name.endsWith(".nsr"))).toEqual([]);
    // The first segment is created create-only: a file in the way fails the write, and the layout with it.
    await writeFile(path.join(directory, segmentFileName(1)), "in the way");
    const persisted = await writer.persist(writer.prepare(request("doomed", ["x"])));
    const gate = gateOf(persisted);
    const words = sharedWords(gate);
    await expectError(gate.durable, ErrorCode.OBJECT_UPLOAD_FAILED);
    expect(words.failed()).not.toBe(0n);
    expect(words.durable()).toBeLessThan(BigInt(words.sequence));
    expect(writer.stats.failedFlushes).toBe(1);
    const protection = await writer.protect(persisted, "doomedcommit", metadata);
    const refused = await expectError(
      metadata.txn({ compares: protection.compares, writes: protection.writes, after: gate }),
      ErrorCode.PRIMARY_WAL_WRITE_FAILED,
    );
    expect(refused.details).toMatchObject({ ambiguous: false });
    const rootKey = physicalObjectRootKey(CLUSTER, objectKeyHash(asSlice(persisted.readTarget).objectKey));
    expect(await metadata.get(rootKey)).toBeUndefined();
  });
});

describe("ObjectWalReader", () => {
  it("refuses targets it does not serve and reports corruption as a checksum mismatch", async () => {
    const { writer, reader, objectStore } = fixture();
    const persisted = await writer.persist(writer.prepare(request("read", ["x", "y"])));
    const target = asSlice(persisted.readTarget);
    await expectError(
      reader.readEntries({ ...target, objectType: "MEMORY_OBJECT" }),
      ErrorCode.UNSUPPORTED_READ_TARGET,
    );
    await expectError(
      reader.readEntries({ ...target, sliceChecksum: (target.sliceChecksum + 1) >>> 0 }),
      ErrorCode.OBJECT_CHECKSUM_MISMATCH,
    );
    await expectError(
      reader.readEntries({ ...target, sliceLength: target.sliceLength - 1 }),
      ErrorCode.OBJECT_CHECKSUM_MISMATCH,
    );
    await expectError(reader.readEntries({ ...target, entryCount: 3 }), ErrorCode.DECODE_ERROR);
    await corruptObjectSlice(objectStore, target);
    await expectError(reader.readEntries(target), ErrorCode.OBJECT_CHECKSUM_MISMATCH);
  });
});

describe("ObjectWalWriter: property", () => {
  it("any mix of concurrent persists: each target reads back exactly its entries, one PUT per object, one slice per stream per object", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            stream: fc.integer({ min: 0, max: 5 }),
            sizes: fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 4 }),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        fc.record({
          maxBytes: fc.integer({ min: 200, max: 4000 }),
          maxSlices: fc.integer({ min: 1, max: 8 }),
          lingerMs: fc.constantFrom(0, 1),
          maxConcurrentFlushes: fc.integer({ min: 1, max: 3 }),
        }),
        async (appends, flush) => {
          const objectStore = new InMemoryObjectStore();
          const metadata = new InMemoryMetadataStore();
          const writer = new ObjectWalWriter({ objectStore, metadata, cluster: CLUSTER, writerId: "property", flush });
          const reader = new ObjectWalReader({ objectStore });
          try {
            const expected = appends.map((append, index) =>
              append.sizes.map((size, entry) => `${String(index)}.${String(entry)}:${"x".repeat(size)}`),
            );
            const persisted = await Promise.all(
              appends.map((append, index) =>
                writer.persist(writer.prepare(request(`p-${String(append.stream)}`, expected[index] ?? []))),
              ),
            );
            for (const [index, item] of persisted.entries()) {
              expect((await reader.readEntries(item.readTarget)).map((entry) => decoder.decode(entry.payload))).toEqual(
                expected[index],
              );
            }
            expect(objectStore.stats.puts).toBe(writer.stats.objects);
            expect(writer.stats.slices).toBe(appends.length);
            const byObject = new Map<string, string[]>();
            persisted.forEach((item, index) => {
              const key = asSlice(item.readTarget).objectKey;
              byObject.set(key, [...(byObject.get(key) ?? []), `p-${String(appends[index]?.stream)}`]);
            });
            for (const streams of byObject.values()) {
              expect(new Set(streams).size).toBe(streams.length);
              expect(streams.length).toBeLessThanOrEqual(flush.maxSlices);
            }
          } finally {
            await writer.close();
            await metadata.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
