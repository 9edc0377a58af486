import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { KeyValue } from "@nereus/core";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteReadCache } from "./sqlite-read-cache.js";
import { createSqliteMetadataStore } from "./sqlite-metadata-store.js";
import { compareUtf8 } from "../key-range/utf8-key-range.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const row = (key: string, revision = 1): KeyValue => ({
  key,
  value: bytes(key),
  modRevision: revision,
  createRevision: revision,
});
const keysOf = (page: { readonly items: readonly KeyValue[] } | undefined): string[] | undefined =>
  page?.items.map((item) => item.key);

describe("SqliteReadCache", () => {
  it("answers a get it read, as a copy, until the writer's round counter moves", () => {
    const cache = new SqliteReadCache();
    expect(cache.get(7, "k")).toBeUndefined();
    cache.putKey(7, "k", row("k"));
    cache.putKey(7, "absent", undefined);
    const first = cache.get(7, "k");
    expect(first?.key).toBe("k");
    (first as KeyValue).value[0] = 0;
    expect(cache.get(7, "k")?.value).toEqual(bytes("k"));
    expect(cache.get(7, "absent")).toBeNull();
    expect(cache.get(8, "k")).toBeUndefined();
    expect(cache.stats).toEqual({ hits: 3, misses: 2, invalidations: 1 });
  });

  it("answers scans from a known range: enough rows past the bound, or a range that ends the prefix", () => {
    const cache = new SqliteReadCache();
    const rows = ["p/b", "p/c", "p/d", "p/e"].map((key) => row(key));
    // Read with limit 3 (4 rows fetched): keys of p/ from p/a up to p/e are known, what follows is not.
    cache.putScan(1, "p/", { key: "p/a", exclusive: false }, rows, false);
    expect(keysOf(cache.scan(1, "p/", { key: "p/a", exclusive: false }, 3))).toEqual(["p/b", "p/c", "p/d"]);
    expect(cache.scan(1, "p/", { key: "p/c", exclusive: false }, 2)).toEqual({
      items: [row("p/c"), row("p/d")],
      more: true,
    });
    expect(keysOf(cache.scan(1, "p/", { key: "p/b", exclusive: true }, 1))).toEqual(["p/c"]);
    // Not enough known rows past the bound to say whether more follow, or a bound before the range: unknown.
    expect(cache.scan(1, "p/", { key: "p/c", exclusive: false }, 3)).toBeUndefined();
    expect(cache.scan(1, "p/", { key: "p/", exclusive: false }, 1)).toBeUndefined();
    expect(cache.scan(1, "p/", { key: "p/a", exclusive: true }, 1)).toBeDefined();
    // A range that ran out of keys answers every later bound, however large the limit.
    cache.putScan(1, "g/", { key: "g/5", exclusive: false }, [], true);
    expect(cache.scan(1, "g/", { key: "g/9", exclusive: false }, 64)).toEqual({ items: [], more: false });
    expect(cache.scan(1, "g/", { key: "g/5", exclusive: true }, 64)).toEqual({ items: [], more: false });
    expect(cache.scan(1, "g/", { key: "g/4", exclusive: false }, 64)).toBeUndefined();
    expect(cache.scan(2, "g/", { key: "g/9", exclusive: false }, 64)).toBeUndefined();
  });

  it("an exclusive known bound does not answer an inclusive query at the same key", () => {
    const cache = new SqliteReadCache();
    cache.putScan(1, "p/", { key: "p/b", exclusive: true }, [row("p/c")], true);
    expect(cache.scan(1, "p/", { key: "p/b", exclusive: false }, 5)).toBeUndefined();
    expect(keysOf(cache.scan(1, "p/", { key: "p/b", exclusive: true }, 5))).toEqual(["p/c"]);
  });
});

describe("SqliteMetadataStore with cacheReads", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(clock?: () => number) {
    const directory = await mkdtemp(path.join(tmpdir(), "nereus-sqlite-cache-"));
    const store = await createSqliteMetadataStore({
      path: path.join(directory, "metadata.db"),
      cacheReads: true,
      ...(clock !== undefined && { clock, leaseSweepIntervalMs: 3_600_000 }),
    });
    cleanups.push(
      () => rm(directory, { recursive: true, force: true }),
      () => store.close(),
    );
    return store;
  }

  it("serves repeated reads from the cache and reads SQLite again after a write", async () => {
    const store = await open();
    await store.txn({ compares: [], writes: [{ type: "put", key: "s/head", value: bytes("1") }] });
    expect((await store.get("s/head"))?.value).toEqual(bytes("1"));
    expect((await store.get("s/head"))?.value).toEqual(bytes("1"));
    expect((await store.scan("s/gen/", { startAt: "s/gen/0005", limit: 64 })).items).toEqual([]);
    expect((await store.scan("s/gen/", { startAt: "s/gen/0009", limit: 64 })).items).toEqual([]);
    const before = store.readCacheStats;
    expect(before?.hits).toBe(2);
    await store.txn({
      compares: [],
      writes: [
        { type: "put", key: "s/gen/0010", value: bytes("g") },
        { type: "put", key: "s/head", value: bytes("2") },
      ],
    });
    expect((await store.get("s/head"))?.value).toEqual(bytes("2"));
    expect((await store.scan("s/gen/", { startAt: "s/gen/0009", limit: 64 })).items.map((item) => item.key)).toEqual([
      "s/gen/0010",
    ]);
    expect(store.readCacheStats?.invalidations).toBeGreaterThan(before?.invalidations ?? 0);
  });

  it("never answers a key of a lease the read found expired", async () => {
    let now = 100_000;
    const store = await open(() => now);
    const lease = await store.grantLease(500);
    await store.txn({ compares: [], writes: [{ type: "put", key: "l/k", value: bytes("v"), leaseId: lease.id }] });
    expect((await store.get("l/k"))?.value).toEqual(bytes("v"));
    expect((await store.scan("l/", { limit: 8 })).items).toHaveLength(1);
    expect((await store.get("l/k"))?.value).toEqual(bytes("v"));
    now += 600;
    expect(await store.get("l/k")).toBeUndefined();
    expect((await store.scan("l/", { limit: 8 })).items).toEqual([]);
  });

  it("answers every get and scan as SQLite holds it, through random writes and reads", async () => {
    const store = await open();
    const keyArb = fc.constantFrom("a/1", "a/2", "a/3", "a/\u{10000}", "a/\uFFFF", "b/1", "b/2", "ab");
    const prefixArb = fc.constantFrom("", "a", "a/", "b/", "c/");
    const operation = fc.oneof(
      fc.record({ kind: fc.constant("put" as const), key: keyArb, value: fc.string({ maxLength: 3 }) }),
      fc.record({ kind: fc.constant("delete" as const), key: keyArb }),
      fc.record({ kind: fc.constant("get" as const), key: keyArb }),
      fc.record({
        kind: fc.constant("scan" as const),
        prefix: prefixArb,
        startAt: fc.option(keyArb, { nil: undefined }),
        startAfter: fc.option(keyArb, { nil: undefined }),
        limit: fc.integer({ min: 1, max: 4 }),
      }),
    );
    const model = new Map<string, { value: string; modRevision: number }>();
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 40 }), async (operations) => {
        for (const op of operations) {
          if (op.kind === "put" || op.kind === "delete") {
            const result = await store.txn({
              compares: [],
              writes: [
                op.kind === "put"
                  ? { type: "put", key: op.key, value: bytes(op.value) }
                  : { type: "delete", key: op.key },
              ],
            });
            if (!result.succeeded) throw new Error("unconditional txn failed");
            if (op.kind === "put") model.set(op.key, { value: op.value, modRevision: result.revision });
            else model.delete(op.key);
          } else if (op.kind === "get") {
            const found = await store.get(op.key);
            const expected = model.get(op.key);
            expect(
              found === undefined
                ? undefined
                : { value: new TextDecoder().decode(found.value), modRevision: found.modRevision },
            ).toEqual(expected);
          } else {
            const page = await store.scan(op.prefix, {
              startAt: op.startAt,
              startAfter: op.startAfter,
              limit: op.limit,
            });
            const admitted = [...model.keys()]
              .filter((key) => key.startsWith(op.prefix))
              .filter((key) => op.startAt === undefined || compareUtf8(key, op.startAt) >= 0)
              .filter((key) => op.startAfter === undefined || compareUtf8(key, op.startAfter) > 0)
              .sort(compareUtf8);
            expect(page.items.map((item) => item.key)).toEqual(admitted.slice(0, op.limit));
            expect(page.items.map((item) => item.modRevision)).toEqual(
              admitted.slice(0, op.limit).map((key) => model.get(key)?.modRevision),
            );
            expect(page.more).toBe(admitted.length > op.limit);
          }
        }
      }),
      { numRuns: 60 },
    );
    expect(store.readCacheStats?.hits).toBeGreaterThan(0);
  });
});
