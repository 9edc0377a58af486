// Generation selection on the read path: when several committed generations of the COMMITTED view cover an
// offset the highest one is read; a checksum failure of a higher generation falls back to a lower one of the
// same view; generation-0 corruption with no healthy higher copy is a data-integrity error, never wrong data.
// Generation >= 1 index entries are written here by hand (in production @nereus/object-wal publishes them).
import { afterEach, describe, expect, it } from "vitest";
import type { AppendResult } from "../src/domain/append-types.js";
import type { ReadTarget } from "../src/domain/read-target.js";
import { ErrorCode } from "../src/errors/error-code.js";
import { AppendProtocolHarness, opaqueBatch, text } from "../src/testing/append-protocol-harness.js";
import { expectNereusError } from "../src/testing/rejections.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";

const harnesses: AppendProtocolHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

/** Two gen-0 commits ([0,1) "a", [1,3) "b","c") and one generation-1 copy covering [0,3). */
async function setup(): Promise<{
  harness: AppendProtocolHarness;
  read: () => Promise<string[]>;
  gen0: AppendResult[];
  gen1: ReadTarget;
}> {
  const harness = new AppendProtocolHarness(new InMemoryMetadataStore());
  harnesses.push(harness);
  const store = harness.open();
  const { streamId } = await store.createStream("generations", { profile: "OBJECT_WAL_SYNC_OBJECT" });
  const gen0 = [await store.append(streamId, opaqueBatch("a")), await store.append(streamId, opaqueBatch("b", "c"))];
  const compacted = harness.objectWal.prepare({
    streamId,
    attemptId: "compaction/1",
    writerId: "compactor",
    writerEpoch: 1,
    expectedStartOffset: 0,
    payloadFormat: "OPAQUE_RECORD_BATCH",
    entries: opaqueBatch("a", "b", "c").entries,
  });
  const gen1 = (await harness.objectWal.persist(compacted)).readTarget;
  const last = gen0[1] as AppendResult;
  const entry = {
    streamId,
    offsetStart: 0,
    offsetEnd: 3,
    generation: 1,
    commitId: "",
    commitVersion: last.commitVersion,
    cumulativeSize: last.cumulativeSize,
    readTarget: gen1,
    payloadFormat: "OPAQUE_RECORD_BATCH" as const,
    entryRecordCounts: [1, 1, 1],
  };
  await harness.metadata.txn({
    compares: [],
    writes: [
      { type: "put", key: harness.keyspace.indexKey(streamId, 3, 1), value: harness.keyspace.encodeIndex(entry) },
    ],
  });
  harness.objectWal.stats.reset();
  return {
    harness,
    gen0,
    gen1,
    read: async () => (await store.read(streamId, 0)).entries.map((item) => text(item.payload)),
  };
}

describe("generation selection", () => {
  it("reads the highest committed generation covering the offset (one target read for the whole range)", async () => {
    const { harness, read } = await setup();
    expect(await read()).toEqual(["a", "b", "c"]);
    expect(harness.objectWal.stats.reads).toBe(1);
  });

  it("keeps reading correct bytes when generation 0 is damaged but a higher generation is healthy", async () => {
    const { harness, gen0, read } = await setup();
    for (const result of gen0) harness.objectWal.corrupt(result.readTarget);
    expect(await read()).toEqual(["a", "b", "c"]);
  });

  it("falls back to generation 0 when the higher generation fails its checksum", async () => {
    const { harness, gen1, read } = await setup();
    harness.objectWal.corrupt(gen1);
    expect(await read()).toEqual(["a", "b", "c"]);
    expect(harness.objectWal.stats.reads).toBeGreaterThan(1);
  });

  it("fails with a checksum error when every generation covering the offset is damaged", async () => {
    const { harness, gen0, gen1, read } = await setup();
    harness.objectWal.corrupt(gen1);
    harness.objectWal.corrupt((gen0[0] as AppendResult).readTarget);
    await expectNereusError(read(), ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH);
  });
});
