import { ErrorCode } from "@nereus/core";
import { InMemoryMetadataStore, expectNereusError } from "@nereus/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LedgerIdAllocator } from "./ledger-id-allocator.js";
import { ledgerIdCounterCodec } from "./ledger-id-counter-codec.js";
import { PulsarKeyspace } from "./pulsar-keys.js";

const keyspace = new PulsarKeyspace("c1");
const BASE = 2n ** 62n;

async function storeCounter(metadata: InMemoryMetadataStore, nextLedgerId: bigint): Promise<void> {
  const key = keyspace.ledgerIdsKey();
  const value = ledgerIdCounterCodec(key).encode({ nextLedgerId });
  await metadata.txn({ compares: [], writes: [{ type: "put", key, value }] });
}

/** True when `id` comes back unchanged from a JavaScript number (what pulsar-flex holds). */
function survivesNumber(id: bigint): boolean {
  return BigInt(Number(id)) === id;
}

describe("LedgerIdAllocator", () => {
  test("ids are 2^62 + n * 1024 and unique across allocators sharing the store", async () => {
    const metadata = new InMemoryMetadataStore();
    const left = new LedgerIdAllocator(metadata, keyspace);
    const right = new LedgerIdAllocator(metadata, keyspace);
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? left : right).allocate()),
    );
    expect(new Set(ids).size).toBe(20);
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(
      Array.from({ length: 20 }, (_, n) => BASE + 1024n * BigInt(n)),
    );
  });

  test("every allocated id survives Number(id) -> BigInt unchanged", async () => {
    const metadata = new InMemoryMetadataStore();
    const allocator = new LedgerIdAllocator(metadata, keyspace);
    for (let index = 0; index < 300; index += 1) {
      const id = await allocator.allocate();
      expect(survivesNumber(id), `ledger id ${String(id)}`).toBe(true);
    }
  });

  test("from any stored counter, the id allocated is the next multiple of 1024 above 2^62 and survives Number", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: BASE, max: 2n ** 63n - 1024n }), async (counter) => {
        const metadata = new InMemoryMetadataStore();
        await storeCounter(metadata, counter);
        const id = await new LedgerIdAllocator(metadata, keyspace).allocate();
        expect(id >= counter && id - counter < 1024n).toBe(true);
        expect((id - BASE) % 1024n).toBe(0n);
        expect(survivesNumber(id)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test("a counter left between two allocatable ids (written before ids were spaced) moves on to the next one", async () => {
    const metadata = new InMemoryMetadataStore();
    await storeCounter(metadata, BASE + 7n);
    const allocator = new LedgerIdAllocator(metadata, keyspace);
    expect(await allocator.allocate()).toBe(BASE + 1024n);
    expect(await allocator.allocate()).toBe(BASE + 2048n);
  });

  test("an id whose CAS response was lost is skipped, never handed out", async () => {
    const metadata = new InMemoryMetadataStore();
    const allocator = new LedgerIdAllocator(metadata, keyspace);
    expect(await allocator.allocate()).toBe(BASE);
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response" });
    expect(await allocator.allocate()).toBe(BASE + 2048n);
    expect(await allocator.allocate()).toBe(BASE + 3072n);
  });

  test("once every id up to 2^63 - 1024 is used, allocation fails METADATA_LIMIT_EXCEEDED", async () => {
    const metadata = new InMemoryMetadataStore();
    await storeCounter(metadata, 2n ** 63n - 2000n);
    const allocator = new LedgerIdAllocator(metadata, keyspace);
    expect(await allocator.allocate()).toBe(2n ** 63n - 1024n);
    await expectNereusError(allocator.allocate(), ErrorCode.METADATA_LIMIT_EXCEEDED);
  });
});
