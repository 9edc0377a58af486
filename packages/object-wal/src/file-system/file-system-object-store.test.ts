import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ErrorCode } from "@nereus/core";
import { describeObjectStoreConformance, nereusRejectionOf } from "@nereus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { FileSystemObjectStore, createFileSystemObjectStore } from "./file-system-object-store.js";
import { fileSystemKeyPath } from "./file-system-key-path.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (value: Uint8Array): string => new TextDecoder().decode(value);

async function allFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describeObjectStoreConformance("FileSystemObjectStore conformance", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "nereus-fs-store-"));
  return {
    store: createFileSystemObjectStore({ root }),
    prefix: "conformance/",
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
});

describe("FileSystemObjectStore", () => {
  const roots: string[] = [];
  async function open(): Promise<{ store: FileSystemObjectStore; root: string }> {
    const root = await mkdtemp(path.join(tmpdir(), "nereus-fs-store-"));
    roots.push(root);
    return { store: new FileSystemObjectStore({ root }), root };
  }
  afterEach(async () => {
    for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
  });

  it("keeps every file inside root, whatever the key", async () => {
    const { store, root } = await open();
    const keys = [
      "a/b",
      "%2E%2E/x",
      "-/_/.hidden",
      "a..b/c.d",
      "~obj",
      "x~obj/y",
      "sp ace/\u00e9/\u{1f600}",
      "a%",
      "CON/aux",
    ];
    for (const key of keys) await store.putIfAbsent(key, bytes(key));
    for (const key of keys) expect(text(await store.get(key))).toBe(key);
    const files = await allFiles(root);
    expect(files).toHaveLength(keys.length);
    for (const file of files) expect(file.startsWith(path.join(root, "objects") + path.sep)).toBe(true);
    const listed = (await store.list("")).items.map((item) => item.key);
    expect([...listed].sort()).toEqual([...keys].sort());
  });

  it("rejects keys that could name a path outside root, before any I/O", async () => {
    const { store, root } = await open();
    for (const key of [
      "..",
      "../escape",
      "a/../../b",
      "/absolute",
      "a//b",
      "a/",
      "./a",
      "a/.",
      "",
      "nul\u0000",
      "\ud800",
    ]) {
      expect((await nereusRejectionOf(store.putIfAbsent(key, bytes("x")))).code).toBe(ErrorCode.INVALID_ARGUMENT);
      expect((await nereusRejectionOf(store.get(key))).code).toBe(ErrorCode.INVALID_ARGUMENT);
    }
    expect((await nereusRejectionOf(store.putIfAbsent("a".repeat(252), bytes("x")))).code).toBe(
      ErrorCode.INVALID_ARGUMENT,
    );
    await expect(readdir(root)).resolves.toEqual([]);
  });

  it("holds a key and a folder of other keys side by side, listed in UTF-8 byte order", async () => {
    const { store } = await open();
    for (const key of ["a/b", "a", "a-b", "a0", "\uffee", "\u{1f600}"]) await store.putIfAbsent(key, bytes(key));
    const page = await store.list("", { limit: 4 });
    expect(page.items.map((item) => item.key)).toEqual(["a", "a-b", "a/b", "a0"]);
    const rest = await store.list("", { continuationToken: page.continuationToken ?? "" });
    expect(rest.items.map((item) => item.key)).toEqual(["\uffee", "\u{1f600}"]);
  });

  it("resumes a listing from a token inside a folder", async () => {
    const { store } = await open();
    for (const key of ["p/a/1", "p/a/2", "p/a/3", "p/b/1", "p/c"]) await store.putIfAbsent(key, bytes("x"));
    await expect(store.list("p/", { continuationToken: "p/a/2" })).resolves.toEqual({
      items: [
        { key: "p/a/3", size: 1 },
        { key: "p/b/1", size: 1 },
        { key: "p/c", size: 1 },
      ],
    });
    await expect(store.list("p/", { continuationToken: "p/a" })).resolves.toMatchObject({
      items: [{ key: "p/a/1" }, {}, {}, {}, {}],
    });
  });

  it("detects a corrupted file on a whole read and reports the stored CRC32C on head", async () => {
    const { store, root } = await open();
    await store.putIfAbsent("k", bytes("123456789"));
    await expect(store.head("k")).resolves.toEqual({ key: "k", size: 9, crc32c: 0xe3069283 });
    const file = path.join(root, "objects", fileSystemKeyPath.objectPath("k"));
    const raw = await readFile(file);
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 0x10;
    await rm(file);
    await writeFile(file, raw);
    const error = await nereusRejectionOf(store.get("k"));
    expect(error.code).toBe(ErrorCode.OBJECT_CHECKSUM_MISMATCH);
    await writeFile(file, raw.subarray(0, 3));
    expect((await nereusRejectionOf(store.head("k"))).code).toBe(ErrorCode.OBJECT_CHECKSUM_MISMATCH);
  });

  for (const segments of [false, true]) {
    it(`stores a CRC32C the caller passes as the object's checksum, and refuses one that is no CRC before any I/O (segments ${String(segments)})`, async () => {
      const root = await mkdtemp(path.join(tmpdir(), "nereus-fs-store-"));
      roots.push(root);
      await using store = new FileSystemObjectStore({ root, segments });
      await store.putIfAbsent("known", bytes("123456789"), { crc32c: 0xe3069283 });
      await expect(store.head("known")).resolves.toEqual({ key: "known", size: 9, crc32c: 0xe3069283 });
      expect(text(await store.get("known"))).toBe("123456789");
      // The contract: a wrong CRC is stored as given, and whole reads then fail their check.
      await store.putIfAbsent("wrong", bytes("123456789"), { crc32c: 1 });
      expect((await nereusRejectionOf(store.get("wrong"))).code).toBe(ErrorCode.OBJECT_CHECKSUM_MISMATCH);
      for (const crc32c of [-1, 2 ** 32, 1.5, Number.NaN]) {
        expect((await nereusRejectionOf(store.putIfAbsent("refused", bytes("x"), { crc32c }))).code).toBe(
          ErrorCode.INVALID_ARGUMENT,
        );
        expect(
          (await nereusRejectionOf(store.accelerations.putIfAbsentGated("refused", bytes("x"), { crc32c }))).code,
        ).toBe(ErrorCode.INVALID_ARGUMENT);
      }
      await expect(store.head("refused")).resolves.toBeUndefined();
    });
  }

  it("leaves no temporary files and prunes emptied folders", async () => {
    const { store, root } = await open();
    await store.putIfAbsent("x/y/z", bytes("1"));
    await store.putIfAbsent("x/y/z", bytes("2"));
    await expect(readdir(path.join(root, "tmp"))).resolves.toEqual([]);
    await store.deleteMany(["x/y/z"]);
    await expect(readdir(path.join(root, "objects"))).resolves.toEqual([]);
    await expect(store.putIfAbsent("x/y/z", bytes("3"))).resolves.toEqual({ created: true });
  });

  it("puts into a folder another store on the same root pruned after this store last used it", async () => {
    const { store, root } = await open();
    const other = createFileSystemObjectStore({ root });
    await store.putIfAbsent("p/q/first", bytes("1"));
    await other.deleteMany(["p/q/first"]);
    await expect(readdir(path.join(root, "objects"))).resolves.toEqual([]);
    await expect(store.putIfAbsent("p/q/second", bytes("2"))).resolves.toEqual({ created: true });
    expect(text(await other.get("p/q/second"))).toBe("2");
    await expect(readdir(path.join(root, "tmp"))).resolves.toEqual([]);
    await other.close();
  });

  it("stores a large body whole (vectored write of header and body)", async () => {
    const { store } = await open();
    const body = new Uint8Array(3 * 1024 * 1024 + 7).map((_, index) => (index * 31) & 0xff);
    await store.putIfAbsent("big/object", body);
    // Buffer.compare, not toEqual: vitest's deep equality walks 3 MiB element by element (20+ s on a slow host).
    const read = await store.get("big/object");
    expect(read.byteLength).toBe(body.byteLength);
    expect(Buffer.compare(read, body)).toBe(0);
    expect((await store.head("big/object"))?.size).toBe(body.byteLength);
  });

  it("lets one of several stores on the same root win a race, across instances", async () => {
    const { root } = await open();
    const stores = Array.from({ length: 4 }, () => createFileSystemObjectStore({ root }));
    const results = await Promise.all(
      stores.map((store, index) => store.putIfAbsent("shared/key", bytes(`writer ${String(index)}`))),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const winner = results.findIndex((result) => result.created);
    for (const store of stores) expect(text(await store.get("shared/key"))).toBe(`writer ${String(winner)}`);
    await Promise.all(stores.map((store) => store.close()));
  });

  it("supports await using", async () => {
    const { root } = await open();
    let escaped: FileSystemObjectStore | undefined;
    {
      await using store = createFileSystemObjectStore({ root });
      escaped = store;
      await store.putIfAbsent("k", bytes("v"));
    }
    expect((await nereusRejectionOf(escaped.get("k"))).code).toBe(ErrorCode.STORAGE_CLOSED);
  });
});
