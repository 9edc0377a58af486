// Random puts, deletes, reopens and torn tails against the segment layout (small segments, so rolls, reclaim and
// compaction all happen), checked against a model of what was acknowledged.
import { mkdtemp, readdir, rm, stat, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FileSystemObjectStore } from "../file-system-object-store.js";

type Op =
  | { readonly kind: "put"; readonly key: number; readonly size: number; readonly seed: number }
  | { readonly kind: "delete"; readonly keys: readonly number[] }
  | { readonly kind: "reopen" }
  | { readonly kind: "tear"; readonly bytes: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("put" as const),
      key: fc.integer({ min: 0, max: 11 }),
      size: fc.integer({ min: 0, max: 3000 }),
      seed: fc.integer({ min: 0, max: 250 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("delete" as const),
      keys: fc.uniqueArray(fc.integer({ min: 0, max: 11 }), { maxLength: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reopen" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("tear" as const), bytes: fc.integer({ min: 1, max: 600 }) }) },
);

const keyOf = (index: number): string => `p/${String(index).padStart(2, "0")}`;
const body = (size: number, seed: number): Uint8Array =>
  Uint8Array.from({ length: size }, (_, index) => (index * 7 + seed) % 256);
const OPTIONS = { segmentBytes: 4096, maxObjectBytes: 2500, compactBelow: 0.5 } as const;

describe("segment layout under random operations", () => {
  it("always reopens to exactly what was acknowledged; a torn tail loses only whole records at the end", async () => {
    const seen = { compacted: 0, removed: 0, torn: 0 };
    const tally = (store: FileSystemObjectStore): void => {
      seen.compacted += store.segmentStats?.objectsCompacted ?? 0;
      seen.removed += store.segmentStats?.segmentsRemoved ?? 0;
      if (store.segmentRecovery !== undefined) seen.torn += 1;
    };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40 }), async (ops) => {
        const root = await mkdtemp(path.join(tmpdir(), "nereus-seg-prop-"));
        let store = new FileSystemObjectStore({ root, durability: "os-buffered", segments: OPTIONS });
        const model = new Map<string, Uint8Array>();
        /** Every body ever acknowledged per key (a torn tail may bring back an older one or none). */
        const written = new Map<string, Uint8Array[]>();
        try {
          for (const step of ops) {
            if (step.kind === "put") {
              const key = keyOf(step.key);
              const bytes = body(step.size, step.seed);
              const { created } = await store.putIfAbsent(key, bytes);
              expect(created).toBe(!model.has(key));
              if (created) {
                model.set(key, bytes);
                written.set(key, [...(written.get(key) ?? []), bytes]);
              }
            } else if (step.kind === "delete") {
              await store.deleteMany(step.keys.map(keyOf));
              for (const key of step.keys) model.delete(keyOf(key));
            } else {
              await store.close();
              tally(store);
              if (step.kind === "tear") await tearLastSegment(root, step.bytes);
              store = new FileSystemObjectStore({ root, durability: "os-buffered", segments: OPTIONS });
              if (step.kind === "reopen") {
                await expectStoreEquals(store, model);
              } else {
                // What survived must be bodies that were written; the model becomes what survived.
                const listed = await listAll(store);
                model.clear();
                for (const key of listed) {
                  const stored = await store.get(key);
                  expect(
                    (written.get(key) ?? []).some((candidate) => Buffer.from(candidate).equals(Buffer.from(stored))),
                  ).toBe(true);
                  model.set(key, stored);
                }
              }
            }
          }
          await store.close();
          tally(store);
          store = new FileSystemObjectStore({ root, durability: "os-buffered", segments: OPTIONS });
          await expectStoreEquals(store, model);
          tally(store);
        } finally {
          await store.close();
          await rm(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
    // The runs did exercise what they are about.
    expect(seen.compacted).toBeGreaterThan(0);
    expect(seen.removed).toBeGreaterThan(0);
    expect(seen.torn).toBeGreaterThan(0);
  }, 120_000);
});

async function listAll(store: FileSystemObjectStore): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await store.list("p/", { limit: 5, ...(token === undefined ? {} : { continuationToken: token }) });
    keys.push(...page.items.map((item) => item.key));
    token = page.continuationToken;
  } while (token !== undefined);
  return keys;
}

async function expectStoreEquals(store: FileSystemObjectStore, model: ReadonlyMap<string, Uint8Array>): Promise<void> {
  expect(await listAll(store)).toEqual([...model.keys()].sort());
  for (const [key, bytes] of model) {
    expect(Buffer.from(await store.get(key)).equals(Buffer.from(bytes))).toBe(true);
    expect((await store.head(key))?.size).toBe(bytes.length);
  }
}

/** A crash that lost the last `bytes` of the newest segment (as an unsynced tail would be). */
async function tearLastSegment(root: string, bytes: number): Promise<void> {
  const directory = path.join(root, "segments");
  const names = (await readdir(directory).catch(() => [] as string[])).filter((name) => name.endsWith(".nsr")).sort();
  const last = names.at(-1);
  if (last === undefined) return;
  const file = path.join(directory, last);
  const size = (await stat(file)).size;
  await truncate(file, Math.max(0, size - bytes));
}
