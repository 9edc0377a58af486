// The deletion proof of one stream, as a pure function (packages/core/README.md, "Storage reclamation"): from the
// stream's head, its stored commit intents, replay markers, generation-0 index entries and generation index
// entries, which records nothing readable needs any more and which physical targets the stream stops relying on.
// - A commit wholly below the release floor (the trim offset; the committed end plus everything for a DELETING or
//   DELETED stream) is TRIMMED: its intent, marker and generation-0 entry go, and its target is released.
// - A commit above the floor whose part at or above the floor is covered by COMMITTED generations is RETIRED: its
//   target is released (reads pick the generation), its records stay (they are the chain and the index).
// - A generation entry wholly below the floor, ABORTED, or COMMITTED and covered above the floor by COMMITTED
//   entries of higher generations is RELEASED: the entry goes and its target is released. PREPARED entries (a task
//   still owns them) and QUARANTINED entries above the floor (kept as evidence) stay.
// - Markers and generation-0 entries below the floor whose intent is already gone are LEFTOVERS (a repair that
//   raced an earlier collection rewrote them): they go.
// Nothing overlapping a busy range (a materialization task in flight reads it) is released while the stream is
// readable (once it is being deleted no read needs anything and a task cannot publish), and only targets the caller
// handles (`handles`) are released — a commit whose target belongs to another collector keeps all its records.
import type { CommitIntent, OffsetIndexEntry, ReplayMarker } from "../domain/commit-records.js";
import type { GenerationIndexEntry } from "../domain/generation-records.js";
import type { ReadTarget } from "../domain/read-target.js";
import type { StreamHead } from "../domain/stream-head.js";

/** A record as stored: its key, the revision it was read at, the decoded value. */
export interface StoredRecord<T> {
  readonly key: string;
  readonly revision: number;
  readonly record: T;
}

/** A half-open offset range. */
export interface OffsetRange {
  readonly offsetStart: number;
  readonly offsetEnd: number;
}

/** Everything the proof looks at, read from one stream. */
export interface ReleaseInput {
  readonly head: StreamHead;
  readonly commits: readonly StoredRecord<CommitIntent>[];
  readonly markers: readonly StoredRecord<ReplayMarker>[];
  /** Generation-0 index entries ending at or below the floor (the others are not needed). */
  readonly indexEntries: readonly StoredRecord<OffsetIndexEntry>[];
  readonly generations: readonly StoredRecord<GenerationIndexEntry>[];
  /** Ranges a materialization task in flight reads or writes (nothing overlapping them is released). */
  readonly busy: readonly OffsetRange[];
  /** Whether the caller's collector owns the physical thing behind `target`. */
  readonly handles: (target: ReadTarget) => boolean;
}

/** A released record and the COMMITTED generation entries that made it unnecessary (empty when trimmed). */
export interface Released<T> {
  readonly stored: StoredRecord<T>;
  readonly coveredBy: readonly StoredRecord<GenerationIndexEntry>[];
}

export interface ReleasePlan {
  /** Offsets below this are released. */
  readonly floor: number;
  readonly trimmed: readonly StoredRecord<CommitIntent>[];
  readonly retired: readonly Released<CommitIntent>[];
  readonly generations: readonly Released<GenerationIndexEntry>[];
  /** Keys (with revisions) of leftover markers and generation-0 entries. */
  readonly leftovers: readonly { readonly key: string; readonly revision: number }[];
}

/** The release floor of `head`: its trim offset, or beyond every offset once the stream is being deleted. */
export function releaseFloor(head: StreamHead): number {
  return head.state === "DELETING" || head.state === "DELETED" ? Number.MAX_SAFE_INTEGER : head.trimOffset;
}

/** Plans what `input`'s stream releases (see the module comment for the rules). */
export function planRelease(input: ReleaseInput): ReleasePlan {
  const floor = releaseFloor(input.head);
  const deleting = input.head.state === "DELETING" || input.head.state === "DELETED";
  const free = (range: OffsetRange): boolean => deleting || !input.busy.some((busy) => overlaps(busy, range));
  const committed = input.generations
    .filter((stored) => stored.record.state === "COMMITTED")
    .sort((a, b) => a.record.offsetStart - b.record.offsetStart);
  const trimmed: StoredRecord<CommitIntent>[] = [];
  const retired: Released<CommitIntent>[] = [];
  for (const stored of input.commits) {
    const intent = stored.record;
    if (!input.handles(intent.readTarget) || !free(intent)) continue;
    if (intent.offsetEnd <= floor) {
      trimmed.push(stored);
      continue;
    }
    const cover = coverOf(committed, Math.max(intent.offsetStart, floor), intent.offsetEnd, 0);
    if (cover !== undefined) retired.push({ stored, coveredBy: cover });
  }
  const generations: Released<GenerationIndexEntry>[] = [];
  for (const stored of input.generations) {
    const entry = stored.record;
    if (!input.handles(entry.readTarget) || !free(entry)) continue;
    if (entry.offsetEnd <= floor) {
      if (entry.state !== "PREPARED" || deleting) generations.push({ stored, coveredBy: [] });
      continue;
    }
    if (entry.state === "ABORTED") {
      generations.push({ stored, coveredBy: [] });
      continue;
    }
    if (entry.state !== "COMMITTED") continue;
    const cover = coverOf(committed, Math.max(entry.offsetStart, floor), entry.offsetEnd, entry.generation);
    if (cover !== undefined) generations.push({ stored, coveredBy: cover });
  }
  return { floor, trimmed, retired, generations, leftovers: leftoversOf(input, floor) };
}

/**
 * The COMMITTED entries above `minGeneration` whose union covers `[from, to)` (sorted by start), or undefined when
 * some offset of it is not covered. An empty range needs no cover.
 */
function coverOf(
  committed: readonly StoredRecord<GenerationIndexEntry>[],
  from: number,
  to: number,
  minGeneration: number,
): StoredRecord<GenerationIndexEntry>[] | undefined {
  const used: StoredRecord<GenerationIndexEntry>[] = [];
  let reached = from;
  for (const stored of committed) {
    if (reached >= to) break;
    const entry = stored.record;
    if (entry.generation <= minGeneration || entry.offsetEnd <= reached || entry.offsetStart > reached) continue;
    used.push(stored);
    reached = entry.offsetEnd;
  }
  return reached >= to ? used : undefined;
}

function leftoversOf(input: ReleaseInput, floor: number): { key: string; revision: number }[] {
  const commitIds = new Set(input.commits.map((stored) => stored.record.commitId));
  const leftovers: { key: string; revision: number }[] = [];
  for (const stored of input.markers) {
    if (stored.record.offsetEnd <= floor && !commitIds.has(stored.record.commitId))
      leftovers.push({ key: stored.key, revision: stored.revision });
  }
  for (const stored of input.indexEntries) {
    if (stored.record.offsetEnd <= floor && !commitIds.has(stored.record.commitId))
      leftovers.push({ key: stored.key, revision: stored.revision });
  }
  return leftovers;
}

function overlaps(a: OffsetRange, b: OffsetRange): boolean {
  return a.offsetStart < b.offsetEnd && b.offsetStart < a.offsetEnd;
}
