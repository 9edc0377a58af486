// The deletion proof as a table: which records a stream releases for a given trim, generations, task and owner.
import { describe, expect, it } from "vitest";
import type { CommitIntent } from "../domain/commit-records.js";
import type { GenerationIndexEntry, GenerationIndexState } from "../domain/generation-records.js";
import type { ReadTarget } from "../domain/read-target.js";
import type { StreamState } from "../domain/stream-head.js";
import { streamHeadFixture } from "../testing/stream-head-fixture.js";
import { planRelease, type OffsetRange, type ReleaseInput, type StoredRecord } from "./plan-release.js";

const slice = (objectKey: string): ReadTarget => ({
  type: "OBJECT_SLICE",
  version: 1,
  objectKey,
  objectType: "MULTI_STREAM_WAL_OBJECT",
  sliceOffset: 0,
  sliceLength: 1,
  sliceChecksum: 0,
  entryCount: 1,
});

function commit(offsetStart: number, offsetEnd: number, target = slice(`wal-${String(offsetStart)}`)) {
  const record = {
    streamId: "s-test",
    commitId: `c${String(offsetStart)}`,
    offsetStart,
    offsetEnd,
    readTarget: target,
  } as unknown as CommitIntent;
  return { key: `intent/${String(offsetStart)}`, revision: 1, record } satisfies StoredRecord<CommitIntent>;
}

function generation(offsetStart: number, offsetEnd: number, number: number, state: GenerationIndexState = "COMMITTED") {
  const record = {
    streamId: "s-test",
    offsetStart,
    offsetEnd,
    generation: number,
    state,
    readTarget: { ...slice(`gen-${String(number)}`), objectType: "STREAM_GENERATION_OBJECT" },
  } as unknown as GenerationIndexEntry;
  return { key: `gen/${String(number)}`, revision: 2, record } satisfies StoredRecord<GenerationIndexEntry>;
}

function plan(options: {
  trim?: number;
  state?: StreamState;
  commits?: StoredRecord<CommitIntent>[];
  generations?: StoredRecord<GenerationIndexEntry>[];
  busy?: OffsetRange[];
  markers?: ReleaseInput["markers"];
}) {
  return planRelease({
    head: streamHeadFixture({
      trimOffset: options.trim ?? 0,
      committedEndOffset: 100,
      state: options.state ?? "ACTIVE",
    }),
    commits: options.commits ?? [],
    markers: options.markers ?? [],
    indexEntries: [],
    generations: options.generations ?? [],
    busy: options.busy ?? [],
    handles: (target) => target.type === "OBJECT_SLICE",
  });
}

const keys = (records: ReadonlyArray<{ readonly key: string } | { readonly stored: { readonly key: string } }>) =>
  records.map((record) => ("stored" in record ? record.stored.key : record.key));

describe("planRelease", () => {
  it("trims commits wholly below the trim offset, never one that straddles it", () => {
    const result = plan({ trim: 5, commits: [commit(0, 3), commit(3, 5), commit(5, 8), commit(8, 10)] });
    expect(keys(result.trimmed)).toEqual(["intent/0", "intent/3"]);
    expect(result.retired).toEqual([]);
    expect(keys(plan({ trim: 4, commits: [commit(3, 5)] }).trimmed)).toEqual([]);
  });

  it("retires a commit above the trim only when committed generations cover it above the trim", () => {
    const commits = [commit(0, 4), commit(4, 8), commit(8, 12)];
    const covering = plan({ trim: 2, commits, generations: [generation(2, 6, 1), generation(6, 10, 2)] });
    expect(keys(covering.retired)).toEqual(["intent/0", "intent/4"]);
    expect(keys(covering.retired[1]?.coveredBy ?? [])).toEqual(["gen/1", "gen/2"]);
    // A gap, or a generation that is not COMMITTED, covers nothing.
    expect(plan({ trim: 0, commits, generations: [generation(0, 3, 1), generation(5, 12, 2)] }).retired).toHaveLength(
      1,
    );
    expect(plan({ trim: 0, commits, generations: [generation(0, 12, 1, "QUARANTINED")] }).retired).toEqual([]);
    expect(plan({ trim: 0, commits, generations: [generation(0, 12, 1, "PREPARED")] }).retired).toEqual([]);
  });

  it("releases generations below the trim, superseded by higher ones, or aborted; keeps quarantined and prepared", () => {
    const result = plan({
      trim: 4,
      generations: [
        generation(0, 4, 1),
        generation(4, 8, 2),
        generation(8, 12, 3),
        generation(4, 12, 4),
        generation(12, 16, 5, "ABORTED"),
        generation(16, 20, 6, "QUARANTINED"),
        generation(20, 24, 7, "PREPARED"),
        generation(0, 3, 8, "QUARANTINED"),
      ],
    });
    expect(keys(result.generations)).toEqual(["gen/1", "gen/2", "gen/3", "gen/5", "gen/8"]);
    // A lower generation never supersedes a higher one.
    expect(plan({ generations: [generation(0, 8, 5), generation(0, 4, 6)] }).generations).toEqual([]);
  });

  it("releases nothing a materialization task in flight uses, nor targets of another collector", () => {
    const commits = [commit(0, 4), commit(4, 8)];
    expect(keys(plan({ trim: 8, commits, busy: [{ offsetStart: 6, offsetEnd: 10 }] }).trimmed)).toEqual(["intent/0"]);
    const ledger: ReadTarget = {
      type: "BOOKKEEPER_ENTRY_RANGE",
      version: 1,
      clusterAlias: "bk",
      ledgerId: "1",
      firstEntryId: 0,
      entryCount: 1,
      rangeChecksum: 0,
    };
    expect(plan({ trim: 8, commits: [commit(0, 4, ledger)] }).trimmed).toEqual([]);
  });

  it("releases everything of a stream being deleted, whatever a task holds", () => {
    const result = plan({
      trim: 0,
      state: "DELETED",
      commits: [commit(0, 4)],
      generations: [generation(0, 4, 1, "PREPARED")],
      busy: [{ offsetStart: 0, offsetEnd: 4 }],
    });
    expect(result.floor).toBe(Number.MAX_SAFE_INTEGER);
    expect(keys(result.trimmed)).toEqual(["intent/0"]);
    expect(keys(result.generations)).toEqual(["gen/1"]);
  });

  it("deletes markers below the trim whose intent is gone", () => {
    const marker = (commitId: string, offsetEnd: number) => ({
      key: `marker/${commitId}`,
      revision: 3,
      record: { streamId: "s-test", commitId, offsetStart: 0, offsetEnd, commitVersion: 1 },
    });
    const result = plan({
      trim: 6,
      commits: [commit(4, 6)],
      markers: [marker("c4", 6), marker("lost", 2), marker("later", 9)],
    });
    expect(result.leftovers).toEqual([{ key: "marker/lost", revision: 3 }]);
  });
});
