import { appendFile, mkdtemp, open, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ErrorCode } from "@nereus/core";
import { describeObjectStoreConformance, nereusRejectionOf } from "@nereus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { FileSystemObjectStore, type SegmentLayoutOptions } from "../file-system-object-store.js";
import { segmentFileName } from "./segment-recovery.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (value: Uint8Array): string => new TextDecoder().decode(value);
const sized = (length: number, seed: number): Uint8Array =>
  Uint8Array.from({ length }, (_, index) => (index * 31 + seed) % 251);

describeObjectStoreConformance("FileSystemObjectStore conformance (segment layout, 4 KiB segments)", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "nereus-seg-store-"));
  return {
    store: new FileSystemObjectStore({ root, segments: { segmentBytes: 4096 } }),
    prefix: "conformance/",
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
});

describe("FileSystemObjectStore segment layout", () => {
  const roots: string[] = [];
  const stores: FileSystemObjectStore[] = [];
  async function newRoot(): Promise<string> {
    const root = await mkdtemp(path.join(tmpdir(), "nereus-seg-store-"));
    roots.push(root);
    return root;
  }
  function openStore(
    root: string,
    segments: boolean | SegmentLayoutOptions = { segmentBytes: 4096 },
  ): FileSystemObjectStore {
    const store = new FileSystemObjectStore({ root, segments });
    stores.push(store);
    return store;
  }
  const segmentFiles = async (root: string): Promise<string[]> =>
    (await readdir(path.join(root, "segments"))).filter((name) => name.endsWith(".nsr")).sort();
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
  });

  it("appends small objects to segment files (no file per object) and reads them back after a reopen", async () => {
    const root = await newRoot();
    const store = openStore(root);
    for (let index = 0; index < 20; index++)
      await store.putIfAbsent(`wal/${String(index).padStart(2, "0")}`, sized(700, index));
    expect(await readdir(path.join(root, "objects"))).toEqual([]);
    const files = await segmentFiles(root);
    expect(files.length).toBeGreaterThan(2);
    for (const file of files) expect((await stat(path.join(root, "segments", file))).size).toBeLessThanOrEqual(4096);
    await store.close();
    const reopened = openStore(root);
    for (let index = 0; index < 20; index++)
      expect(await reopened.get(`wal/${String(index).padStart(2, "0")}`)).toEqual(sized(700, index));
    expect(await reopened.get("wal/07", { offset: 100, length: 50 })).toEqual(sized(700, 7).subarray(100, 150));
    expect((await reopened.list("wal/", { limit: 5 })).items.map((item) => item.key)).toEqual([
      "wal/00",
      "wal/01",
      "wal/02",
      "wal/03",
      "wal/04",
    ]);
    expect(await reopened.head("wal/03")).toMatchObject({ key: "wal/03", size: 700 });
  });

  it("puts objects above maxObjectBytes into files, and lists both layouts as one, in key order", async () => {
    const root = await newRoot();
    const store = openStore(root, { segmentBytes: 4096, maxObjectBytes: 1000 });
    await store.putIfAbsent("k/b", sized(2000, 1));
    await store.putIfAbsent("k/a", sized(10, 2));
    await store.putIfAbsent("k/c", sized(10, 3));
    expect((await readdir(path.join(root, "objects"), { recursive: true })).some((name) => name.endsWith("~obj"))).toBe(
      true,
    );
    const first = await store.list("k/", { limit: 2 });
    expect(first.items.map((item) => item.key)).toEqual(["k/a", "k/b"]);
    const second = await store.list("k/", {
      limit: 2,
      ...(first.continuationToken === undefined ? {} : { continuationToken: first.continuationToken }),
    });
    expect(second.items.map((item) => item.key)).toEqual(["k/c"]);
    expect(second.continuationToken).toBeUndefined();
    expect(await store.putIfAbsent("k/b", sized(5, 0))).toEqual({ created: false });
    expect(await store.putIfAbsent("k/a", sized(5000, 0))).toEqual({ created: false });
  });

  it("keeps objects stored as files before the layout was turned on: readable, deletable, and still create-only", async () => {
    const root = await newRoot();
    const legacy = new FileSystemObjectStore({ root });
    await legacy.putIfAbsent("old/1", bytes("from files"));
    await legacy.close();
    const store = openStore(root);
    expect(text(await store.get("old/1"))).toBe("from files");
    expect(await store.putIfAbsent("old/1", bytes("again"))).toEqual({ created: false });
    await store.putIfAbsent("old/2", bytes("from a segment"));
    expect((await store.list("old/")).items.map((item) => item.key)).toEqual(["old/1", "old/2"]);
    await store.deleteMany(["old/1", "old/2"]);
    expect(await store.head("old/1")).toBeUndefined();
    expect(await store.head("old/2")).toBeUndefined();
  });

  it("lets exactly one of concurrent puts of a key win", async () => {
    const store = openStore(await newRoot());
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, index) => store.putIfAbsent("race", bytes(`writer ${String(index)}`))),
    );
    expect(outcomes.filter((outcome) => outcome.created)).toHaveLength(1);
    const winner = outcomes.findIndex((outcome) => outcome.created);
    expect(text(await store.get("race"))).toBe(`writer ${String(winner)}`);
  });

  it("writes the puts of one turn with one write job (group commit)", async () => {
    const store = openStore(await newRoot(), true);
    await store.putIfAbsent("first", bytes("x"));
    const before = store.segmentStats?.writeJobs ?? 0;
    await Promise.all(
      Array.from({ length: 10 }, (_, index) => store.putIfAbsent(`group/${String(index)}`, bytes("y"))),
    );
    expect((store.segmentStats?.writeJobs ?? 0) - before).toBeLessThanOrEqual(2);
  });

  it("does not bring deleted objects back after a reopen, and a key deleted and put again keeps its new body", async () => {
    const root = await newRoot();
    const store = openStore(root, { segmentBytes: 4096, compactBelow: 0 });
    for (let index = 0; index < 12; index++) await store.putIfAbsent(`d/${String(index)}`, sized(600, index));
    await store.deleteMany(["d/1", "d/2", "d/3"]);
    await store.putIfAbsent("d/2", bytes("second life"));
    await store.close();
    const reopened = openStore(root, { segmentBytes: 4096, compactBelow: 0 });
    expect(await reopened.head("d/1")).toBeUndefined();
    expect(await reopened.head("d/3")).toBeUndefined();
    expect(text(await reopened.get("d/2"))).toBe("second life");
    expect(await reopened.get("d/4")).toEqual(sized(600, 4));
    expect((await reopened.list("d/")).items).toHaveLength(10);
  });

  it("unlinks segments once everything in them is deleted", async () => {
    const root = await newRoot();
    const store = openStore(root, { segmentBytes: 4096, compactBelow: 0 });
    const keys = Array.from({ length: 30 }, (_, index) => `gc/${String(index).padStart(2, "0")}`);
    for (const key of keys) await store.putIfAbsent(key, sized(900, key.length));
    const before = await segmentFiles(root);
    await store.deleteMany(keys.slice(0, 24));
    // Counted only once the directory fsync after the unlinks returned: wait for both.
    await waitFor(
      async () =>
        (await segmentFiles(root)).length < before.length - 3 && (store.segmentStats?.segmentsRemoved ?? 0) > 3,
    );
    expect(store.segmentStats?.segmentsRemoved).toBeGreaterThan(3);
    await store.close();
    const reopened = openStore(root, { segmentBytes: 4096, compactBelow: 0 });
    expect((await reopened.list("gc/")).items.map((item) => item.key)).toEqual(keys.slice(24));
    for (const key of keys.slice(24)) expect(await reopened.get(key)).toEqual(sized(900, key.length));
  });

  it("compacts a sparse sealed segment: its live objects move, it goes, and nothing deleted comes back", async () => {
    const root = await newRoot();
    const options = { segmentBytes: 8192, compactBelow: 0.5 };
    const store = openStore(root, options);
    const keys = Array.from({ length: 24 }, (_, index) => `c/${String(index).padStart(2, "0")}`);
    for (const key of keys) await store.putIfAbsent(key, sized(1500, key.charCodeAt(3)));
    const firstSegment = path.join(root, "segments", segmentFileName(1));
    // Five objects per segment: deleting four of the first five leaves it 20 % live.
    await store.deleteMany(keys.slice(0, 4));
    await waitFor(async () => (store.segmentStats?.objectsCompacted ?? 0) >= 1 && !(await exists(firstSegment)));
    expect(await store.get(keys[4] as string)).toEqual(sized(1500, (keys[4] as string).charCodeAt(3)));
    await store.close();
    const reopened = openStore(root, options);
    expect((await reopened.list("c/")).items.map((item) => item.key)).toEqual(keys.slice(4));
    for (const key of keys.slice(4)) expect(await reopened.get(key)).toEqual(sized(1500, key.charCodeAt(3)));
  });

  it("cuts a torn tail off the last segment at reopen and keeps every whole record", async () => {
    const root = await newRoot();
    const store = openStore(root, { segmentBytes: 1 << 20 });
    for (let index = 0; index < 5; index++) await store.putIfAbsent(`t/${String(index)}`, sized(300, index));
    await store.close();
    const file = path.join(root, "segments", segmentFileName(1));
    const whole = (await stat(file)).size;
    // A crash mid-write: the head of a sixth record and half of its body.
    const torn = await readFile(file);
    await appendFile(file, torn.subarray(0, 200));
    const reopened = openStore(root, { segmentBytes: 1 << 20 });
    for (let index = 0; index < 5; index++) expect(await reopened.get(`t/${String(index)}`)).toEqual(sized(300, index));
    expect(reopened.segmentRecovery).toMatchObject({ bytes: 200 });
    expect((await stat(file)).size).toBe(whole);
    await reopened.putIfAbsent("t/5", bytes("after the cut"));
    expect(text(await reopened.get("t/5"))).toBe("after the cut");
  });

  it("replays what its index lacks: a record whose head is whole but whose body is not is cut, and zeros after it", async () => {
    const root = await newRoot();
    const store = openStore(root, { segmentBytes: 1 << 20 });
    await store.putIfAbsent("z/keep", sized(100, 1));
    await store.close();
    // The index as it was before the second put: a crash before the index caught up.
    const saved = await saveIndex(root);
    const again = openStore(root, { segmentBytes: 1 << 20 });
    await again.putIfAbsent("z/torn", sized(100, 2));
    await again.close();
    await restoreIndex(root, saved);
    const file = path.join(root, "segments", segmentFileName(1));
    const size = (await stat(file)).size;
    const handle = await open(file, "r+");
    await handle.write(new Uint8Array(10), 0, 10, size - 10);
    await handle.write(new Uint8Array(4096), 0, 4096, size);
    await handle.close();
    const reopened = openStore(root, { segmentBytes: 1 << 20 });
    expect(await reopened.get("z/keep")).toEqual(sized(100, 1));
    expect(await reopened.head("z/torn")).toBeUndefined();
    expect(reopened.segmentRecovery?.reason).toMatch(/CRC32C/);
    await reopened.putIfAbsent("z/torn", bytes("again"));
    expect(text(await reopened.get("z/torn"))).toBe("again");
  });

  it("replays a lagging index from its applied position: records written after it become visible", async () => {
    const root = await newRoot();
    const store = openStore(root, { segmentBytes: 2048, compactBelow: 0 });
    for (let index = 0; index < 3; index++) await store.putIfAbsent(`l/${String(index)}`, sized(500, index));
    await store.close();
    const saved = await saveIndex(root);
    const again = openStore(root, { segmentBytes: 2048, compactBelow: 0 });
    for (let index = 3; index < 9; index++) await again.putIfAbsent(`l/${String(index)}`, sized(500, index));
    await again.deleteMany(["l/0", "l/4"]);
    await again.close();
    await restoreIndex(root, saved);
    const reopened = openStore(root, { segmentBytes: 2048, compactBelow: 0 });
    expect((await reopened.list("l/")).items.map((item) => item.key)).toEqual([
      "l/1",
      "l/2",
      "l/3",
      "l/5",
      "l/6",
      "l/7",
      "l/8",
    ]);
    for (const index of [1, 2, 3, 5, 6, 7, 8])
      expect(await reopened.get(`l/${String(index)}`)).toEqual(sized(500, index));
  });

  it("rebuilds a lost or unreadable index from the segments", async () => {
    const root = await newRoot();
    const store = openStore(root, { segmentBytes: 2048, compactBelow: 0 });
    for (let index = 0; index < 8; index++) await store.putIfAbsent(`r/${String(index)}`, sized(400, index));
    await store.deleteMany(["r/2"]);
    await store.close();
    await writeFile(
      path.join(root, "segments", "index.sqlite"),
      "not a database, just text that is long enough to be read as a header",
    );
    await rm(path.join(root, "segments", "index.sqlite-wal"), { force: true });
    const reopened = openStore(root, { segmentBytes: 2048, compactBelow: 0 });
    expect((await reopened.list("r/")).items.map((item) => item.key)).toEqual([
      "r/0",
      "r/1",
      "r/3",
      "r/4",
      "r/5",
      "r/6",
      "r/7",
    ]);
    expect(await reopened.get("r/7")).toEqual(sized(400, 7));
    expect(reopened.segmentRebuiltIndex).toMatch(/database|not/i);
    expect(await readdir(path.join(root, "segments"))).toContain("index.sqlite.broken");
  });

  it("refuses to open when a sealed segment is corrupt, naming the file and offset (found when the index is rebuilt)", async () => {
    const root = await newRoot();
    const store = openStore(root, { segmentBytes: 1024 });
    for (let index = 0; index < 6; index++) await store.putIfAbsent(`x/${String(index)}`, sized(400, index));
    await store.close();
    const file = path.join(root, "segments", segmentFileName(1));
    const handle = await open(file, "r+");
    await handle.write(bytes("JUNK"), 0, 4, 0);
    await handle.close();
    for (const suffix of ["", "-wal"]) await rm(path.join(root, "segments", `index.sqlite${suffix}`), { force: true });
    const reopened = openStore(root, { segmentBytes: 1024 });
    const error = await nereusRejectionOf(reopened.get("x/0"));
    expect(error.code).toBe(ErrorCode.OBJECT_CHECKSUM_MISMATCH);
    expect(error.message).toContain(segmentFileName(1));
    expect(error.message).toMatch(/offset 0: magic/);
  });

  it("detects a corrupted body on a whole read", async () => {
    const root = await newRoot();
    const store = openStore(root, { segmentBytes: 1 << 20 });
    await store.putIfAbsent("bad", sized(64, 9));
    const file = path.join(root, "segments", segmentFileName(1));
    const size = (await stat(file)).size;
    const handle = await open(file, "r+");
    await handle.write(Uint8Array.of(0xff), 0, 1, size - 1);
    await handle.close();
    expect((await nereusRejectionOf(store.get("bad"))).code).toBe(ErrorCode.OBJECT_CHECKSUM_MISMATCH);
  });

  it("lets one store at a time write a segment directory; a lock left by a dead process is taken over", async () => {
    const root = await newRoot();
    const first = openStore(root);
    await first.putIfAbsent("a", bytes("1"));
    const second = openStore(root);
    const error = await nereusRejectionOf(second.putIfAbsent("b", bytes("2")));
    expect(error.message).toMatch(/in use/);
    await first.close();
    await writeFile(path.join(root, "segments", "LOCK"), "999999999\n");
    const third = openStore(root);
    expect(text(await third.get("a"))).toBe("1");
  });

  it("validates every key of a delete before deleting any", async () => {
    const store = openStore(await newRoot());
    await store.putIfAbsent("keep/1", bytes("1"));
    const error = await nereusRejectionOf(store.deleteMany(["keep/1", "../escape"]));
    expect(error.code).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(text(await store.get("keep/1"))).toBe("1");
  });

  it("validates its options before any I/O", () => {
    expect(() => new FileSystemObjectStore({ root: "/nonexistent/x", segments: { segmentBytes: 0 } })).toThrow(
      /segmentBytes/,
    );
    expect(() => new FileSystemObjectStore({ root: "/nonexistent/x", segments: { compactBelow: 1 } })).toThrow(
      /compactBelow/,
    );
    expect(() => new FileSystemObjectStore({ root: "/nonexistent/x", segments: { maxObjectBytes: -1 } })).toThrow(
      /maxObjectBytes/,
    );
  });

  it("truncation of an empty last segment leaves a usable store", async () => {
    const root = await newRoot();
    const store = openStore(root);
    await store.putIfAbsent("e", bytes("1"));
    await store.close();
    await truncate(path.join(root, "segments", segmentFileName(1)), 0);
    const reopened = openStore(root);
    expect(await reopened.head("e")).toBeUndefined();
    await reopened.putIfAbsent("e", bytes("2"));
    expect(text(await reopened.get("e"))).toBe("2");
  });
});

/** Copies of the index files (the state a crash would leave if the index had not caught up). */
async function saveIndex(root: string): Promise<Map<string, Buffer>> {
  const saved = new Map<string, Buffer>();
  for (const name of ["index.sqlite", "index.sqlite-wal"]) {
    const file = path.join(root, "segments", name);
    if (await exists(file)) saved.set(name, await readFile(file));
  }
  return saved;
}

async function restoreIndex(root: string, saved: ReadonlyMap<string, Buffer>): Promise<void> {
  for (const name of ["index.sqlite", "index.sqlite-wal"]) {
    const file = path.join(root, "segments", name);
    const content = saved.get(name);
    if (content === undefined) await rm(file, { force: true });
    else await writeFile(file, content);
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("condition not met within 2 s");
}
