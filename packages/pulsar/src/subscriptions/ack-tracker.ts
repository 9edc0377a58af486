// The ack state a subscription dispatches against: a durable cursor (DurableAcks) or, for a non-durable
// subscription (a reader), the same state kept in memory (MemoryAcks). One interface so dispatch never asks which.
import type { BatchBits, IndividualAck, MutationResult } from "@nereus/cursor";

/**
 * Acknowledgement state of one subscription. Mutations resolve once the state holds them (for a durable cursor:
 * after its compare-and-swap); queries answer from the latest state this process knows.
 */
export interface AckTracker {
  readonly durable: boolean;
  /** Changes whenever the state is replaced (reset, clear backlog); acks never change it. */
  readonly stateEpoch: number;
  /** First entry not cumulatively acknowledged. */
  readonly markDeleteOffset: number;
  /** First entry not acknowledged as a whole. */
  firstUnacked(): number;
  /** First entry at or above `from` not acknowledged as a whole. */
  nextUnacked(from: number): number;
  /** True when entry `offset` is acknowledged as a whole. */
  isAcked(offset: number): boolean;
  /**
   * The still-unacknowledged batch indexes of entry `offset` (a batch of `batchSize`) when some, not all, are
   * acknowledged; undefined when none is.
   */
  remaining(offset: number, batchSize: number): readonly bigint[] | undefined;
  individualAck(items: readonly IndividualAck[]): Promise<MutationResult>;
  /** Every entry through `offset`; with `batch`, every entry below it and those batch indexes of it. */
  cumulativeAck(offset: number, batch?: BatchBits): Promise<MutationResult>;
  /** Replaces the state: `target` is the next entry to deliver (with `partial`, some of its indexes acked). */
  reset(target: number, partial?: BatchBits): Promise<void>;
  /** Entries in `[markDelete, committedEnd)` not acknowledged as a whole. */
  backlog(committedEnd: number): number;
  /** Removes the subscription's state for good (a durable cursor is deleted). */
  delete(): Promise<void>;
}
