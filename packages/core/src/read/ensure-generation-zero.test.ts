import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { AppendProtocolHarness, opaqueBatch } from "../testing/append-protocol-harness.js";
import { expectNereusError } from "../testing/rejections.js";
import { InMemoryMetadataStore } from "../testing/in-memory-metadata-store.js";
import { ensureGenerationZero } from "./ensure-generation-zero.js";
import { repairGenerationZeroIndex } from "./repair-generation-zero-index.js";

async function asyncStream(appends: number) {
  const metadata = new InMemoryMetadataStore();
  const harness = new AppendProtocolHarness(metadata);
  const store = harness.open();
  const { streamId } = await store.createStream("derived", { profile: "BOOKKEEPER_WAL_ONLY" });
  for (let index = 0; index < appends; index++) await store.append(streamId, opaqueBatch(`e${String(index)}`));
  await store.close();
  return { metadata, harness, streamId };
}

describe("ensureGenerationZero", () => {
  it("writes missing index entries and markers once, and costs one read when they exist", async () => {
    const { metadata, harness, streamId } = await asyncStream(3);
    const intents = await harness.reachableCommits(streamId);
    expect(await harness.indexEntries(streamId)).toEqual([]);
    await ensureGenerationZero(metadata, harness.keyspace, intents);
    expect((await harness.indexEntries(streamId)).map((entry) => entry.offsetEnd)).toEqual([1, 2, 3]);
    metadata.stats.reset();
    await ensureGenerationZero(metadata, harness.keyspace, intents);
    expect({ roundTrips: metadata.stats.roundTrips, txns: metadata.stats.txns }).toEqual({ roundTrips: 1, txns: 0 });
  });

  it("refuses to overwrite a derived record with different content", async () => {
    const { metadata, harness, streamId } = await asyncStream(1);
    const [intent] = await harness.reachableCommits(streamId);
    if (intent === undefined) throw new Error("no commit");
    const key = harness.keyspace.markerKey(streamId, intent.commitId);
    await metadata.txn({
      compares: [],
      writes: [
        {
          type: "put",
          key,
          value: harness.keyspace.encodeMarker({
            streamId,
            commitId: intent.commitId,
            offsetStart: 0,
            offsetEnd: 1,
            commitVersion: 9,
          }),
        },
      ],
    });
    await expectNereusError(
      ensureGenerationZero(metadata, harness.keyspace, [intent]),
      ErrorCode.METADATA_INVARIANT_VIOLATION,
    );
  });
});

describe("repairGenerationZeroIndex", () => {
  it("stops at its budget with a retriable READ_RESOLUTION_FAILED, keeping its progress for the next call", async () => {
    const { metadata, harness, streamId } = await asyncStream(6);
    const head = await harness.head(streamId);
    const repair = async (above: Awaited<ReturnType<typeof harness.indexEntries>>[number] | undefined) =>
      repairGenerationZeroIndex({ metadata, keyspace: harness.keyspace, head, offset: 0, above, budget: 2 });
    const first = await expectNereusError(repair(undefined), ErrorCode.READ_RESOLUTION_FAILED);
    expect(first.retryable).toBe(true);
    expect((await harness.indexEntries(streamId)).map((entry) => entry.offsetEnd)).toEqual([5, 6]);
    await expectNereusError(repair((await harness.indexEntries(streamId))[0]), ErrorCode.READ_RESOLUTION_FAILED);
    await repair((await harness.indexEntries(streamId))[0]);
    expect((await harness.indexEntries(streamId)).map((entry) => entry.offsetEnd)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe("read-path repair", () => {
  it("keeps repairing in budget-sized steps until the gap is covered (deep gaps do not fail the read)", async () => {
    const { metadata, harness, streamId } = await asyncStream(12);
    const reader = harness.open({ repairBudget: 3, writerId: "reader" });
    const read = await reader.read(streamId, 0, { maxRecords: 2 });
    expect(read.entries.map((entry) => entry.offset)).toEqual([0, 1]);
    expect(await harness.indexEntries(streamId)).toHaveLength(12);
    await reader.close();
    await metadata.close();
  });
});
