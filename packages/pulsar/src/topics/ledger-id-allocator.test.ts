import { ErrorCode } from "@nereus/core";
import { InMemoryMetadataStore, expectNereusError } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { LedgerIdAllocator } from "./ledger-id-allocator.js";
import { ledgerIdCounterCodec } from "./ledger-id-counter-codec.js";
import { PulsarKeyspace } from "./pulsar-keys.js";

const keyspace = new PulsarKeyspace("c1");

describe("LedgerIdAllocator", () => {
  test("ids start at 2^62 and are unique across allocators sharing the store", async () => {
    const metadata = new InMemoryMetadataStore();
    const left = new LedgerIdAllocator(metadata, keyspace);
    const right = new LedgerIdAllocator(metadata, keyspace);
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? left : right).allocate()),
    );
    expect(new Set(ids).size).toBe(20);
    expect(ids.every((id) => id >= 2n ** 62n && id < 2n ** 62n + 20n)).toBe(true);
  });

  test("an id whose CAS response was lost is skipped, never handed out", async () => {
    const metadata = new InMemoryMetadataStore();
    const allocator = new LedgerIdAllocator(metadata, keyspace);
    expect(await allocator.allocate()).toBe(2n ** 62n);
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response" });
    expect(await allocator.allocate()).toBe(2n ** 62n + 2n);
    expect(await allocator.allocate()).toBe(2n ** 62n + 3n);
  });

  test("once every id is used, allocation fails METADATA_LIMIT_EXCEEDED", async () => {
    const metadata = new InMemoryMetadataStore();
    const key = keyspace.ledgerIdsKey();
    const value = ledgerIdCounterCodec(key).encode({ nextLedgerId: 2n ** 63n - 2n });
    await metadata.txn({ compares: [], writes: [{ type: "put", key, value }] });
    const allocator = new LedgerIdAllocator(metadata, keyspace);
    expect(await allocator.allocate()).toBe(2n ** 63n - 2n);
    await expectNereusError(allocator.allocate(), ErrorCode.METADATA_LIMIT_EXCEEDED);
  });
});
