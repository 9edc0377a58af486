// Higher generations of the COMMITTED view (docs/architecture.md §1, §6.1): read-optimized replacement targets of committed
// ranges, published by CAS through generation index entries whose lifecycle is PREPARED → COMMITTED (only
// COMMITTED entries are ever read), COMMITTED → QUARANTINED when a reader proves the target corrupt, PREPARED →
// ABORTED when a publication is abandoned. A generation changes where bytes are read from, never offsets, entry
// boundaries or bytes; AppendResult keeps naming generation 0.
import type { PayloadFormat } from "./append-types.js";
import type { ReadTarget } from "./read-target.js";

export type GenerationIndexState = "PREPARED" | "COMMITTED" | "QUARANTINED" | "ABORTED";

/**
 * Generation index entry at `streams/{sid}/generation-index/{offsetEnd19}/{generation19}`. Invariants: the range
 * is exactly covered by `entryRecordCounts` and was committed when published; `generation` is allocated from a
 * per-stream monotone counter (never reused, gaps allowed), so among entries covering an offset the highest
 * generation is the most recent publication.
 */
export interface GenerationIndexEntry {
  readonly streamId: string;
  readonly offsetStart: number;
  readonly offsetEnd: number;
  /** >= 1. */
  readonly generation: number;
  /** 1 = built from generation-0 targets; n + 1 = merged from level-n generations. */
  readonly level: number;
  readonly state: GenerationIndexState;
  /** Identity of the publication that wrote the entry (a reload after a lost response compares it). */
  readonly publicationId: string;
  /** Commit version of the last commit the range covers (>= 1). */
  readonly commitVersion: number;
  /** Cumulative logical size of the stream at `offsetEnd`. */
  readonly cumulativeSize: number;
  /** Payload bytes of the range. */
  readonly logicalBytes: number;
  readonly readTarget: ReadTarget;
  readonly payloadFormat: PayloadFormat;
  readonly entryRecordCounts: readonly number[];
}
