// The ObjectStore SPI v1 behaviour suite. Every implementation (in-memory, filesystem, S3) runs it from its own
// test file; it asserts what a caller can observe, never implementation details. Each test asks for a fresh store,
// works under its own random sub-prefix of the prefix it is given, and closes the store afterwards.
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { ObjectStore } from "../spi/object-store.js";
import { rejectionOf } from "./rejections.js";

/** What the suite needs from an implementation: a fresh store and a key prefix it may freely write under. */
export interface ObjectStoreConformanceFixture {
  readonly store: ObjectStore;
  /** Every key the suite writes starts with this prefix (e.g. a unique per-run folder on a shared bucket). */
  readonly prefix: string;
  /** Runs after the store was closed (e.g. removes a temporary directory). */
  cleanup?(): Promise<void>;
}

/**
 * Registers the ObjectStore conformance suite under `describe(name)`. `createStore` is called once per test.
 * Asserts: create-only puts (a second put reports `created: false` and leaves the bytes unchanged; 8 concurrent
 * writers of one key produce exactly one `created: true`), and for the accelerations a store offers: bodies built in
 * `allocateBody` memory (also reused after `releaseBody`) stored exactly, and gated puts that store the object
 * exactly and stay create-only; exact ranged reads, `OBJECT_NOT_FOUND` for missing objects,
 * head, prefix listing in key order with pagination, deleteMany, `CANCELLED` before any I/O on an aborted signal,
 * and `STORAGE_CLOSED` after an idempotent `close()`.
 */
export function describeObjectStoreConformance(
  name: string,
  createStore: () => Promise<ObjectStoreConformanceFixture>,
): void {
  async function withStore(test: (store: ObjectStore, prefix: string) => Promise<void>): Promise<void> {
    const fixture = await createStore();
    try {
      await test(fixture.store, `${fixture.prefix}${randomUUID()}/`);
    } finally {
      await fixture.store.close();
      await fixture.cleanup?.();
    }
  }

  describe(name, () => {
    it("creates an object once and reads back exactly its bytes", async () => {
      await withStore(async (store, prefix) => {
        const body = randomBytes(70_000);
        await expect(store.putIfAbsent(`${prefix}object`, body)).resolves.toEqual({ created: true });
        expect(equalBytes(await store.get(`${prefix}object`), body)).toBe(true);
        const info = await store.head(`${prefix}object`);
        expect(info?.key).toBe(`${prefix}object`);
        expect(info?.size).toBe(body.length);
      });
    });

    it("stores bodies built in allocateBody memory (when the store offers it) exactly, also after releaseBody", async () => {
      await withStore(async (store, prefix) => {
        const accelerations = store.accelerations ?? {};
        const source = randomBytes(90_000);
        const body = accelerations.allocateBody?.(source.length) ?? new Uint8Array(source.length);
        expect(body.length).toBe(source.length);
        body.set(source);
        await expect(store.putIfAbsent(`${prefix}allocated`, body)).resolves.toEqual({ created: true });
        expect(equalBytes(await store.get(`${prefix}allocated`), source)).toBe(true);
        await expect(store.putIfAbsent(`${prefix}allocated`, body)).resolves.toEqual({ created: false });
        accelerations.releaseBody?.(body);
        // Memory released and handed out again (possibly the same) makes another object, and leaves the first intact.
        const second = randomBytes(source.length);
        const reused = accelerations.allocateBody?.(second.length) ?? new Uint8Array(second.length);
        reused.set(second);
        await expect(store.putIfAbsent(`${prefix}allocated-2`, reused)).resolves.toEqual({ created: true });
        accelerations.releaseBody?.(reused);
        expect(equalBytes(await store.get(`${prefix}allocated`), source)).toBe(true);
        expect(equalBytes(await store.get(`${prefix}allocated-2`), second)).toBe(true);
      });
    });

    it("stores a gated put (when the store offers and starts one) exactly once its gate opens, create-only", async () => {
      await withStore(async (store, prefix) => {
        const accelerations = store.accelerations;
        if (accelerations?.putIfAbsentGated === undefined) return;
        const body = randomBytes(5000);
        const started = await accelerations.putIfAbsentGated(`${prefix}gated`, body);
        if (started === undefined) {
          // Declined: nothing was started.
          await expect(store.head(`${prefix}gated`)).resolves.toBeUndefined();
          return;
        }
        await started.gate.durable;
        await expect(started.done).resolves.toEqual({ created: true });
        expect(equalBytes(await store.get(`${prefix}gated`), body)).toBe(true);
        await expect(store.putIfAbsent(`${prefix}gated`, randomBytes(10))).resolves.toEqual({ created: false });
        expect(equalBytes(await store.get(`${prefix}gated`), body)).toBe(true);
      });
    });

    it("stores empty objects", async () => {
      await withStore(async (store, prefix) => {
        await expect(store.putIfAbsent(`${prefix}empty`, new Uint8Array(0))).resolves.toEqual({ created: true });
        expect((await store.get(`${prefix}empty`)).length).toBe(0);
        expect((await store.head(`${prefix}empty`))?.size).toBe(0);
      });
    });

    it("never overwrites: a second put reports created:false and the first bytes stay", async () => {
      await withStore(async (store, prefix) => {
        const first = randomBytes(1000);
        await store.putIfAbsent(`${prefix}once`, first);
        await expect(store.putIfAbsent(`${prefix}once`, randomBytes(1000))).resolves.toEqual({ created: false });
        await expect(store.putIfAbsent(`${prefix}once`, randomBytes(10))).resolves.toEqual({ created: false });
        // A later call with identical bytes is still not the creator: only a lost response inside one call is
        // resolved by comparing bytes.
        await expect(store.putIfAbsent(`${prefix}once`, first)).resolves.toEqual({ created: false });
        expect(equalBytes(await store.get(`${prefix}once`), first)).toBe(true);
        expect((await store.head(`${prefix}once`))?.size).toBe(1000);
      });
    });

    it("lets exactly one of 8 concurrent writers of one key create it", async () => {
      await withStore(async (store, prefix) => {
        const bodies = Array.from({ length: 8 }, (_, index) => randomBytes(4096 + index));
        const results = await Promise.all(bodies.map((body) => store.putIfAbsent(`${prefix}race`, body)));
        const winners = results.flatMap((result, index) => (result.created ? [index] : []));
        expect(winners).toHaveLength(1);
        const winner = bodies[winners[0] ?? -1];
        expect(winner).toBeDefined();
        expect(equalBytes(await store.get(`${prefix}race`), winner ?? new Uint8Array(0))).toBe(true);
      });
    });

    it("returns exactly the requested bytes of a range", async () => {
      await withStore(async (store, prefix) => {
        const body = randomBytes(100_000);
        await store.putIfAbsent(`${prefix}ranged`, body);
        const ranges = [
          { offset: 0, length: 1 },
          { offset: 0, length: 4096 },
          { offset: 12_345, length: 54_321 },
          { offset: 99_999, length: 1 },
          { offset: 50_000, length: 50_000 },
          { offset: 0, length: 100_000 },
          { offset: 777, length: 0 },
          { offset: 100_000, length: 0 },
        ];
        for (const range of ranges) {
          const bytes = await store.get(`${prefix}ranged`, range);
          expect(bytes.length).toBe(range.length);
          expect(equalBytes(bytes, body.subarray(range.offset, range.offset + range.length))).toBe(true);
        }
      });
    });

    it("rejects ranges outside the object or with negative bounds as INVALID_ARGUMENT", async () => {
      await withStore(async (store, prefix) => {
        await store.putIfAbsent(`${prefix}small`, randomBytes(100));
        for (const range of [
          { offset: 90, length: 11 },
          { offset: 100, length: 1 },
          { offset: 5000, length: 10 },
          { offset: -1, length: 10 },
          { offset: 0, length: -1 },
          { offset: 0.5, length: 10 },
        ]) {
          expect(codeOf(await rejectionOf(store.get(`${prefix}small`, range)))).toBe(ErrorCode.INVALID_ARGUMENT);
        }
      });
    });

    it("reports a missing object as OBJECT_NOT_FOUND on get and as undefined on head", async () => {
      await withStore(async (store, prefix) => {
        expect(codeOf(await rejectionOf(store.get(`${prefix}missing`)))).toBe(ErrorCode.OBJECT_NOT_FOUND);
        expect(codeOf(await rejectionOf(store.get(`${prefix}missing`, { offset: 0, length: 10 })))).toBe(
          ErrorCode.OBJECT_NOT_FOUND,
        );
        expect(codeOf(await rejectionOf(store.get(`${prefix}missing`, { offset: 0, length: 0 })))).toBe(
          ErrorCode.OBJECT_NOT_FOUND,
        );
        await expect(store.head(`${prefix}missing`)).resolves.toBeUndefined();
      });
    });

    it("head reports the size and, when known, the CRC32C of the stored bytes", async () => {
      await withStore(async (store, prefix) => {
        const body = new TextEncoder().encode("123456789");
        await store.putIfAbsent(`${prefix}check`, body);
        const info = await store.head(`${prefix}check`);
        expect(info).toMatchObject({ key: `${prefix}check`, size: 9 });
        // The CRC32C check value of "123456789".
        if (info?.crc32c !== undefined) expect(info.crc32c).toBe(0xe3069283);
      });
    });

    it("lists by prefix in key order, page by page", async () => {
      await withStore(async (store, prefix) => {
        // No key is also a "folder" of another key, and no pair mixes a supplementary character with U+E000..U+FFFF:
        // filesystem-backed S3 servers reject the first, and servers sorting by UTF-16 disagree with AWS on the second.
        const names = ["a-b", "a.b", "a/b", "a/c/d", "a0", "b/c/d", "b/c/e", "z", "\u00e9", "\u{1f600}"];
        const bodies = new Map(names.map((keyName, index) => [`${prefix}list/${keyName}`, randomBytes(index + 1)]));
        for (const [key, body] of bodies) await store.putIfAbsent(key, body);
        await store.putIfAbsent(`${prefix}listing-decoy`, randomBytes(3));
        await store.putIfAbsent(`${prefix}other/a`, randomBytes(3));

        const expected = [...bodies.keys()].sort((left, right) =>
          Buffer.compare(Buffer.from(left), Buffer.from(right)),
        );
        const seen: string[] = [];
        let token: string | undefined;
        let pages = 0;
        do {
          const page = await store.list(`${prefix}list/`, {
            limit: 3,
            ...(token === undefined ? {} : { continuationToken: token }),
          });
          expect(page.items.length).toBeLessThanOrEqual(3);
          for (const item of page.items) {
            expect(item.size).toBe(bodies.get(item.key)?.length);
            seen.push(item.key);
          }
          token = page.continuationToken;
          pages += 1;
        } while (token !== undefined && pages < 20);
        expect(seen).toEqual(expected);
        expect(pages).toBe(4);

        const all = await store.list(`${prefix}list/`);
        expect(all.continuationToken).toBeUndefined();
        expect(all.items.map((item) => item.key)).toEqual(expected);

        // A prefix that ends inside a key segment.
        const partial = await store.list(`${prefix}list/a`);
        expect(partial.items.map((item) => item.key)).toEqual(
          expected.filter((key) => key.startsWith(`${prefix}list/a`)),
        );
        const deep = await store.list(`${prefix}list/b/c/`);
        expect(deep.items.map((item) => item.key)).toEqual([`${prefix}list/b/c/d`, `${prefix}list/b/c/e`]);
        await expect(store.list(`${prefix}nothing-here/`)).resolves.toEqual({ items: [] });
      });
    });

    it("deleteMany removes the given keys, ignores missing ones and leaves the rest", async () => {
      await withStore(async (store, prefix) => {
        const keep = randomBytes(100);
        await store.putIfAbsent(`${prefix}d/1`, randomBytes(100));
        await store.putIfAbsent(`${prefix}d/2`, randomBytes(100));
        await store.putIfAbsent(`${prefix}d/3`, keep);
        await store.deleteMany([`${prefix}d/1`, `${prefix}d/2`, `${prefix}d/never-existed`]);
        await store.deleteMany([]);
        expect(codeOf(await rejectionOf(store.get(`${prefix}d/1`)))).toBe(ErrorCode.OBJECT_NOT_FOUND);
        await expect(store.head(`${prefix}d/2`)).resolves.toBeUndefined();
        expect(equalBytes(await store.get(`${prefix}d/3`), keep)).toBe(true);
        expect((await store.list(`${prefix}d/`)).items.map((item) => item.key)).toEqual([`${prefix}d/3`]);
        await store.deleteMany([`${prefix}d/1`]);
        // An absent key can be created again.
        await expect(store.putIfAbsent(`${prefix}d/1`, randomBytes(5))).resolves.toEqual({ created: true });
      });
    });

    it("deletes more keys than fit one batch", async () => {
      await withStore(async (store, prefix) => {
        const keys = Array.from({ length: 1003 }, (_, index) => `${prefix}many/${String(index).padStart(4, "0")}`);
        const body = new Uint8Array([1]);
        for (let start = 0; start < keys.length; start += 50) {
          await Promise.all(keys.slice(start, start + 50).map((key) => store.putIfAbsent(key, body)));
        }
        await store.deleteMany(keys);
        await expect(store.list(`${prefix}many/`)).resolves.toEqual({ items: [] });
      });
    });

    it("fails every operation with CANCELLED before any I/O when the signal is already aborted", async () => {
      await withStore(async (store, prefix) => {
        const existing = randomBytes(10);
        await store.putIfAbsent(`${prefix}present`, existing);
        const controller = new AbortController();
        controller.abort(new Error("caller gave up"));
        const signal = controller.signal;
        expect(codeOf(await rejectionOf(store.putIfAbsent(`${prefix}aborted`, randomBytes(10), { signal })))).toBe(
          ErrorCode.CANCELLED,
        );
        expect(codeOf(await rejectionOf(store.get(`${prefix}present`, undefined, { signal })))).toBe(
          ErrorCode.CANCELLED,
        );
        expect(codeOf(await rejectionOf(store.get(`${prefix}present`, { offset: 0, length: 2 }, { signal })))).toBe(
          ErrorCode.CANCELLED,
        );
        expect(codeOf(await rejectionOf(store.head(`${prefix}present`, { signal })))).toBe(ErrorCode.CANCELLED);
        expect(codeOf(await rejectionOf(store.list(prefix, { signal })))).toBe(ErrorCode.CANCELLED);
        expect(codeOf(await rejectionOf(store.deleteMany([`${prefix}present`], { signal })))).toBe(ErrorCode.CANCELLED);
        // Nothing was written or deleted.
        await expect(store.head(`${prefix}aborted`)).resolves.toBeUndefined();
        expect(equalBytes(await store.get(`${prefix}present`), existing)).toBe(true);
      });
    });

    it("fails every operation with STORAGE_CLOSED after close, and close is idempotent", async () => {
      await withStore(async (store, prefix) => {
        await store.putIfAbsent(`${prefix}before-close`, randomBytes(10));
        await store.close();
        await store.close();
        const errors = [
          await rejectionOf(store.putIfAbsent(`${prefix}after-close`, randomBytes(10))),
          await rejectionOf(store.get(`${prefix}before-close`)),
          await rejectionOf(store.head(`${prefix}before-close`)),
          await rejectionOf(store.list(prefix)),
          await rejectionOf(store.deleteMany([`${prefix}before-close`])),
        ];
        for (const error of errors) expect(codeOf(error)).toBe(ErrorCode.STORAGE_CLOSED);
      });
    });
  });
}

function equalBytes(left: Uint8Array, right: Uint8Array): boolean {
  return Buffer.from(left.buffer, left.byteOffset, left.byteLength).equals(
    Buffer.from(right.buffer, right.byteOffset, right.byteLength),
  );
}

function codeOf(error: unknown): string {
  if (!NereusError.is(error)) throw new Error(`expected a NereusError, got ${String(error)}`, { cause: error });
  return error.code;
}
