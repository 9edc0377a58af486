// Pure planning of the next materialization task of a stream (docs/architecture.md §6.1):
// - Level 1: the longest run of whole generation-0 index entries starting at the materialized end (never split an
//   entry), contiguous, of one payload format, within the size bounds.
// - Merge (level n + 1): a run of at least `minSources` contiguous, unshadowed level-n generations of one payload
//   format, within the size bounds, at or after `mergedEnd`. Levels stop at `maxLevel`, so planning reaches a
//   fixed point (no endless re-compaction).
// - Deferral (background passes only): a level-1 task over a small increment waits until more bytes are pending
//   or the pending data has waited long enough, so output objects are few and large; never for a profile whose
//   appends wait for the generation, never past half an async lag bound.
// Sources are named by their exact index records; the task id and source digest derive from them, so a retried
// plan over the same sources is the same task.
import {
  type GenerationIndexEntry,
  type OffsetIndexEntry,
  type PayloadFormat,
  type ReadTarget,
  type StorageProfile,
  type StorageProfileTraits,
} from "@nereus/core";
import { STORAGE_PROFILE_TRAITS, base32LowerNoPad, sha256, sha256Hex } from "@nereus/core/internal";
import type { MaterializationSourceKind } from "./materialization-records.js";

const encoder = new TextEncoder();

/** Bounds of the materializer (sized for per-object reads). */
export interface MaterializationPolicy {
  /** Most source ranges in one task (default 256). */
  readonly maxSources: number;
  /** Most estimated payload bytes in one output object (default 8 MiB). */
  readonly maxBytes: number;
  /** Most records in one output (default 1,048,576). */
  readonly maxRecords: number;
  /**
   * Most entries in one output (default 4,096): bounds the generation index record, whose per-entry record counts
   * every resolve scan reads.
   */
  readonly maxEntries: number;
  /** Level-n generations merged at once, at least (default 4) and at most (default 16). */
  readonly minMergeSources: number;
  readonly maxMergeSources: number;
  /** Highest level produced (1 disables merging; default 2). */
  readonly maxLevel: number;
  /**
   * Background passes defer a level-1 task while fewer payload bytes than this are pending past the materialized
   * end (default 4 MiB; capped at `maxBytes`; 0 never defers), unless the pending data has waited
   * `maxLevelOneDelayMs` (default 1,000 ms). Explicit passes (`runOnce`, `runStream`) never defer.
   */
  readonly minLevelOneBytes: number;
  readonly maxLevelOneDelayMs: number;
  /**
   * While the foreground is busy (the worker's `foregroundBusy` says so), background passes defer level-1 tasks
   * until this many payload bytes are pending (default 0: busy or not changes nothing), unless the pending data has
   * waited `busyLevelOneDelayMs` (default 60,000 ms), and start no merges: materialization competes with appends and
   * reads for the same CPU and disk, so under load it waits, with a bounded backlog, for a quieter moment.
   */
  readonly busyLevelOneBytes: number;
  readonly busyLevelOneDelayMs: number;
}

export const DEFAULT_MATERIALIZATION_POLICY: MaterializationPolicy = Object.freeze({
  maxSources: 256,
  maxBytes: 8 * 1024 * 1024,
  maxRecords: 1_048_576,
  maxEntries: 4096,
  minMergeSources: 4,
  maxMergeSources: 16,
  maxLevel: 2,
  minLevelOneBytes: 4 * 1024 * 1024,
  maxLevelOneDelayMs: 1000,
  busyLevelOneBytes: 0,
  busyLevelOneDelayMs: 60_000,
});

/** One source range with its exact index record. */
export interface MaterializationSource {
  readonly key: string;
  readonly value: Uint8Array;
  readonly offsetStart: number;
  readonly offsetEnd: number;
  readonly readTarget: ReadTarget;
  readonly entryRecordCounts: readonly number[];
  readonly payloadFormat: PayloadFormat;
  readonly commitVersion: number;
  readonly cumulativeSize: number;
}

/** The source that the index entry `entry` (stored at `key` as `value`) names: its range, target and totals. */
export function materializationSource(
  key: string,
  value: Uint8Array,
  entry: Omit<MaterializationSource, "key" | "value">,
): MaterializationSource {
  return {
    key,
    value,
    offsetStart: entry.offsetStart,
    offsetEnd: entry.offsetEnd,
    readTarget: entry.readTarget,
    entryRecordCounts: entry.entryRecordCounts,
    payloadFormat: entry.payloadFormat,
    commitVersion: entry.commitVersion,
    cumulativeSize: entry.cumulativeSize,
  };
}

export interface MaterializationPlan {
  readonly taskId: string;
  readonly level: number;
  readonly sourceKind: MaterializationSourceKind;
  readonly offsetStart: number;
  readonly offsetEnd: number;
  readonly sources: readonly MaterializationSource[];
  readonly sourceDigest: string;
}

/** A generation-0 index entry as scanned. */
export interface ScannedIndexEntry {
  readonly key: string;
  readonly value: Uint8Array;
  readonly entry: OffsetIndexEntry;
}

/** A generation index entry as scanned. */
export interface ScannedGeneration {
  readonly key: string;
  readonly value: Uint8Array;
  readonly entry: GenerationIndexEntry;
}

/** Hex SHA-256 over the sources' exact records (key ‖ 0 ‖ value, in order). */
export function sourceDigest(sources: readonly Pick<MaterializationSource, "key" | "value">[]): string {
  const parts: Uint8Array[] = [];
  for (const source of sources) parts.push(encoder.encode(`${source.key}\0`), source.value);
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return sha256Hex(bytes);
}

/** Deterministic task id of (stream, level, range, sources). */
function materializationTaskId(
  streamId: string,
  level: number,
  offsetStart: number,
  offsetEnd: number,
  digest: string,
): string {
  return `mt1-${base32LowerNoPad(sha256(encoder.encode(`nereus-materialization-v1\0${streamId}\0${String(level)}\0${String(offsetStart)}\0${String(offsetEnd)}\0${digest}`)))}`;
}

/**
 * Estimated payload bytes of a run: a WAL slice's length; for targets that do not carry a length (BookKeeper entry
 * ranges) the stream's cumulative-size growth from the previous source of the run (the first such source counts 0,
 * so a run may exceed `maxBytes` by at most one source; `maxEntries` still bounds it).
 */
export function estimatedRunBytes(
  run: readonly Pick<MaterializationSource, "readTarget" | "cumulativeSize">[],
): number {
  let bytes = 0;
  for (const [index, source] of run.entries()) {
    const previous = run[index - 1];
    if (source.readTarget.type === "OBJECT_SLICE") bytes += source.readTarget.sliceLength;
    else if (previous !== undefined) bytes += Math.max(0, source.cumulativeSize - previous.cumulativeSize);
  }
  return bytes;
}

function plan(
  streamId: string,
  level: number,
  sourceKind: MaterializationSourceKind,
  sources: readonly MaterializationSource[],
): MaterializationPlan | undefined {
  const first = sources[0];
  const last = sources.at(-1);
  if (first === undefined || last === undefined) return undefined;
  const digest = sourceDigest(sources);
  return {
    taskId: materializationTaskId(streamId, level, first.offsetStart, last.offsetEnd, digest),
    level,
    sourceKind,
    offsetStart: first.offsetStart,
    offsetEnd: last.offsetEnd,
    sources,
    sourceDigest: digest,
  };
}

/** Adds `source` to `taken` if it continues the run and fits the bounds. */
function fits(
  taken: readonly MaterializationSource[],
  source: MaterializationSource,
  policy: MaterializationPolicy,
  maxSources: number,
): boolean {
  const last = taken.at(-1);
  if (last === undefined) return true;
  if (
    source.offsetStart !== last.offsetEnd ||
    source.payloadFormat !== last.payloadFormat ||
    taken.length >= maxSources
  )
    return false;
  const records = source.offsetEnd - (taken[0]?.offsetStart ?? 0);
  const entries = taken.reduce((sum, item) => sum + item.entryRecordCounts.length, source.entryRecordCounts.length);
  const bytes = estimatedRunBytes([...taken, source]);
  return records <= policy.maxRecords && entries <= policy.maxEntries && bytes <= policy.maxBytes;
}

/**
 * The level-1 task starting at `start` (the materialized end, or the trim offset when higher): generation-0
 * entries from the first one containing `start`, contiguous, up to `committedEnd`. Undefined when the entry at
 * `start` is not indexed yet or nothing is left.
 */
export function planLevelOne(
  streamId: string,
  start: number,
  committedEnd: number,
  scanned: readonly ScannedIndexEntry[],
  policy: MaterializationPolicy,
): MaterializationPlan | undefined {
  const taken: MaterializationSource[] = [];
  for (const { key, value, entry } of scanned) {
    if (entry.generation !== 0 || entry.offsetEnd <= start || entry.offsetEnd > committedEnd) continue;
    if (taken.length === 0 && entry.offsetStart > start) return undefined;
    const source = materializationSource(key, value, entry);
    if (!fits(taken, source, policy, policy.maxSources)) break;
    taken.push(source);
  }
  return plan(streamId, 1, "GENERATION_ZERO", taken);
}

/**
 * The next merge at or after `mergedEnd`: the first run of >= minMergeSources contiguous, unshadowed COMMITTED
 * generations of one level (< maxLevel) and payload format. `scanned` holds the generation index from `mergedEnd`
 * on, in key order; shadowed entries (a higher generation of a higher level covers them) are skipped.
 */
export function planMerge(
  streamId: string,
  mergedEnd: number,
  scanned: readonly ScannedGeneration[],
  policy: MaterializationPolicy,
): MaterializationPlan | undefined {
  if (policy.maxLevel < 2) return undefined;
  const committed = scanned.filter((item) => item.entry.state === "COMMITTED" && item.entry.offsetStart >= mergedEnd);
  const visible = committed
    .filter(
      (item) =>
        !committed.some(
          (other) =>
            other.entry.generation > item.entry.generation &&
            other.entry.level > item.entry.level &&
            other.entry.offsetStart <= item.entry.offsetStart &&
            other.entry.offsetEnd >= item.entry.offsetEnd,
        ),
    )
    .sort((a, b) => a.entry.offsetStart - b.entry.offsetStart || b.entry.generation - a.entry.generation);
  let run: MaterializationSource[] = [];
  let runLevel = 0;
  const flush = (): MaterializationPlan | undefined =>
    run.length >= policy.minMergeSources ? plan(streamId, runLevel + 1, "GENERATION", run) : undefined;
  for (const { key, value, entry } of visible) {
    const source = materializationSource(key, value, entry);
    const mergeable = entry.level < policy.maxLevel;
    if (
      mergeable &&
      (run.length === 0 || (entry.level === runLevel && fits(run, source, policy, policy.maxMergeSources)))
    ) {
      if (run.length === 0) runLevel = entry.level;
      run.push(source);
      continue;
    }
    const planned = flush();
    if (planned !== undefined) return planned;
    run = mergeable ? [source] : [];
    runLevel = entry.level;
  }
  return flush();
}

/** What a background pass knows about a stream's pending (not yet materialized) range. */
export interface PendingLevelOne {
  readonly profile: StorageProfile;
  /** Records and payload bytes past the materialized end (or the trim offset). */
  readonly records: number;
  readonly bytes: number;
  /** How long the pending data has waited (as far as this worker has seen it). */
  readonly waitedMs: number;
  /** The foreground is busy (policy `busyLevelOneBytes` / `busyLevelOneDelayMs` apply). */
  readonly busy?: boolean;
}

/**
 * True when a background pass should leave the stream's level-1 task for later: the increment is below
 * `minLevelOneBytes` and has waited less than `maxLevelOneDelayMs` (while `busy`: below `busyLevelOneBytes`, waited
 * less than `busyLevelOneDelayMs`). Never for a profile whose appends complete on
 * the generation (they wait for it), never when the pending part reaches half of `lagBound` in either dimension
 * (an async stream must not be rejected for a lag the worker chose), never when nothing is pending.
 */
export function shouldDeferLevelOne(
  pending: PendingLevelOne,
  policy: MaterializationPolicy,
  lagBound: { readonly maxRecords: number; readonly maxBytes: number } = { maxRecords: 0, maxBytes: 0 },
): boolean {
  const traits = STORAGE_PROFILE_TRAITS[pending.profile] as StorageProfileTraits | undefined;
  if (pending.records <= 0 || traits === undefined || traits.syncObjectMaterialization) return false;
  const busy = pending.busy === true && policy.busyLevelOneBytes > 0;
  const minBytes = busy
    ? Math.max(policy.busyLevelOneBytes, policy.minLevelOneBytes)
    : Math.min(policy.minLevelOneBytes, policy.maxBytes);
  const maxDelayMs = busy ? Math.max(policy.busyLevelOneDelayMs, policy.maxLevelOneDelayMs) : policy.maxLevelOneDelayMs;
  if (pending.bytes >= minBytes || pending.waitedMs >= maxDelayMs) return false;
  if (traits.asyncObjectMaterialization) {
    if (lagBound.maxRecords > 0 && pending.records * 2 >= lagBound.maxRecords) return false;
    if (lagBound.maxBytes > 0 && pending.bytes * 2 >= lagBound.maxBytes) return false;
  }
  return true;
}
