// Bit maps of batch entries as 64-bit words (bit i % 64 of word i / 64 is batch index i; a set bit = still
// unacknowledged): building the remaining map of an entry, merging maps with AND, counting set bits, checking a
// requested map. Pure.
import { ErrorCode, NereusError } from "@nereus/core";
import { type BatchBits, MAX_BATCH_SIZE } from "@nereus/cursor";

const WORD_BITS = 64;
const WORD_MASK = (1n << 64n) - 1n;

/**
 * The remaining map of a batch of `batchSize` whose acknowledged indexes `isAcked` names; undefined when no index
 * is acknowledged, an empty array when all are.
 */
export function remainingWords(batchSize: number, isAcked: (batchIndex: number) => boolean): bigint[] | undefined {
  const words: bigint[] = [];
  let anyAcked = false;
  for (let batchIndex = 0; batchIndex < batchSize; batchIndex++) {
    const word = Math.floor(batchIndex / WORD_BITS);
    if (words.length <= word) words.push(0n);
    if (isAcked(batchIndex)) anyAcked = true;
    else words[word] = words[word]! | (1n << BigInt(batchIndex % WORD_BITS));
  }
  if (!anyAcked) return undefined;
  return trimmed(words);
}

/** Set bits (unacknowledged indexes) of `words`. */
export function countRemaining(words: readonly bigint[]): number {
  let count = 0;
  for (const word of words) {
    for (let rest = word; rest !== 0n; rest &= rest - 1n) count++;
  }
  return count;
}

/** `current` AND `request`, without trailing zero words (empty: every index acknowledged). */
export function andWords(current: readonly bigint[], request: readonly bigint[]): bigint[] {
  const length = Math.min(current.length, request.length);
  const merged: bigint[] = [];
  for (let index = 0; index < length; index++) merged.push(current[index]! & request[index]!);
  return trimmed(merged);
}

/** Every index of a batch of `batchSize` unacknowledged. */
export function fullWords(batchSize: number): bigint[] {
  const words: bigint[] = [];
  for (let start = 0; start < batchSize; start += WORD_BITS) {
    const bits = Math.min(WORD_BITS, batchSize - start);
    words.push(bits === WORD_BITS ? WORD_MASK : (1n << BigInt(bits)) - 1n);
  }
  return words;
}

/**
 * Throws INVALID_ARGUMENT unless `bits` is a valid map: an integer batch size in 1..MAX_BATCH_SIZE and 64-bit
 * unsigned words with no bit at or above the batch size.
 */
export function checkBatchBits(bits: BatchBits, what: string): void {
  if (!Number.isInteger(bits.batchSize) || bits.batchSize < 1 || bits.batchSize > MAX_BATCH_SIZE) {
    throw invalid(`${what}: batch size ${String(bits.batchSize)} is not an integer in 1..${MAX_BATCH_SIZE}`);
  }
  const full = fullWords(bits.batchSize);
  bits.remaining.forEach((word, index) => {
    if (typeof word !== "bigint" || word < 0n || word > WORD_MASK || (word & ~(full[index] ?? 0n)) !== 0n) {
      throw invalid(`${what}: word ${index} is not a 64-bit map of batch size ${bits.batchSize}`);
    }
  });
}

function trimmed(words: bigint[]): bigint[] {
  let length = words.length;
  while (length > 0 && words[length - 1] === 0n) length--;
  return words.slice(0, length);
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}
