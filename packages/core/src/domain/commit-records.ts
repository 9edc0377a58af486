// Commit-log records: the immutable commit intent, the replay marker and the generation-0 offset index entry.
import type { PayloadFormat } from "./append-types.js";
import type { ReadTarget } from "./read-target.js";

/**
 * Immutable commit intent at `streams/{sid}/commit-log/{commitId}`. Committed iff reachable from the head chain.
 * `commitId` is deterministic for one logical append identity and physical attempt.
 */
export interface CommitIntent {
  readonly streamId: string;
  readonly commitId: string;
  /** "" for the first commit of a stream. */
  readonly previousCommitId: string;
  readonly offsetStart: number;
  readonly offsetEnd: number;
  readonly cumulativeSize: number;
  readonly commitVersion: number;
  readonly writerId: string;
  readonly writerEpoch: number;
  /** Hex SHA-256 of the session fencing token (the token itself is never persisted outside the head). */
  readonly fencingTokenHash: string;
  readonly readTarget: ReadTarget;
  readonly payloadFormat: PayloadFormat;
  readonly recordCount: number;
  readonly entryCount: number;
  readonly logicalBytes: number;
  /** Record counts of each entry in order (lets readers map entries to offsets without the WAL). */
  readonly entryRecordCounts: readonly number[];
}

/** Replay marker at `streams/{sid}/committed-appends/{commitId}`: fast path for "did attempt X commit?". */
export interface ReplayMarker {
  readonly streamId: string;
  readonly commitId: string;
  readonly offsetStart: number;
  readonly offsetEnd: number;
  readonly commitVersion: number;
}

/** Offset index entry at `streams/{sid}/offset-index/{offsetEnd19}/{generation19}` (derived, repairable). */
export interface OffsetIndexEntry {
  readonly streamId: string;
  readonly offsetStart: number;
  readonly offsetEnd: number;
  readonly generation: number;
  readonly commitId: string;
  readonly commitVersion: number;
  readonly cumulativeSize: number;
  readonly readTarget: ReadTarget;
  readonly payloadFormat: PayloadFormat;
  readonly entryRecordCounts: readonly number[];
}
