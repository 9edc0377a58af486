import { describe, expect, it } from "vitest";
import type { GenerationIndexEntry } from "../domain/generation-records.js";
import type { ReadTarget } from "../domain/read-target.js";
import { AppendProtocolHarness, opaqueBatch, text } from "../testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../testing/in-memory-metadata-store.js";

const encoder = new TextEncoder();

/** A stream with 5 entries in 3 commits, each commit indexed at generation 0. */
async function streamWithGenerationZero() {
  const metadata = new InMemoryMetadataStore();
  const harness = new AppendProtocolHarness(metadata);
  const store = harness.open();
  const { streamId } = await store.createStream("generations", { profile: "OBJECT_WAL_SYNC_OBJECT" });
  await store.append(streamId, opaqueBatch("a", "b"));
  await store.append(streamId, opaqueBatch("c"));
  await store.append(streamId, opaqueBatch("d", "e"));
  return { metadata, harness, store, streamId };
}

/** Writes the given texts as one target of the object WAL (a stand-in for a materialized generation object). */
async function generationTarget(
  harness: AppendProtocolHarness,
  streamId: string,
  texts: readonly string[],
): Promise<ReadTarget> {
  const prepared = harness.objectWal.prepare({
    streamId,
    attemptId: `generation/${texts.join("")}`,
    writerId: "materializer",
    writerEpoch: 1,
    expectedStartOffset: 0,
    payloadFormat: "OPAQUE_RECORD_BATCH",
    entries: texts.map((value) => ({ payload: encoder.encode(value), recordCount: 1 })),
  });
  return (await harness.objectWal.persist(prepared)).readTarget;
}

async function putGeneration(harness: AppendProtocolHarness, entry: GenerationIndexEntry): Promise<string> {
  const key = harness.keyspace.generationIndexKey(entry.streamId, entry.offsetEnd, entry.generation);
  await harness.metadata.txn({
    compares: [],
    writes: [{ type: "put", key, value: harness.keyspace.encodeGenerationIndex(entry) }],
  });
  return key;
}

function generation(
  streamId: string,
  readTarget: ReadTarget,
  overrides: Partial<GenerationIndexEntry> = {},
): GenerationIndexEntry {
  return {
    streamId,
    offsetStart: 0,
    offsetEnd: 5,
    generation: 1,
    level: 1,
    state: "COMMITTED",
    publicationId: "pub-1",
    commitVersion: 3,
    cumulativeSize: 5,
    logicalBytes: 5,
    readTarget,
    payloadFormat: "OPAQUE_RECORD_BATCH",
    entryRecordCounts: [1, 1, 1, 1, 1],
    ...overrides,
  };
}

describe("read path over higher generations", () => {
  it("reads a committed higher generation covering the offset with one target read, byte-identical to generation 0", async () => {
    const { harness, store, streamId } = await streamWithGenerationZero();
    const fromZero = await store.read(streamId, 0);
    const target = await generationTarget(harness, streamId, ["a", "b", "c", "d", "e"]);
    await putGeneration(harness, generation(streamId, target));
    harness.objectWal.stats.reset();
    const fromOne = await store.read(streamId, 0);
    expect(harness.objectWal.stats.reads).toBe(1);
    expect(fromOne.entries).toEqual(fromZero.entries);
    const middle = await store.read(streamId, 3);
    expect(middle.entries.map((entry) => [entry.offset, text(entry.payload)])).toEqual([
      [3, "d"],
      [4, "e"],
    ]);
    await harness.dispose();
  });

  it("prefers the highest committed generation and never reads PREPARED ones", async () => {
    const { harness, store, streamId } = await streamWithGenerationZero();
    const good = await generationTarget(harness, streamId, ["a", "b", "c", "d", "e"]);
    const broken = await generationTarget(harness, streamId, ["x", "x", "x", "x", "x"]);
    await putGeneration(harness, generation(streamId, good, { generation: 4, level: 2 }));
    await putGeneration(
      harness,
      generation(streamId, broken, { generation: 7, state: "PREPARED", publicationId: "pending" }),
    );
    await putGeneration(
      harness,
      generation(streamId, broken, {
        generation: 2,
        offsetEnd: 3,
        entryRecordCounts: [1, 1, 1],
        logicalBytes: 3,
        cumulativeSize: 3,
      }),
    );
    const read = await store.read(streamId, 1);
    expect(read.entries.map((entry) => text(entry.payload))).toEqual(["b", "c", "d", "e"]);
    await harness.dispose();
  });

  it("quarantines a corrupt generation and falls back to a lower one within the same read", async () => {
    const { harness, store, streamId, metadata } = await streamWithGenerationZero();
    const target = await generationTarget(harness, streamId, ["a", "b", "c", "d", "e"]);
    const key = await putGeneration(harness, generation(streamId, target));
    harness.objectWal.corrupt(target);
    const read = await store.read(streamId, 0);
    expect(read.entries.map((entry) => text(entry.payload))).toEqual(["a", "b", "c", "d", "e"]);
    const stored = await metadata.get(key);
    expect(stored === undefined ? undefined : harness.keyspace.decodeGenerationIndex(stored).state).toBe("QUARANTINED");
    harness.objectWal.stats.reset();
    await store.read(streamId, 0);
    expect(harness.objectWal.stats.reads).toBe(3);
    await harness.dispose();
  });

  it("falls back when a generation's object is missing, and repairs generation 0 if it was never indexed", async () => {
    const metadata = new InMemoryMetadataStore();
    const harness = new AppendProtocolHarness(metadata);
    const store = harness.open();
    const { streamId } = await store.createStream("async-generations", { profile: "BOOKKEEPER_WAL_ONLY" });
    await store.append(streamId, opaqueBatch("a", "b", "c", "d", "e"));
    expect(await harness.indexEntries(streamId)).toEqual([]);
    const missing: ReadTarget = {
      type: "OBJECT_SLICE",
      version: 1,
      objectKey: "gone",
      objectType: "STREAM_GENERATION_OBJECT",
      sliceOffset: 0,
      sliceLength: 10,
      sliceChecksum: 1,
      entryCount: 5,
    };
    await putGeneration(harness, generation(streamId, missing, { commitVersion: 1 }));
    const read = await store.read(streamId, 2);
    expect(read.entries.map((entry) => text(entry.payload))).toEqual(["c", "d", "e"]);
    expect(await harness.indexEntries(streamId)).toHaveLength(1);
    await harness.dispose();
  });
});
