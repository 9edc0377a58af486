// The options of a cursor handle and of its durable mutations.
import type { BatchBits } from "../ack-state/batch-bits.js";
import type { SkipOptions } from "../ack-state/skip-entries.js";
import type { CommittedEnd } from "../store/committed-end.js";
import type { CursorCounters } from "./cursor-counters.js";

/** Options every durable mutation takes. */
export interface MutationOptions {
  readonly signal?: AbortSignal;
}

export interface CumulativeAckOptions extends MutationOptions {
  /** Batch indexes of `offset` acknowledged (the entry itself stays the mark-delete position until all are). */
  readonly partial?: BatchBits;
  /** Replaces the position properties when the ack moves (or restates) the mark-delete position. */
  readonly positionProperties?: ReadonlyMap<string, bigint>;
}

export interface SkipCallOptions extends MutationOptions, Partial<Pick<SkipOptions, "countIndividuallyAcked">> {
  /** End of the committed entries: the skip never moves markDelete beyond it. */
  readonly committedEnd: number;
}

export interface ResetOptions extends MutationOptions {
  /** Batch indexes of the target entry acknowledged after the reset. */
  readonly partial?: BatchBits;
}

export interface CursorHandleOptions {
  /** Counters to add to (shared by a store's handles); default a fresh instance per handle. */
  readonly counters?: CursorCounters;
  /** Fresh snapshot ids (tests force collisions); default random. */
  readonly newSnapshotId?: () => string;
  /** The stream's committed end acks are checked against (shared by a stream's handles); default one per handle. */
  readonly committedEnd?: CommittedEnd;
}
