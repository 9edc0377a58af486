import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OffsetIndexEntry } from "../domain/commit-records.js";
import type { GenerationIndexEntry } from "../domain/generation-records.js";
import type { ReadTarget } from "../domain/read-target.js";
import type { StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { nereusRejectionOf } from "../testing/rejections.js";
import { AppendProtocolHarness, opaqueBatch, text } from "../testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../testing/in-memory-metadata-store.js";
import { ReadResolutionCache } from "./read-resolution-cache.js";
import type { GenerationCandidate } from "./scan-generation-candidates.js";

const target = (name: string): ReadTarget => ({
  type: "OBJECT_SLICE",
  version: 1,
  objectKey: name,
  objectType: "MEMORY_OBJECT",
  sliceOffset: 0,
  sliceLength: 1,
  sliceChecksum: 0,
  entryCount: 1,
});

function head(overrides: Partial<StreamHead> = {}): StreamHead {
  return {
    streamId: "s",
    streamName: "s",
    state: "ACTIVE",
    profile: "OBJECT_WAL_SYNC_OBJECT",
    attributes: {},
    createdAtMillis: 1,
    committedEndOffset: 100,
    cumulativeSize: 1000,
    commitVersion: 10,
    trimOffset: 0,
    lastCommitId: "c",
    session: undefined,
    ...overrides,
  } as StreamHead;
}

/** Generation-0 index entries of `[start, end)` ranges, 10 bytes per record. */
function zero(...ranges: Array<[number, number]>): OffsetIndexEntry[] {
  return ranges.map(([offsetStart, offsetEnd]) => ({
    streamId: "s",
    offsetStart,
    offsetEnd,
    generation: 0,
    commitId: `c${String(offsetEnd)}`,
    commitVersion: 1,
    cumulativeSize: offsetEnd * 10,
    readTarget: target(`zero-${String(offsetEnd)}`),
    payloadFormat: "OPAQUE_RECORD_BATCH",
    entryRecordCounts: [offsetEnd - offsetStart],
  }));
}

function generationCandidate(offsetStart: number, offsetEnd: number, generation = 1): GenerationCandidate {
  const entry: GenerationIndexEntry = {
    streamId: "s",
    offsetStart,
    offsetEnd,
    generation,
    level: 1,
    state: "COMMITTED",
    publicationId: "p",
    commitVersion: 1,
    cumulativeSize: offsetEnd * 10,
    logicalBytes: (offsetEnd - offsetStart) * 10,
    readTarget: target(`gen-${String(generation)}`),
    payloadFormat: "OPAQUE_RECORD_BATCH",
    entryRecordCounts: [offsetEnd - offsetStart],
  };
  return { entry, key: `g/${String(offsetEnd)}/${String(generation)}`, revision: 1 };
}

describe("ReadResolutionCache", () => {
  it("answers offsets inside a cached page, prefers committed generations, and misses outside it", () => {
    const cache = new ReadResolutionCache();
    cache.addScan(head(), zero([0, 10], [10, 20], [20, 30]), [generationCandidate(10, 30)]);
    expect(cache.lookup("s", 5)?.range.generation).toBe(0);
    expect(cache.lookup("s", 15)?.generationKey).toBe("g/30/1");
    expect(cache.lookup("s", 30)).toBeUndefined();
    expect(cache.lookup("other", 0)).toBeUndefined();
    expect([cache.hits, cache.misses]).toEqual([2, 2]);
  });

  it("plans consecutive ranges until the byte budget is reached and stops at a gap", () => {
    const cache = new ReadResolutionCache();
    cache.addScan(head(), zero([0, 10], [10, 20], [20, 30], [30, 40], [50, 60]), []);
    // After the first range, each range is 100 bytes: a 150-byte budget takes two more.
    expect(cache.plan("s", 3, 100, 150, 16).map((entry) => entry.range.offsetStart)).toEqual([0, 10, 20]);
    expect(cache.plan("s", 25, 100, 10_000, 16).map((entry) => entry.range.offsetStart)).toEqual([20, 30]);
    expect(cache.plan("s", 3, 100, 10_000, 2)).toHaveLength(2);
    expect(cache.plan("s", 0, 20, 10_000, 16).map((entry) => entry.range.offsetEnd)).toEqual([10, 20]);
    expect(cache.plan("s", 45, 100, 10_000, 16)).toEqual([]);
  });

  it("drops entries at or below a raised trim offset", () => {
    const cache = new ReadResolutionCache();
    cache.addScan(head(), zero([0, 10], [10, 20], [20, 30]), []);
    cache.observeHead(head({ trimOffset: 20 }));
    expect(cache.size("s")).toBe(1);
    expect(cache.lookup("s", 5)).toBeUndefined();
    expect(cache.lookup("s", 25)?.range.offsetStart).toBe(20);
  });

  it("drops a stream that is being deleted, deleted, or is another incarnation", () => {
    for (const changed of [head({ state: "DELETING" }), head({ state: "DELETED" }), head({ createdAtMillis: 2 })]) {
      const cache = new ReadResolutionCache();
      cache.addScan(head(), zero([0, 10]), []);
      cache.observeHead(head({ state: "SEALED" }));
      expect(cache.size("s")).toBe(1);
      cache.observeHead(changed);
      expect(cache.size("s")).toBe(0);
    }
  });

  it("drops a quarantined generation, and a fresh generation page replaces the cached generations above its start", () => {
    const cache = new ReadResolutionCache();
    cache.addScan(head(), zero([0, 10], [10, 20]), [generationCandidate(0, 20)]);
    cache.dropGeneration("s", "g/20/1");
    expect(cache.lookup("s", 5)?.range.generation).toBe(0);
    cache.addScan(head(), [], [generationCandidate(0, 20, 2)], 0);
    expect(cache.lookup("s", 5)?.generationKey).toBe("g/20/2");
    // Quarantined elsewhere: the next fresh page no longer holds it.
    cache.addScan(head(), [], [], 0);
    expect(cache.lookup("s", 5)?.range.generation).toBe(0);
  });

  it("merges overlapping pages in order: a re-scanned entry is replaced (fresh age), never duplicated", () => {
    let now = 0;
    const cache = new ReadResolutionCache({ maxAgeMs: 100, now: () => now });
    cache.addScan(head(), zero([0, 10], [20, 30], [40, 50]), [generationCandidate(0, 30)]);
    now = 60;
    // Overlaps [20, 30), fills the gaps, and re-reads the generation: 6 distinct entries, sorted by end then rank.
    cache.addScan(head(), zero([10, 20], [20, 30], [30, 40]), [generationCandidate(0, 30)], 0);
    expect(cache.size("s")).toBe(6);
    expect(cache.plan("s", 0, 50, 10_000, 16).map((entry) => entry.range.offsetEnd)).toEqual([30, 40, 50]);
    now = 120;
    // Only what the second scan read is still fresh.
    expect(cache.lookup("s", 5)?.generationKey).toBe("g/30/1");
    expect(cache.lookup("s", 35)?.range.offsetStart).toBe(30);
    expect(cache.lookup("s", 45)).toBeUndefined();
    // A scan that read nothing new changes nothing.
    cache.addScan(head(), [], [], undefined);
    expect(cache.size("s")).toBe(6);
  });

  it("keeps exactly one entry per metadata key over any sequence of overlapping scans (model check)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            zeros: fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 6 }),
            generations: fc.array(
              fc.record({ end: fc.integer({ min: 1, max: 12 }), generation: fc.integer({ min: 1, max: 3 }) }),
              { maxLength: 4 },
            ),
            from: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        (scans) => {
          const cache = new ReadResolutionCache({ maxEntriesPerStream: 10_000 });
          const model = new Map<string, number>();
          for (const scan of scans) {
            const generations = scan.generations.map(({ end, generation }) =>
              generationCandidate(end - 1, end, generation),
            );
            if (scan.from !== undefined) {
              for (const [key, end] of model) if (key.startsWith("g/") && end > scan.from) model.delete(key);
            }
            for (const end of scan.zeros) model.set(`i/${String(end)}`, end);
            for (const candidate of generations) model.set(candidate.key, candidate.entry.offsetEnd);
            cache.addScan(
              head(),
              zero(...scan.zeros.map((end): [number, number] => [end - 1, end])),
              generations,
              scan.from,
            );
            expect(cache.size("s")).toBe(model.size);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("ignores entries older than maxAgeMs and keeps at most maxEntriesPerStream and maxStreams", () => {
    let now = 0;
    const cache = new ReadResolutionCache({ maxAgeMs: 100, maxEntriesPerStream: 2, maxStreams: 1, now: () => now });
    cache.addScan(head(), zero([0, 10], [10, 20], [20, 30]), []);
    expect(cache.size("s")).toBe(2);
    expect(cache.lookup("s", 5)).toBeUndefined();
    expect(cache.lookup("s", 15)).toBeDefined();
    now = 101;
    expect(cache.lookup("s", 15)).toBeUndefined();
    cache.addScan(
      head({ streamId: "t" }),
      zero([0, 10]).map((entry) => ({ ...entry, streamId: "t" })),
      [],
    );
    expect(cache.size("s")).toBe(0);
    expect(cache.size("t")).toBe(1);
  });

  it("keeps the page a scan just added when the bound is hit: older entries go first, stale ones before them", () => {
    let now = 0;
    const cache = new ReadResolutionCache({ maxAgeMs: 100, maxEntriesPerStream: 3, now: () => now });
    // A consumer read the far end first.
    cache.addScan(head(), zero([60, 70], [70, 80], [80, 90]), []);
    now = 10;
    // Another one re-reads from the start: its page must survive, the earlier entries (lowest first) make room.
    cache.addScan(head(), zero([0, 10], [10, 20]), []);
    expect(cache.size("s")).toBe(3);
    expect(cache.lookup("s", 5)).toBeDefined();
    expect(cache.lookup("s", 15)).toBeDefined();
    expect(cache.lookup("s", 65)).toBeUndefined();
    expect(cache.lookup("s", 85)).toBeDefined();
    now = 105;
    // [80, 90) is stale now and goes before [0, 10) and [10, 20), which are not.
    cache.addScan(head(), zero([20, 30]), []);
    expect(cache.size("s")).toBe(3);
    expect(cache.lookup("s", 5)).toBeDefined();
    expect(cache.lookup("s", 25)).toBeDefined();
    expect(cache.lookup("s", 85)).toBeUndefined();
  });
});

async function streamWithCommits(count: number) {
  const metadata = new InMemoryMetadataStore();
  const harness = new AppendProtocolHarness(metadata);
  const store = harness.open();
  const { streamId } = await store.createStream("cached", { profile: "OBJECT_WAL_SYNC_OBJECT" });
  for (let index = 0; index < count; index++) await store.append(streamId, opaqueBatch(`e${String(index)}`));
  return { metadata, harness, store, streamId };
}

describe("read path with the resolution cache", () => {
  it("resolves the following offsets from the cache: one head read and one generation scan per read", async () => {
    const { metadata, harness, store, streamId } = await streamWithCommits(6);
    const first = await store.read(streamId, 0, { maxRecords: 2 });
    expect(first.entries.map((entry) => text(entry.payload))).toEqual(["e0", "e1"]);
    metadata.stats.reset();
    harness.objectWal.stats.reset();
    const second = await store.read(streamId, first.nextOffset, { maxRecords: 2 });
    expect(second.entries.map((entry) => [entry.offset, text(entry.payload)])).toEqual([
      [2, "e2"],
      [3, "e3"],
    ]);
    expect({ gets: metadata.stats.gets, scans: metadata.stats.scans }).toEqual({ gets: 1, scans: 1 });
    const rest = await store.read(streamId, second.nextOffset);
    expect(rest.entries.map((entry) => text(entry.payload))).toEqual(["e4", "e5"]);
    expect(rest.endOfStream).toBe(true);
    await harness.dispose();
  });

  it("a trim is honoured by the next read even though the trimmed ranges were cached", async () => {
    const { harness, store, streamId } = await streamWithCommits(4);
    await store.read(streamId, 0);
    await store.trim(streamId, 2);
    expect((await nereusRejectionOf(store.read(streamId, 1))).code).toBe(ErrorCode.OFFSET_TRIMMED);
    expect((await store.read(streamId, 2)).entries.map((entry) => text(entry.payload))).toEqual(["e2", "e3"]);
    await harness.dispose();
  });

  it("a deleted stream is not read from cached resolutions", async () => {
    const { harness, store, streamId } = await streamWithCommits(2);
    await store.read(streamId, 0);
    await store.delete(streamId);
    const error = await nereusRejectionOf(store.read(streamId, 0));
    expect([ErrorCode.STREAM_NOT_ACTIVE, ErrorCode.STREAM_NOT_FOUND]).toContain(error.code);
    await harness.dispose();
  });

  it("a cached generation that turns out corrupt is quarantined and the read falls back to generation 0", async () => {
    const { metadata, harness, store, streamId } = await streamWithCommits(3);
    const prepared = harness.objectWal.prepare({
      streamId,
      attemptId: "generation/1",
      writerId: "materializer",
      writerEpoch: 1,
      expectedStartOffset: 0,
      payloadFormat: "OPAQUE_RECORD_BATCH",
      entries: ["e0", "e1", "e2"].map((value) => ({ payload: new TextEncoder().encode(value), recordCount: 1 })),
    });
    const generationTarget = (await harness.objectWal.persist(prepared)).readTarget;
    const key = harness.keyspace.generationIndexKey(streamId, 3, 1);
    const entry = generationCandidate(0, 3).entry;
    await metadata.txn({
      compares: [],
      writes: [
        {
          type: "put",
          key,
          value: harness.keyspace.encodeGenerationIndex({
            ...entry,
            streamId,
            readTarget: generationTarget,
            entryRecordCounts: [1, 1, 1],
            cumulativeSize: 6,
            logicalBytes: 6,
          }),
        },
      ],
    });
    expect((await store.read(streamId, 0, { maxRecords: 1 })).entries.map((item) => text(item.payload))).toEqual([
      "e0",
    ]);
    harness.objectWal.corrupt(generationTarget);
    const read = await store.read(streamId, 1);
    expect(read.entries.map((item) => text(item.payload))).toEqual(["e1", "e2"]);
    const stored = await metadata.get(key);
    expect(stored === undefined ? undefined : harness.keyspace.decodeGenerationIndex(stored).state).toBe("QUARANTINED");
    await harness.dispose();
  });

  it("a corrupt generation-0 target behind a cached resolution still fails the read, never returns wrong bytes", async () => {
    const { harness, store, streamId } = await streamWithCommits(3);
    await store.read(streamId, 0, { maxRecords: 1 });
    const [, second] = await harness.indexEntries(streamId);
    if (second === undefined) throw new Error("no index entry");
    harness.objectWal.corrupt(second.readTarget);
    const error = await nereusRejectionOf(store.read(streamId, 1));
    expect(error.code).toBe(ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH);
    await harness.dispose();
  });
});
