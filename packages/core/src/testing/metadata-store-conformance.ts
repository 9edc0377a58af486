// The MetadataStore conformance suite: one shared behaviour suite that the in-memory reference store and every real
// store (etcd, SQLite) run, so that code tested against the fake behaves the same against production stores.
// It registers vitest tests; it does not start services (the caller's `createStore` does).
import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import type { KeyValue, MetadataStore, TxnRequest, TxnResult, WatchEvent } from "../spi/metadata-store.js";
import { expectNereusError } from "./rejections.js";

/** What `createStore` hands to each test. */
export interface MetadataStoreConformanceFixture {
  /** A fresh, open store. The suite closes it after each test (close is idempotent). */
  readonly store: MetadataStore;
  /** Key prefix owned by this test (unique per test when the backend is shared); every key the test uses starts with it. */
  readonly prefix: string;
  /** Runs after the suite closed `store` (e.g. deletes the prefix through an admin client, removes a temp file). */
  readonly cleanup?: () => Promise<void>;
}

/** Upper bound for eventual effects (lease expiry, watch delivery) on a real service. */
const EVENTUAL_DEADLINE_MS = 15_000;
const POLL_INTERVAL_MS = 100;
const SLOW_TEST_TIMEOUT_MS = 30_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const bytes = (text: string): Uint8Array => encoder.encode(text);
const text = (value: Uint8Array | undefined): string | undefined =>
  value === undefined ? undefined : decoder.decode(value);
const compareUtf8 = (left: string, right: string): number => Buffer.compare(Buffer.from(left), Buffer.from(right));

function put(key: string, value: string | Uint8Array, leaseId?: string): TxnRequest["writes"][number] {
  const data = typeof value === "string" ? bytes(value) : value;
  return leaseId === undefined ? { type: "put", key, value: data } : { type: "put", key, value: data, leaseId };
}

function revisionOf(result: TxnResult): number {
  if (!result.succeeded) throw new Error("expected the txn to succeed");
  return result.revision;
}

function currentOf(result: TxnResult): ReadonlyMap<string, KeyValue> {
  if (result.succeeded) throw new Error("expected the txn's compares to fail");
  return result.current;
}

/** Polls `probe` until it returns true; bounded by `EVENTUAL_DEADLINE_MS` (lease expiry has no event to wait for). */
async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + EVENTUAL_DEADLINE_MS;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${EVENTUAL_DEADLINE_MS} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

/**
 * Registers the MetadataStore SPI v1 conformance tests under `describe(name)`.
 *
 * `createStore` is called once per test and must return a fresh open store plus a key prefix no other concurrently
 * running test uses. Tests only touch keys under that prefix, so a shared backend (one etcd for the whole run) is fine
 * as long as prefixes are unique. No test asserts exact revision numbers or gaps, since other writers may share the
 * store's revision counter; they assert order relations only.
 */
export function describeMetadataStoreConformance(
  name: string,
  createStore: () => Promise<MetadataStoreConformanceFixture>,
): void {
  function test(
    title: string,
    body: (store: MetadataStore, prefix: string) => Promise<void>,
    timeoutMs?: number,
  ): void {
    it(
      title,
      async () => {
        const fixture = await createStore();
        try {
          await body(fixture.store, fixture.prefix);
        } finally {
          await fixture.store.close();
          await fixture.cleanup?.();
        }
      },
      timeoutMs,
    );
  }

  describe(name, () => {
    test("exposes SPI version 1", async (store) => {
      expect(store.spiVersion).toBe(1);
    });

    describe("reads and writes", () => {
      test("a put is read back with its revision; an absent key reads as undefined", async (store, prefix) => {
        const key = `${prefix}round-trip`;
        expect(await store.get(key)).toBeUndefined();
        const revision = revisionOf(await store.txn({ compares: [], writes: [put(key, "hello")] }));
        const stored = await store.get(key);
        expect(stored).toEqual({ key, value: bytes("hello"), modRevision: revision, createRevision: revision });
      });

      test("values are binary-safe, including empty and 64 KiB values", async (store, prefix) => {
        const large = new Uint8Array(64 * 1024).map((_, index) => (index * 7 + 3) % 256);
        await store.txn({
          compares: [],
          writes: [put(`${prefix}empty`, new Uint8Array(0)), put(`${prefix}large`, large)],
        });
        expect((await store.get(`${prefix}empty`))?.value).toEqual(new Uint8Array(0));
        expect((await store.get(`${prefix}large`))?.value).toEqual(large);
      });

      test("the store copies values: mutating the written or a returned array changes nothing", async (store, prefix) => {
        const key = `${prefix}copy`;
        const written = bytes("abc");
        await store.txn({ compares: [], writes: [put(key, written)] });
        written[0] = 0x7a;
        const first = await store.get(key);
        expect(text(first?.value)).toBe("abc");
        first?.value.fill(0x21);
        (await store.getMany([key])).get(key)?.value.fill(0x21);
        (await store.scan(prefix, { limit: 10 })).items[0]?.value.fill(0x21);
        expect(text((await store.get(key))?.value)).toBe("abc");
      });

      test("getMany returns present keys and omits absent ones", async (store, prefix) => {
        await store.txn({ compares: [], writes: [put(`${prefix}a`, "1"), put(`${prefix}b`, "2")] });
        const found = await store.getMany([`${prefix}a`, `${prefix}missing`, `${prefix}b`]);
        expect([...found.keys()].sort()).toEqual([`${prefix}a`, `${prefix}b`]);
        expect(text(found.get(`${prefix}b`)?.value)).toBe("2");
        expect((await store.getMany([])).size).toBe(0);
      });

      test("getMany reads all keys at one revision (never half of a txn)", async (store, prefix) => {
        const keys = [`${prefix}pair/a`, `${prefix}pair/b`, `${prefix}pair/c`];
        const writeAll = (round: number): Promise<TxnResult> =>
          store.txn({ compares: [], writes: keys.map((key) => put(key, String(round))) });
        await writeAll(0);
        const reads: Promise<ReadonlyMap<string, KeyValue>>[] = [];
        const writes: Promise<TxnResult>[] = [];
        for (let round = 1; round <= 20; round++) {
          writes.push(writeAll(round));
          reads.push(store.getMany(keys));
        }
        await Promise.all(writes);
        for (const found of await Promise.all(reads)) {
          const values = keys.map((key) => text(found.get(key)?.value));
          const revisions = keys.map((key) => found.get(key)?.modRevision);
          expect(new Set(values).size, `one revision expected, got ${values.join(",")}`).toBe(1);
          expect(new Set(revisions).size).toBe(1);
        }
      });
    });

    describe("revisions", () => {
      test("revisions strictly increase and all writes of one txn share one revision", async (store, prefix) => {
        const first = revisionOf(
          await store.txn({ compares: [], writes: [put(`${prefix}a`, "1"), put(`${prefix}b`, "1")] }),
        );
        const second = revisionOf(await store.txn({ compares: [], writes: [put(`${prefix}c`, "1")] }));
        const third = revisionOf(await store.txn({ compares: [], writes: [put(`${prefix}a`, "2")] }));
        expect(first).toBeGreaterThan(0);
        expect(second).toBeGreaterThan(first);
        expect(third).toBeGreaterThan(second);
        const found = await store.getMany([`${prefix}a`, `${prefix}b`, `${prefix}c`]);
        expect(found.get(`${prefix}a`)).toMatchObject({ modRevision: third, createRevision: first });
        expect(found.get(`${prefix}b`)).toMatchObject({ modRevision: first, createRevision: first });
        expect(found.get(`${prefix}c`)).toMatchObject({ modRevision: second, createRevision: second });
      });

      test("a deleted and re-created key gets a higher modRevision, so an old compare cannot succeed (no ABA)", async (store, prefix) => {
        const key = `${prefix}aba`;
        const created = revisionOf(await store.txn({ compares: [], writes: [put(key, "same")] }));
        const deleted = revisionOf(
          await store.txn({ compares: [{ key, modRevision: created }], writes: [{ type: "delete", key }] }),
        );
        expect(deleted).toBeGreaterThan(created);
        expect(await store.get(key)).toBeUndefined();
        const recreated = revisionOf(
          await store.txn({ compares: [{ key, modRevision: 0 }], writes: [put(key, "same")] }),
        );
        expect(recreated).toBeGreaterThan(deleted);
        expect(await store.get(key)).toMatchObject({ modRevision: recreated, createRevision: recreated });
        const stale = await store.txn({ compares: [{ key, modRevision: created }], writes: [put(key, "stale")] });
        expect(stale.succeeded).toBe(false);
      });
    });

    describe("transactions", () => {
      test("a compare on the current modRevision succeeds; a stale one fails and returns current values", async (store, prefix) => {
        const key = `${prefix}cas`;
        const v1 = revisionOf(await store.txn({ compares: [{ key, modRevision: 0 }], writes: [put(key, "v1")] }));
        const v2 = revisionOf(await store.txn({ compares: [{ key, modRevision: v1 }], writes: [put(key, "v2")] }));
        const lost = await store.txn({
          compares: [{ key, modRevision: v1 }],
          writes: [put(key, "v3")],
          readOnFailure: [key, `${prefix}absent`],
        });
        const current = currentOf(lost);
        expect([...current.keys()]).toEqual([key]);
        expect(current.get(key)).toMatchObject({ key, modRevision: v2, createRevision: v1 });
        expect(text(current.get(key)?.value)).toBe("v2");
        expect(text((await store.get(key))?.value)).toBe("v2");
      });

      test("a value compare holds on exactly the stored bytes, never on an absent key, and combines with revision compares", async (store, prefix) => {
        const key = `${prefix}value-cas`;
        const v1 = revisionOf(await store.txn({ compares: [], writes: [put(key, "head-1")] }));
        const lost = await store.txn({
          compares: [{ key, value: bytes("head-2") }],
          writes: [put(key, "never")],
          readOnFailure: [key],
        });
        expect(text(currentOf(lost).get(key)?.value)).toBe("head-1");
        const longer = await store.txn({ compares: [{ key, value: bytes("head-1 ") }], writes: [put(key, "never")] });
        expect(longer.succeeded).toBe(false);
        const absent = await store.txn({
          compares: [{ key: `${prefix}value-absent`, value: new Uint8Array(0) }],
          writes: [put(key, "never")],
        });
        expect(absent.succeeded).toBe(false);
        const mixed = await store.txn({
          compares: [
            { key, value: bytes("head-1") },
            { key: `${prefix}value-marker`, modRevision: 0 },
          ],
          writes: [put(key, "head-2"), put(`${prefix}value-marker`, "m")],
        });
        expect(revisionOf(mixed)).toBeGreaterThan(v1);
        expect(text((await store.get(key))?.value)).toBe("head-2");
        const chained = await store.txn({ compares: [{ key, value: bytes("head-2") }], writes: [put(key, "head-3")] });
        expect(chained.succeeded).toBe(true);
        expect(text((await store.get(key))?.value)).toBe("head-3");
      });

      test("with accelerations.orderedTxns (when the store declares it), txns sent without awaiting apply in order", async (store, prefix) => {
        if (store.accelerations?.orderedTxns !== true) return;
        const key = `${prefix}ordered`;
        // Each txn is chained on the value the one before it writes, and sent before that one answered.
        const chain = ["o-1", "o-2", "o-3", "o-4"].map((value, index, values) =>
          store.txn({
            compares: index === 0 ? [{ key, modRevision: 0 }] : [{ key, value: bytes(values[index - 1] ?? "") }],
            writes: [put(key, value)],
          }),
        );
        const results = await Promise.all(chain);
        expect(results.map((result) => result.succeeded)).toEqual([true, true, true, true]);
        const revisions = results.map(revisionOf);
        expect([...revisions].sort((left, right) => left - right)).toEqual(revisions);
        expect(text((await store.get(key))?.value)).toBe("o-4");
        // A txn chained on one whose compare fails applies nothing either.
        const failed = store.txn({ compares: [{ key, value: bytes("not-o-4") }], writes: [put(key, "x-1")] });
        const behind = store.txn({ compares: [{ key, value: bytes("x-1") }], writes: [put(key, "x-2")] });
        expect((await failed).succeeded).toBe(false);
        expect((await behind).succeeded).toBe(false);
        expect(text((await store.get(key))?.value)).toBe("o-4");
      });

      test("modRevision 0 means absent: put-if-absent fails on an existing key", async (store, prefix) => {
        const key = `${prefix}absent-check`;
        await store.txn({ compares: [], writes: [put(key, "first")] });
        const again = await store.txn({
          compares: [{ key, modRevision: 0 }],
          writes: [put(key, "second")],
          readOnFailure: [key],
        });
        expect(text(currentOf(again).get(key)?.value)).toBe("first");
        const gone = await store.txn({ compares: [{ key: `${prefix}never`, modRevision: 0 }], writes: [] });
        expect(gone.succeeded).toBe(true);
      });

      test("8 concurrent put-if-absent txns on one key: exactly one wins, the others see its value", async (store, prefix) => {
        const key = `${prefix}race`;
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            store.txn({
              compares: [{ key, modRevision: 0 }],
              writes: [put(key, `writer-${index}`)],
              readOnFailure: [key],
            }),
          ),
        );
        const winners = results.flatMap((result, index) => (result.succeeded ? [index] : []));
        expect(winners).toHaveLength(1);
        const winnerValue = `writer-${winners[0] ?? -1}`;
        for (const result of results) {
          if (!result.succeeded) expect(text(result.current.get(key)?.value)).toBe(winnerValue);
        }
        expect(text((await store.get(key))?.value)).toBe(winnerValue);
      });

      test("a txn is atomic: one failing compare applies none of its writes", async (store, prefix) => {
        const [a, b, c] = [`${prefix}atomic/a`, `${prefix}atomic/b`, `${prefix}atomic/c`];
        const base = revisionOf(await store.txn({ compares: [], writes: [put(a, "a0"), put(b, "b0")] }));
        const result = await store.txn({
          compares: [
            { key: a, modRevision: base },
            { key: b, modRevision: base + 1_000_000 },
          ],
          writes: [put(a, "a1"), { type: "delete", key: b }, put(c, "c1")],
          readOnFailure: [a, b],
        });
        expect(currentOf(result).size).toBe(2);
        const found = await store.getMany([a, b, c]);
        expect(text(found.get(a)?.value)).toBe("a0");
        expect(text(found.get(b)?.value)).toBe("b0");
        expect(found.has(c)).toBe(false);
      });

      test("a multi-key txn whose compares all hold applies every write at one revision", async (store, prefix) => {
        const [a, b, c] = [`${prefix}multi/a`, `${prefix}multi/b`, `${prefix}multi/c`];
        const base = revisionOf(await store.txn({ compares: [], writes: [put(a, "a0"), put(b, "b0")] }));
        const revision = revisionOf(
          await store.txn({
            compares: [
              { key: a, modRevision: base },
              { key: b, modRevision: base },
              { key: c, modRevision: 0 },
            ],
            writes: [put(a, "a1"), { type: "delete", key: b }, put(c, "c1")],
          }),
        );
        const found = await store.getMany([a, b, c]);
        expect(found.get(a)).toMatchObject({ modRevision: revision, value: bytes("a1") });
        expect(found.has(b)).toBe(false);
        expect(found.get(c)).toMatchObject({ modRevision: revision, createRevision: revision, value: bytes("c1") });
      });

      test("deleting an absent key in a txn succeeds and leaves it absent", async (store, prefix) => {
        const key = `${prefix}never-there`;
        const result = await store.txn({ compares: [{ key, modRevision: 0 }], writes: [{ type: "delete", key }] });
        expect(result.succeeded).toBe(true);
        expect(await store.get(key)).toBeUndefined();
      });

      test("a txn that writes one key twice is rejected with INVALID_ARGUMENT and applies nothing", async (store, prefix) => {
        const key = `${prefix}twice`;
        await expectNereusError(
          store.txn({ compares: [], writes: [put(key, "1"), put(key, "2")] }),
          ErrorCode.INVALID_ARGUMENT,
        );
        expect(await store.get(key)).toBeUndefined();
      });
    });

    describe("scan", () => {
      const suffixes = [
        "a",
        "b",
        "ab",
        "a/b",
        "A",
        "0",
        "9",
        "~",
        "é",
        "ü/x",
        "\uFF21",
        "\u{1F600}",
        "\u{10FFFF}",
        "z z",
        "zz",
        "日本",
        "a\u0000",
        "k-01",
        "k-02",
        "k-10",
        "k-11",
        "k-99",
        "€",
        "Ω",
        "\u007F",
      ];

      test("pages through more keys than the limit in UTF-8 byte order with startAfter/limit/more", async (store, prefix) => {
        const scanPrefix = `${prefix}scan/`;
        const keys = suffixes.map((suffix) => `${scanPrefix}${suffix}`);
        for (let index = 0; index < keys.length; index += 7) {
          await store.txn({ compares: [], writes: keys.slice(index, index + 7).map((key) => put(key, key)) });
        }
        // Neighbours that share the string start but are outside the prefix.
        await store.txn({
          compares: [],
          writes: [put(`${prefix}scan0`, "x"), put(`${prefix}sca`, "x"), put(`${prefix}scan`, "x")],
        });
        const expected = [...keys].sort(compareUtf8);
        const seen: string[] = [];
        let startAfter: string | undefined;
        let pages = 0;
        for (;;) {
          const page = await store.scan(scanPrefix, startAfter === undefined ? { limit: 7 } : { limit: 7, startAfter });
          pages += 1;
          expect(page.items.length).toBeLessThanOrEqual(7);
          for (const item of page.items) {
            seen.push(item.key);
            expect(text(item.value)).toBe(item.key);
          }
          if (!page.more) break;
          expect(page.items).toHaveLength(7);
          startAfter = page.items.at(-1)?.key;
          expect(pages).toBeLessThan(10);
        }
        expect(seen).toEqual(expected);
        expect(pages).toBe(Math.ceil(expected.length / 7));
      });

      test("more is false when the last page is exactly full, and an empty prefix range is an empty page", async (store, prefix) => {
        const scanPrefix = `${prefix}exact/`;
        await store.txn({
          compares: [],
          writes: ["1", "2", "3"].map((suffix) => put(`${scanPrefix}${suffix}`, suffix)),
        });
        const full = await store.scan(scanPrefix, { limit: 3 });
        expect(full.items.map((item) => item.key)).toEqual(["1", "2", "3"].map((suffix) => `${scanPrefix}${suffix}`));
        expect(full.more).toBe(false);
        const partial = await store.scan(scanPrefix, { limit: 2 });
        expect(partial.items).toHaveLength(2);
        expect(partial.more).toBe(true);
        expect(await store.scan(`${prefix}nothing/`, { limit: 5 })).toEqual({ items: [], more: false });
      });

      test("startAt is inclusive, startAfter exclusive, and both bounds apply together", async (store, prefix) => {
        const scanPrefix = `${prefix}bounds/`;
        await store.txn({
          compares: [],
          writes: ["a", "b", "c", "d"].map((suffix) => put(`${scanPrefix}${suffix}`, suffix)),
        });
        const keysOf = async (options: { startAt?: string; startAfter?: string }): Promise<string[]> =>
          (await store.scan(scanPrefix, { limit: 10, ...options })).items.map((item) =>
            item.key.slice(scanPrefix.length),
          );
        expect(await keysOf({ startAt: `${scanPrefix}b` })).toEqual(["b", "c", "d"]);
        expect(await keysOf({ startAfter: `${scanPrefix}b` })).toEqual(["c", "d"]);
        expect(await keysOf({ startAt: `${scanPrefix}b`, startAfter: `${scanPrefix}c` })).toEqual(["d"]);
        expect(await keysOf({ startAt: `${scanPrefix}c`, startAfter: `${scanPrefix}a` })).toEqual(["c", "d"]);
        expect(await keysOf({ startAt: `${scanPrefix}bb` })).toEqual(["c", "d"]);
        // A bound below the prefix does not widen the range.
        expect(await keysOf({ startAt: `${prefix}a` })).toEqual(["a", "b", "c", "d"]);
      });

      test("rejects a limit below 1 with INVALID_ARGUMENT", async (store, prefix) => {
        await expectNereusError(store.scan(prefix, { limit: 0 }), ErrorCode.INVALID_ARGUMENT);
      });
    });

    describe("leases", () => {
      test(
        "a key put with a lease disappears after the lease expires",
        async (store, prefix) => {
          const key = `${prefix}leased`;
          const lease = await store.grantLease(1_000);
          await store.txn({ compares: [], writes: [put(key, "ephemeral", lease.id), put(`${prefix}kept`, "durable")] });
          expect(text((await store.get(key))?.value)).toBe("ephemeral");
          await eventually(async () => (await store.get(key)) === undefined, "the leased key to expire");
          expect(await store.get(`${prefix}kept`)).toBeDefined();
        },
        SLOW_TEST_TIMEOUT_MS,
      );

      test("revoke deletes the lease's keys at once, and a put with a revoked lease fails with METADATA_CONDITION_FAILED", async (store, prefix) => {
        const key = `${prefix}revoked`;
        const lease = await store.grantLease(60_000);
        await store.txn({ compares: [], writes: [put(key, "x", lease.id)] });
        await lease.keepAlive();
        await lease.revoke();
        expect(await store.get(key)).toBeUndefined();
        await expectNereusError(
          store.txn({ compares: [], writes: [put(`${prefix}other`, "y"), put(key, "y", lease.id)] }),
          ErrorCode.METADATA_CONDITION_FAILED,
        );
        expect(await store.get(`${prefix}other`)).toBeUndefined();
      });
    });

    describe("watch", () => {
      test(
        "delivers a put under the watched prefix as a hint",
        async (store, prefix) => {
          const key = `${prefix}watched/k`;
          const events: WatchEvent[] = [];
          let notify: () => void = () => {};
          const delivered = new Promise<void>((resolve) => (notify = resolve));
          const handle = await store.watch(`${prefix}watched/`, (event) => {
            events.push(event);
            if (event.key === key && event.type === "put") notify();
          });
          try {
            await store.txn({ compares: [], writes: [put(`${prefix}elsewhere`, "x")] });
            const revision = revisionOf(await store.txn({ compares: [], writes: [put(key, "v")] }));
            let timer: NodeJS.Timeout | undefined;
            const deadline = new Promise<never>((_resolve, reject) => {
              timer = setTimeout(() => reject(new Error("watch event not delivered")), EVENTUAL_DEADLINE_MS);
            });
            await Promise.race([delivered, deadline]).finally(() => clearTimeout(timer));
            expect(events.find((event) => event.key === key)).toEqual({ type: "put", key, modRevision: revision });
            expect(events.every((event) => event.key.startsWith(`${prefix}watched/`))).toBe(true);
          } finally {
            await handle.close();
            await handle.close();
          }
        },
        SLOW_TEST_TIMEOUT_MS,
      );
    });

    describe("lifecycle and cancellation", () => {
      test("after close() every operation fails with STORAGE_CLOSED; close() is idempotent", async (store, prefix) => {
        const key = `${prefix}closed`;
        await store.close();
        await store.close();
        await expectNereusError(store.get(key), ErrorCode.STORAGE_CLOSED);
        await expectNereusError(store.getMany([key]), ErrorCode.STORAGE_CLOSED);
        await expectNereusError(store.scan(prefix, { limit: 1 }), ErrorCode.STORAGE_CLOSED);
        await expectNereusError(store.txn({ compares: [], writes: [put(key, "x")] }), ErrorCode.STORAGE_CLOSED);
        await expectNereusError(store.grantLease(1_000), ErrorCode.STORAGE_CLOSED);
        await expectNereusError(
          store.watch(prefix, () => {}),
          ErrorCode.STORAGE_CLOSED,
        );
      });

      test("an already-aborted signal fails with CANCELLED before any I/O", async (store, prefix) => {
        const key = `${prefix}cancelled`;
        const signal = AbortSignal.abort();
        await expectNereusError(store.get(key, { signal }), ErrorCode.CANCELLED);
        await expectNereusError(store.getMany([key], { signal }), ErrorCode.CANCELLED);
        await expectNereusError(store.scan(prefix, { limit: 1, signal }), ErrorCode.CANCELLED);
        await expectNereusError(store.txn({ compares: [], writes: [put(key, "x")] }, { signal }), ErrorCode.CANCELLED);
        await expectNereusError(store.grantLease(1_000, { signal }), ErrorCode.CANCELLED);
        expect(await store.get(key)).toBeUndefined();
      });

      test("rejects an empty key with INVALID_ARGUMENT", async (store) => {
        await expectNereusError(store.get(""), ErrorCode.INVALID_ARGUMENT);
      });
    });
  });
}
