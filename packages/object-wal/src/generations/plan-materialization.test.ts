import { type GenerationIndexEntry, type OffsetIndexEntry, type PayloadFormat } from "@nereus/core";
import { ensureGenerationZero } from "@nereus/core/internal";
import { AppendProtocolHarness, InMemoryMetadataStore, opaqueBatch } from "@nereus/core/testing";
import fc from "fast-check";
import { describe, expect, it, test } from "vitest";
import { advanceGenerationZeroIndex } from "./advance-generation-zero-index.js";
import {
  DEFAULT_MATERIALIZATION_POLICY,
  planLevelOne,
  planMerge,
  shouldDeferLevelOne,
  type MaterializationPolicy,
  type PendingLevelOne,
  type ScannedGeneration,
  type ScannedIndexEntry,
} from "./plan-materialization.js";

const policy = (overrides: Partial<MaterializationPolicy> = {}): MaterializationPolicy => ({
  ...DEFAULT_MATERIALIZATION_POLICY,
  ...overrides,
});

function gen0(
  ranges: ReadonlyArray<readonly [number, number]>,
  format: PayloadFormat = "OPAQUE_RECORD_BATCH",
  sliceLength = 100,
): ScannedIndexEntry[] {
  return ranges.map(([start, end], index) => {
    const entry: OffsetIndexEntry = {
      streamId: "s",
      offsetStart: start,
      offsetEnd: end,
      generation: 0,
      commitId: `c${String(index)}`,
      commitVersion: index + 1,
      cumulativeSize: end * 10,
      readTarget: {
        type: "OBJECT_SLICE",
        version: 1,
        objectKey: `wal/${String(index)}`,
        objectType: "MULTI_STREAM_WAL_OBJECT",
        sliceOffset: 0,
        sliceLength,
        sliceChecksum: 1,
        entryCount: end - start,
      },
      payloadFormat: format,
      entryRecordCounts: Array.from({ length: end - start }, () => 1),
    };
    return { key: `k/${String(end)}`, value: new Uint8Array([index]), entry };
  });
}

function generation(
  start: number,
  end: number,
  generationNumber: number,
  level: number,
  state: GenerationIndexEntry["state"] = "COMMITTED",
): ScannedGeneration {
  const entry: GenerationIndexEntry = {
    streamId: "s",
    offsetStart: start,
    offsetEnd: end,
    generation: generationNumber,
    level,
    state,
    publicationId: `p${String(generationNumber)}`,
    commitVersion: 1,
    cumulativeSize: end,
    logicalBytes: end - start,
    readTarget: {
      type: "OBJECT_SLICE",
      version: 1,
      objectKey: `g/${String(generationNumber)}`,
      objectType: "STREAM_GENERATION_OBJECT",
      sliceOffset: 0,
      sliceLength: 100,
      sliceChecksum: 1,
      entryCount: end - start,
    },
    payloadFormat: "OPAQUE_RECORD_BATCH",
    entryRecordCounts: Array.from({ length: end - start }, () => 1),
  };
  return { key: `g/${String(end)}/${String(generationNumber)}`, value: new Uint8Array([generationNumber]), entry };
}

describe("planLevelOne", () => {
  it("takes whole contiguous generation-0 entries from the materialized end, never splitting one", () => {
    const scanned = gen0([
      [0, 2],
      [2, 5],
      [5, 6],
      [6, 9],
    ]);
    expect(planLevelOne("s", 0, 9, scanned, policy())).toMatchObject({
      level: 1,
      sourceKind: "GENERATION_ZERO",
      offsetStart: 0,
      offsetEnd: 9,
    });
    // A start inside an entry (a trim) starts at that entry.
    expect(planLevelOne("s", 3, 9, scanned, policy())).toMatchObject({ offsetStart: 2, offsetEnd: 9 });
  });

  it("stops at a gap, a payload format change, the committed end and every size bound", () => {
    expect(
      planLevelOne(
        "s",
        0,
        9,
        gen0([
          [0, 2],
          [3, 5],
        ]),
        policy(),
      )?.offsetEnd,
    ).toBe(2);
    expect(
      planLevelOne("s", 0, 9, [...gen0([[0, 2]]), ...gen0([[2, 4]], "KAFKA_RECORD_BATCH")], policy())?.offsetEnd,
    ).toBe(2);
    expect(
      planLevelOne(
        "s",
        0,
        5,
        gen0([
          [0, 2],
          [2, 5],
          [5, 6],
        ]),
        policy(),
      )?.offsetEnd,
    ).toBe(5);
    expect(
      planLevelOne(
        "s",
        0,
        9,
        gen0([
          [0, 2],
          [2, 5],
          [5, 6],
        ]),
        policy({ maxSources: 2 }),
      )?.offsetEnd,
    ).toBe(5);
    expect(
      planLevelOne(
        "s",
        0,
        9,
        gen0([
          [0, 2],
          [2, 5],
          [5, 6],
        ]),
        policy({ maxBytes: 250 }),
      )?.offsetEnd,
    ).toBe(5);
    expect(
      planLevelOne(
        "s",
        0,
        9,
        gen0([
          [0, 2],
          [2, 5],
          [5, 6],
        ]),
        policy({ maxEntries: 4 }),
      )?.offsetEnd,
    ).toBe(2);
    // The first entry alone is always taken, even when it exceeds a bound (it cannot be split).
    expect(
      planLevelOne("s", 0, 9, gen0([[0, 2]], "OPAQUE_RECORD_BATCH", 10_000), policy({ maxBytes: 10 }))?.offsetEnd,
    ).toBe(2);
  });

  it("plans nothing when the entry at the start is not indexed yet or nothing is left", () => {
    expect(planLevelOne("s", 0, 9, gen0([[2, 5]]), policy())).toBeUndefined();
    expect(planLevelOne("s", 9, 9, gen0([[0, 9]]), policy())).toBeUndefined();
  });

  test("property: a plan is a contiguous run of whole entries starting at the entry containing the start", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 30 }),
        fc.nat({ max: 40 }),
        fc.integer({ min: 1, max: 10 }),
        (sizes, rawStart, maxSources) => {
          const ranges: Array<[number, number]> = [];
          let at = 0;
          for (const size of sizes) {
            ranges.push([at, at + size]);
            at += size;
          }
          const start = Math.min(rawStart, at - 1);
          const plan = planLevelOne("s", start, at, gen0(ranges), policy({ maxSources }));
          expect(plan).toBeDefined();
          if (plan === undefined) return;
          expect(plan.offsetStart).toBeLessThanOrEqual(start);
          expect(plan.sources.length).toBeLessThanOrEqual(maxSources);
          expect(ranges.some(([first]) => first === plan.offsetStart)).toBe(true);
          plan.sources.forEach((source, index) => {
            if (index > 0) expect(source.offsetStart).toBe(plan.sources[index - 1]?.offsetEnd);
          });
          expect(plan.sources.at(-1)?.offsetEnd).toBe(plan.offsetEnd);
        },
      ),
    );
  });

  test("the task id and source digest are deterministic and follow the exact source records", () => {
    const a = planLevelOne(
      "s",
      0,
      9,
      gen0([
        [0, 2],
        [2, 5],
      ]),
      policy(),
    );
    const b = planLevelOne(
      "s",
      0,
      9,
      gen0([
        [0, 2],
        [2, 5],
      ]),
      policy(),
    );
    expect(a?.taskId).toBe(b?.taskId);
    const changed = gen0([
      [0, 2],
      [2, 5],
    ]).map((item, index) => (index === 1 ? { ...item, value: new Uint8Array([9]) } : item));
    expect(planLevelOne("s", 0, 9, changed, policy())?.sourceDigest).not.toBe(a?.sourceDigest);
  });
});

describe("planMerge", () => {
  const merge = policy({ minMergeSources: 3, maxMergeSources: 4 });

  it("merges a run of at least minMergeSources contiguous level-1 generations into level 2", () => {
    const scanned = [
      generation(0, 2, 1, 1),
      generation(2, 4, 2, 1),
      generation(4, 6, 3, 1),
      generation(6, 8, 4, 1),
      generation(8, 9, 5, 1),
    ];
    expect(planMerge("s", 0, scanned, merge)).toMatchObject({
      level: 2,
      sourceKind: "GENERATION",
      offsetStart: 0,
      offsetEnd: 8,
    });
    expect(planMerge("s", 8, scanned, merge)).toBeUndefined();
  });

  it("skips shadowed and non-committed generations, stops at maxLevel, and needs enough sources", () => {
    const shadowed = [generation(0, 2, 1, 1), generation(2, 4, 2, 1), generation(4, 6, 3, 1), generation(0, 6, 4, 2)];
    expect(planMerge("s", 0, shadowed, merge)).toBeUndefined();
    const quarantined = [
      generation(0, 2, 1, 1),
      generation(2, 4, 2, 1, "QUARANTINED"),
      generation(4, 6, 3, 1),
      generation(6, 8, 5, 1),
    ];
    expect(planMerge("s", 0, quarantined, merge)).toBeUndefined();
    const levelTwo = [generation(0, 2, 1, 2), generation(2, 4, 2, 2), generation(4, 6, 3, 2)];
    expect(planMerge("s", 0, levelTwo, merge)).toBeUndefined();
    expect(planMerge("s", 0, levelTwo, policy({ minMergeSources: 3, maxLevel: 3 }))).toMatchObject({
      level: 3,
      offsetEnd: 6,
    });
    expect(
      planMerge(
        "s",
        0,
        [generation(0, 2, 1, 1), generation(2, 4, 2, 1), generation(4, 6, 3, 1)],
        policy({ maxLevel: 1 }),
      ),
    ).toBeUndefined();
  });

  it("finds a later run when an earlier one is too short", () => {
    const scanned = [generation(0, 2, 1, 1), generation(3, 4, 2, 1), generation(4, 5, 3, 1), generation(5, 6, 4, 1)];
    expect(planMerge("s", 0, scanned, merge)).toMatchObject({ offsetStart: 3, offsetEnd: 6 });
  });
});

describe("advanceGenerationZeroIndex", () => {
  it("closes gaps anywhere below the committed end, in budget-sized repair steps", async () => {
    const metadata = new InMemoryMetadataStore();
    const harness = new AppendProtocolHarness(metadata);
    const store = harness.open();
    const { streamId } = await store.createStream("gaps", { profile: "BOOKKEEPER_WAL_ONLY" });
    for (let index = 0; index < 10; index++) await store.append(streamId, opaqueBatch(`e${String(index)}`));
    const commits = await harness.reachableCommits(streamId);
    // Index commits ending at 3, 4 and 8 only (gaps below, between and above them).
    await ensureGenerationZero(
      metadata,
      harness.keyspace,
      commits.filter((intent) => [3, 4, 8].includes(intent.offsetEnd)),
    );
    const head = await harness.head(streamId);
    const result = await advanceGenerationZeroIndex({
      metadata,
      keyspace: harness.keyspace,
      head,
      from: 0,
      repairBudget: 2,
    });
    expect(result.indexedEnd).toBe(10);
    expect((await harness.indexEntries(streamId)).map((entry) => entry.offsetEnd)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    const again = await advanceGenerationZeroIndex({
      metadata,
      keyspace: harness.keyspace,
      head,
      from: 0,
      repairBudget: 2,
    });
    expect(again).toEqual({ indexedEnd: 10, repairedGaps: 0 });
    await harness.dispose();
  });
});

describe("shouldDeferLevelOne", () => {
  const small: PendingLevelOne = { profile: "OBJECT_WAL_SYNC_OBJECT", records: 10, bytes: 1024, waitedMs: 0 };
  const defaults = policy({ minLevelOneBytes: 4096, maxLevelOneDelayMs: 1000 });

  it("defers a small, fresh increment; not once it reached the byte threshold or waited the delay", () => {
    expect(shouldDeferLevelOne(small, defaults)).toBe(true);
    expect(shouldDeferLevelOne({ ...small, bytes: 4096 }, defaults)).toBe(false);
    expect(shouldDeferLevelOne({ ...small, waitedMs: 999 }, defaults)).toBe(true);
    expect(shouldDeferLevelOne({ ...small, waitedMs: 1000 }, defaults)).toBe(false);
    expect(shouldDeferLevelOne({ ...small, records: 0, bytes: 0 }, defaults)).toBe(false);
    // 0 disables deferral; the threshold never exceeds what one task may hold.
    expect(shouldDeferLevelOne(small, policy({ minLevelOneBytes: 0 }))).toBe(false);
    expect(shouldDeferLevelOne({ ...small, bytes: 2048 }, policy({ minLevelOneBytes: 1 << 30, maxBytes: 2048 }))).toBe(
      false,
    );
  });

  it("while busy: waits for busyLevelOneBytes or busyLevelOneDelayMs instead (when set)", () => {
    const busyPolicy = policy({
      minLevelOneBytes: 4096,
      maxLevelOneDelayMs: 1000,
      busyLevelOneBytes: 1 << 20,
      busyLevelOneDelayMs: 60_000,
    });
    const busy: PendingLevelOne = { ...small, bytes: 8192, waitedMs: 5000, busy: true };
    expect(shouldDeferLevelOne(busy, busyPolicy)).toBe(true);
    expect(shouldDeferLevelOne({ ...busy, busy: false }, busyPolicy)).toBe(false);
    expect(shouldDeferLevelOne({ ...busy, bytes: 1 << 20 }, busyPolicy)).toBe(false);
    expect(shouldDeferLevelOne({ ...busy, waitedMs: 60_000 }, busyPolicy)).toBe(false);
    // Unset (0): busy changes nothing.
    expect(shouldDeferLevelOne(busy, policy({ minLevelOneBytes: 4096, maxLevelOneDelayMs: 1000 }))).toBe(false);
    // Still never for a profile whose appends wait, nor past half an async lag bound.
    expect(shouldDeferLevelOne({ ...busy, profile: "BOOKKEEPER_WAL_SYNC_OBJECT" }, busyPolicy)).toBe(false);
    expect(
      shouldDeferLevelOne({ ...busy, profile: "OBJECT_WAL_ASYNC_OBJECT" }, busyPolicy, { maxRecords: 20, maxBytes: 0 }),
    ).toBe(false);
  });

  it("never defers a profile whose appends wait for the generation", () => {
    expect(shouldDeferLevelOne({ ...small, profile: "BOOKKEEPER_WAL_SYNC_OBJECT" }, defaults)).toBe(false);
    expect(shouldDeferLevelOne({ ...small, profile: "BOOKKEEPER_WAL_ASYNC_OBJECT" }, defaults)).toBe(true);
  });

  it("never lets an async stream's pending part reach half of its lag bound", () => {
    const asyncSmall: PendingLevelOne = { ...small, profile: "OBJECT_WAL_ASYNC_OBJECT" };
    expect(shouldDeferLevelOne(asyncSmall, defaults, { maxRecords: 21, maxBytes: 0 })).toBe(true);
    expect(shouldDeferLevelOne(asyncSmall, defaults, { maxRecords: 20, maxBytes: 0 })).toBe(false);
    expect(shouldDeferLevelOne(asyncSmall, defaults, { maxRecords: 0, maxBytes: 2048 })).toBe(false);
    // The bound is about async profiles' admission: a sync stream is not lag-limited.
    expect(shouldDeferLevelOne(small, defaults, { maxRecords: 20, maxBytes: 2048 })).toBe(true);
  });

  test("property: a deferred increment is always below the threshold, younger than the delay, within half the bound", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          "OBJECT_WAL_SYNC_OBJECT",
          "OBJECT_WAL_ASYNC_OBJECT",
          "BOOKKEEPER_WAL_ASYNC_OBJECT",
          "BOOKKEEPER_WAL_SYNC_OBJECT" as const,
        ),
        fc.nat(10_000),
        fc.nat(1 << 24),
        fc.nat(5_000),
        fc.nat(1 << 24),
        fc.nat(5_000),
        fc.nat(20_000),
        fc.nat(1 << 25),
        (profile, records, bytes, waitedMs, minLevelOneBytes, maxLevelOneDelayMs, maxRecords, maxBytes) => {
          const chosen = policy({ minLevelOneBytes, maxLevelOneDelayMs });
          if (!shouldDeferLevelOne({ profile, records, bytes, waitedMs }, chosen, { maxRecords, maxBytes })) return;
          expect(profile).not.toBe("BOOKKEEPER_WAL_SYNC_OBJECT");
          expect(records).toBeGreaterThan(0);
          expect(bytes).toBeLessThan(Math.min(minLevelOneBytes, chosen.maxBytes));
          expect(waitedMs).toBeLessThan(maxLevelOneDelayMs);
          if (profile.endsWith("ASYNC_OBJECT")) {
            if (maxRecords > 0) expect(records * 2).toBeLessThan(maxRecords);
            if (maxBytes > 0) expect(bytes * 2).toBeLessThan(maxBytes);
          }
        },
      ),
    );
  });
});
