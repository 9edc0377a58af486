// Metadata cost of the append path, counted on the in-memory store: a warm lane appends with exactly ONE metadata
// round trip (the head-CAS transaction) for every profile boundary, a cold lane with two, and group commit turns
// N concurrent appends into fewer head transactions than appends.
import { afterEach, describe, expect, it } from "vitest";
import type { StorageProfile } from "../src/domain/storage-profile.js";
import { AppendProtocolHarness, opaqueBatch } from "../src/testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";

const harnesses: AppendProtocolHarness[] = [];
const harness = (): { harness: AppendProtocolHarness; metadata: InMemoryMetadataStore } => {
  const metadata = new InMemoryMetadataStore();
  const created = new AppendProtocolHarness(metadata);
  harnesses.push(created);
  return { harness: created, metadata };
};
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

describe("metadata round trips per append", () => {
  for (const profile of [
    "OBJECT_WAL_SYNC_OBJECT",
    "OBJECT_WAL_ASYNC_OBJECT",
    "BOOKKEEPER_WAL_ONLY",
  ] satisfies StorageProfile[]) {
    it(`${profile}: a warm append costs exactly one round trip (the head transaction)`, async () => {
      const { harness: stack, metadata } = harness();
      const store = stack.open();
      const { streamId } = await store.createStream(`warm-${profile}`, { profile });
      await store.append(streamId, opaqueBatch("warm-up"));
      for (let index = 0; index < 20; index++) {
        metadata.stats.reset();
        await store.append(streamId, opaqueBatch(`m${String(index)}`));
        expect({ roundTrips: metadata.stats.roundTrips, txns: metadata.stats.txns }).toEqual({
          roundTrips: 1,
          txns: 1,
        });
      }
    });
  }

  it("a cold lane (new process) costs two: one head read, one head transaction that also acquires the session", async () => {
    const { harness: stack, metadata } = harness();
    const { streamId } = await stack.open().createStream("cold", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    const fresh = stack.open({ writerId: "writer-b" });
    metadata.stats.reset();
    await fresh.append(streamId, opaqueBatch("first"));
    expect({ roundTrips: metadata.stats.roundTrips, gets: metadata.stats.gets, txns: metadata.stats.txns }).toEqual({
      roundTrips: 2,
      gets: 1,
      txns: 1,
    });
  });

  it("lease renewal rides in the append transaction (still one round trip)", async () => {
    const { harness: stack, metadata } = harness();
    let now = 1_000_000;
    const store = stack.open({ clock: () => now, sessionTtlMs: 3_000, sessionRenewBeforeMs: 1_000 });
    const { streamId } = await store.createStream("renew-cost", { profile: "BOOKKEEPER_WAL_ONLY" });
    await store.append(streamId, opaqueBatch("a"));
    now += 2_500;
    metadata.stats.reset();
    await store.append(streamId, opaqueBatch("b"));
    expect(metadata.stats.roundTrips).toBe(1);
    expect((await stack.head(streamId)).session?.expiresAtMillis).toBe(now + 3_000);
  });

  it("group commit: 64 concurrent appends cost fewer head transactions than appends", async () => {
    const { harness: stack, metadata } = harness();
    const store = stack.open({ groupCommit: { maxBytes: 1 << 20, maxEntries: 16 } });
    const { streamId } = await store.createStream("grouped-cost", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    await store.append(streamId, opaqueBatch("warm-up"));
    metadata.stats.reset();
    const results = await Promise.all(
      Array.from({ length: 64 }, (_value, index) => store.append(streamId, opaqueBatch(`g${String(index)}`))),
    );
    expect(metadata.stats.txns).toBeLessThan(64);
    expect(metadata.stats.txns).toBeGreaterThanOrEqual(4);
    expect(metadata.stats.roundTrips).toBe(metadata.stats.txns);
    expect(new Set(results.map((result) => result.commitId)).size).toBe(metadata.stats.txns);
    expect(results.map((result) => result.startOffset)).toEqual(
      Array.from({ length: 64 }, (_value, index) => index + 1),
    );
  });
});
