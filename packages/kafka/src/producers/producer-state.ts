// Idempotent-producer state of one partition, as Kafka keeps it (ProducerStateEntry / ProducerAppendInfo): per
// producer id the current epoch and the metadata of its last five batches. `checkBatch` decides what a produced
// batch is — a new append, a retry of a retained batch (answered with its original offset), or an error — and
// `withBatch` returns the entry after appending it. Pure functions over immutable values: the partition log keeps
// the committed table and one overlay per append in flight (pipelined appends), and derives the table by replaying
// committed batches. Transactions are out of scope (transactional batches are refused before they get here).

/** Kafka keeps this many batches per producer for duplicate detection (max.in.flight ≤ 5). */
export const RETAINED_BATCHES = 5;
/** RecordBatch.NO_PRODUCER_EPOCH. */
const NO_PRODUCER_EPOCH = -1;
const INT32_MAX = 0x7fff_ffff;

/** What is retained of one appended batch. */
export interface RetainedBatch {
  readonly firstSequence: number;
  readonly lastSequence: number;
  readonly baseOffset: number;
  /** Records in the batch (lastOffset = baseOffset + recordCount - 1). */
  readonly recordCount: number;
  readonly maxTimestamp: number;
}

/** One producer's state in one partition. */
export interface ProducerEntry {
  readonly producerId: bigint;
  readonly epoch: number;
  /** Oldest first; at most {@link RETAINED_BATCHES}. */
  readonly batches: readonly RetainedBatch[];
}

/** The producer fields of a batch header. */
export interface ProducedBatch {
  readonly producerId: bigint;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly lastOffsetDelta: number;
  readonly recordCount: number;
  readonly maxTimestamp: number;
}

/** The verdict on a produced batch. */
export type SequenceVerdict =
  | { readonly kind: "append" }
  | { readonly kind: "duplicate"; readonly batch: RetainedBatch }
  | { readonly kind: "invalid-epoch"; readonly message: string }
  | { readonly kind: "out-of-order"; readonly message: string };

/** The last sequence of a batch: baseSequence + lastOffsetDelta, wrapping past Int32.MAX to 0 as Kafka does. */
export function lastSequenceOf(baseSequence: number, lastOffsetDelta: number): number {
  return baseSequence > INT32_MAX - lastOffsetDelta
    ? baseSequence - (INT32_MAX - lastOffsetDelta) - 1
    : baseSequence + lastOffsetDelta;
}

function inSequence(lastSequence: number, nextSequence: number): boolean {
  return nextSequence === lastSequence + 1 || (nextSequence === 0 && lastSequence === INT32_MAX);
}

/**
 * Kafka's checks, in Kafka's order: an exact retry of a retained batch of the same epoch is a duplicate; an older
 * epoch is INVALID_PRODUCER_EPOCH; a new epoch must start at sequence 0 (unless the producer is unknown); within
 * an epoch the sequence must continue the last batch (any sequence when no epoch is known).
 */
export function checkBatch(entry: ProducerEntry | undefined, batch: ProducedBatch): SequenceVerdict {
  const firstSequence = batch.baseSequence;
  const lastSequence = lastSequenceOf(firstSequence, batch.lastOffsetDelta);
  if (entry !== undefined && entry.epoch === batch.producerEpoch) {
    const duplicate = entry.batches.find(
      (retained) => retained.firstSequence === firstSequence && retained.lastSequence === lastSequence,
    );
    if (duplicate !== undefined) return { kind: "duplicate", batch: duplicate };
  }
  const currentEpoch = entry?.epoch ?? NO_PRODUCER_EPOCH;
  if (batch.producerEpoch < currentEpoch) {
    return {
      kind: "invalid-epoch",
      message: `Epoch of producer ${batch.producerId.toString()} is ${String(batch.producerEpoch)}, which is smaller than the last seen epoch ${String(currentEpoch)}`,
    };
  }
  if (batch.producerEpoch !== currentEpoch) {
    if (firstSequence !== 0 && currentEpoch !== NO_PRODUCER_EPOCH) {
      return {
        kind: "out-of-order",
        message: `Invalid sequence number for new epoch of producer ${batch.producerId.toString()} at epoch ${String(batch.producerEpoch)} (request epoch), ${String(firstSequence)} (seq. number), ${String(currentEpoch)} (current producer epoch)`,
      };
    }
    return { kind: "append" };
  }
  const last = entry?.batches[entry.batches.length - 1];
  const currentLastSequence = last === undefined ? -1 : last.lastSequence;
  if (!inSequence(currentLastSequence, firstSequence)) {
    return {
      kind: "out-of-order",
      message: `Out of order sequence number for producer ${batch.producerId.toString()} at offset in partition: ${String(firstSequence)} (incoming seq. number), ${String(currentLastSequence)} (current end sequence number)`,
    };
  }
  return { kind: "append" };
}

/** The entry after appending `batch` at `baseOffset` (a new epoch forgets the old epoch's batches). */
export function withBatch(entry: ProducerEntry | undefined, batch: ProducedBatch, baseOffset: number): ProducerEntry {
  const retained: RetainedBatch = {
    firstSequence: batch.baseSequence,
    lastSequence: lastSequenceOf(batch.baseSequence, batch.lastOffsetDelta),
    baseOffset,
    recordCount: batch.recordCount,
    maxTimestamp: batch.maxTimestamp,
  };
  const kept =
    entry === undefined || entry.epoch !== batch.producerEpoch ? [] : entry.batches.slice(-(RETAINED_BATCHES - 1));
  return { producerId: batch.producerId, epoch: batch.producerEpoch, batches: [...kept, retained] };
}

/** Applies one committed batch (replay): batches without a producer id leave the table unchanged. */
export function replayBatch(entries: Map<bigint, ProducerEntry>, batch: ProducedBatch, baseOffset: number): void {
  if (batch.producerId < 0n) return;
  entries.set(batch.producerId, withBatch(entries.get(batch.producerId), batch, baseOffset));
}

/**
 * Drops producers whose newest batch is older than `expirationMs` before `nowMillis` (Kafka's
 * producer.id.expiration.ms, by batch max timestamp). Returns how many were dropped.
 */
export function expireProducers(entries: Map<bigint, ProducerEntry>, nowMillis: number, expirationMs: number): number {
  let dropped = 0;
  for (const [producerId, entry] of entries) {
    const newest = entry.batches[entry.batches.length - 1];
    if (newest !== undefined && newest.maxTimestamp < nowMillis - expirationMs) {
      entries.delete(producerId);
      dropped += 1;
    }
  }
  return dropped;
}
