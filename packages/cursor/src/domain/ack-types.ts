// The value types of a cursor's ack state (docs in the package README, "State model"). Offsets are stream offsets
// (safe integers); a batch index is a position inside one entry and never becomes an offset.

/**
 * Largest batch size a partial ack may have (2^20 batch indexes: a 128 KiB bit map). Larger batches can still be
 * acknowledged as whole entries.
 */
export const MAX_BATCH_SIZE = 1 << 20;

/** A half-open range `[start, end)` of whole entries, `0 <= start < end`. */
export interface AckRange {
  readonly start: number;
  readonly end: number;
}

/**
 * A partially acknowledged batch entry: `remaining` holds the batch indexes still NOT acknowledged, as 64-bit words
 * (bit `i % 64` of word `i / 64` is batch index `i`, least significant bit first).
 * Canonical form (encoders reject anything else): `1 <= batchSize`, no bit at or above `batchSize`, at least one bit
 * set (an empty map is a whole-entry ack), not every bit below `batchSize` set (a full map is "nothing acked" and is
 * dropped), no trailing zero words.
 */
export interface PartialAck {
  readonly offset: number;
  readonly batchSize: number;
  readonly remaining: readonly bigint[];
}
