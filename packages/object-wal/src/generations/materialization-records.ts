// Durable materialization records (docs/architecture.md §6.1; simplified to one task at a time per stream):
// - StreamRegistration: a stream whose committed ranges background workers must look after (gen-0 index repair,
//   higher generations). Written before the stream's first append by this runtime; immutable.
// - StreamMaterialization: per stream, the authoritative materialized coverage (updated in the same transaction
//   that publishes a generation), the monotone generation counter, a gen-0 index progress hint, and the current
//   task with its fenced claim. Its revision is the fence: every task transition is a CAS on it, so a worker
//   whose claim was taken over can no longer prepare or publish anything.
import { type ReadTarget, type StorageProfile } from "@nereus/core";
import { WireEnum } from "@nereus/core/internal";

export interface StreamRegistration {
  readonly streamId: string;
  /** Canonical profile at registration (immutable, like the stream's). */
  readonly profile: StorageProfile;
  readonly registeredAtMillis: number;
}

/** Task lifecycle: CLAIMED → PREPARED → PUBLISHED, or → ABANDONED (a later task re-plans). */
export type MaterializationTaskState = "CLAIMED" | "PREPARED" | "PUBLISHED" | "ABANDONED";

/** What a task's sources are: generation-0 index entries (level 1) or committed generation entries (merges). */
export type MaterializationSourceKind = "GENERATION_ZERO" | "GENERATION";

interface MaterializationClaim {
  readonly workerId: string;
  /** Random per claim; the output object key contains it, so two claims never share an object. */
  readonly token: string;
  readonly expiresAtMillis: number;
}

export interface MaterializationTask {
  /** Deterministic from (stream, level, range, source digest). */
  readonly taskId: string;
  readonly state: MaterializationTaskState;
  /** Level of the output generation (1 from generation 0; n + 1 from level n). */
  readonly level: number;
  readonly offsetStart: number;
  readonly offsetEnd: number;
  readonly sourceKind: MaterializationSourceKind;
  readonly sourceCount: number;
  /** Hex SHA-256 over the exact source index records (key and bytes, in order). */
  readonly sourceDigest: string;
  /** Claims so far (the first claim is 1). */
  readonly attempt: number;
  /** Present while CLAIMED or PREPARED. */
  readonly claim: MaterializationClaim | undefined;
  /** Allocated when PREPARED (0 before). */
  readonly generation: number;
  /** The uploaded, verified output (present from PREPARED on). */
  readonly output: ReadTarget | undefined;
}

export interface StreamMaterialization {
  readonly streamId: string;
  /** Every commit ending at or below this offset has its generation-0 index entry (a progress hint). */
  readonly generationZeroIndexedEnd: number;
  /** Committed higher generations cover the stream contiguously up to here (from the trim offset). */
  readonly materializedEnd: number;
  /** Cumulative logical size at `materializedEnd`. */
  readonly materializedCumulativeSize: number;
  /** Merges have been planned up to here (level-1 outputs below it are merged or skipped). */
  readonly mergedEnd: number;
  /** Next generation number to allocate (>= 1; never reused). */
  readonly nextGeneration: number;
  readonly task: MaterializationTask | undefined;
}

/** Durable wire ids. Never renumber. */
export const MaterializationWireIds = {
  taskState: new WireEnum<MaterializationTaskState>("MaterializationTaskState", [
    ["CLAIMED", 1],
    ["PREPARED", 2],
    ["PUBLISHED", 3],
    ["ABANDONED", 4],
  ]),
  sourceKind: new WireEnum<MaterializationSourceKind>("MaterializationSourceKind", [
    ["GENERATION_ZERO", 1],
    ["GENERATION", 2],
  ]),
} as const;

/** The record of a stream nothing has materialized yet. */
export function emptyMaterialization(streamId: string): StreamMaterialization {
  return {
    streamId,
    generationZeroIndexedEnd: 0,
    materializedEnd: 0,
    materializedCumulativeSize: 0,
    mergedEnd: 0,
    nextGeneration: 1,
    task: undefined,
  };
}
