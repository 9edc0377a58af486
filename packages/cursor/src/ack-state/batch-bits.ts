// Bit maps of batch entries: which batch indexes of one entry are still unacknowledged. Validates requests, brings
// bit maps to canonical form (no trailing zero words) and merges them with AND. A map with no bit left means the
// whole entry is acknowledged; a map with every bit below batchSize set means nothing is. Pure; no offsets here
// beyond the one a PartialAck carries.
import { ErrorCode, NereusError } from "@nereus/core";
import { MAX_BATCH_SIZE } from "../domain/ack-types.js";

/** The batch part of a partial ack: `remaining` holds the indexes still NOT acknowledged (see PartialAck). */
export interface BatchBits {
  readonly batchSize: number;
  readonly remaining: readonly bigint[];
}

/** What a bit map amounts to: every index acked, none acked, or some (with the canonical remaining words). */
export type BatchState =
  | { readonly kind: "whole" }
  | { readonly kind: "none" }
  | { readonly kind: "partial"; readonly remaining: readonly bigint[] };

const WORD_BITS = 64;
const WORD_MASK = (1n << 64n) - 1n;
const WHOLE: BatchState = { kind: "whole" };
const NONE: BatchState = { kind: "none" };

/**
 * Checks a requested bit map and classifies it. Throws INVALID_ARGUMENT when `batchSize` is not an integer in
 * `1..MAX_BATCH_SIZE`, a word is not a 64-bit unsigned bigint, or a bit at or above `batchSize` is set. Trailing zero
 * words are accepted and trimmed.
 */
export function classifyBatchBits(bits: BatchBits): BatchState {
  checkBatchSize(bits.batchSize);
  const words = bits.remaining;
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    if (typeof word !== "bigint" || word < 0n || word > WORD_MASK) {
      throw invalidArgument(`remaining word ${index} is not a 64-bit unsigned integer`);
    }
    if ((word & ~maskOfWord(bits.batchSize, index)) !== 0n) {
      throw invalidArgument(`remaining word ${index} has a bit at or above batch size ${bits.batchSize}`);
    }
  }
  return stateOf(bits.batchSize, trimTrailingZeroWords(words));
}

/** The bit map with every index of a batch of `batchSize` unacknowledged (the implicit state of a fresh entry). */
export function fullRemaining(batchSize: number): bigint[] {
  checkBatchSize(batchSize);
  const words: bigint[] = [];
  for (let index = 0; index * WORD_BITS < batchSize; index++) words.push(maskOfWord(batchSize, index));
  return words;
}

/**
 * Acknowledges in `current` what `request` acknowledges (bitwise AND of the remaining maps). Both must be valid for
 * the same batch size (INVALID_ARGUMENT otherwise: a batch has one size).
 */
export function mergeBatchBits(current: BatchBits, request: BatchBits): BatchState {
  if (current.batchSize !== request.batchSize) {
    throw invalidArgument(
      `batch size ${request.batchSize} differs from the entry's known batch size ${current.batchSize}`,
    );
  }
  const length = Math.min(current.remaining.length, request.remaining.length);
  const merged: bigint[] = [];
  for (let index = 0; index < length; index++) merged.push(current.remaining[index]! & request.remaining[index]!);
  return stateOf(current.batchSize, trimTrailingZeroWords(merged));
}

/** A bit map with the given batch indexes acknowledged and all others not; throws INVALID_ARGUMENT on a bad index. */
export function batchBitsAcking(batchSize: number, ackedIndexes: Iterable<number>): BatchBits {
  const words = fullRemaining(batchSize);
  for (const batchIndex of ackedIndexes) {
    checkBatchIndex(batchIndex, batchSize);
    const word = Math.floor(batchIndex / WORD_BITS);
    words[word] = words[word]! & ~(1n << BigInt(batchIndex % WORD_BITS));
  }
  return { batchSize, remaining: trimTrailingZeroWords(words) };
}

/** True when `batchIndex` is acknowledged in `bits` (its remaining bit is clear); INVALID_ARGUMENT beyond the batch. */
export function isIndexAcked(bits: BatchBits, batchIndex: number): boolean {
  checkBatchIndex(batchIndex, bits.batchSize);
  const word = bits.remaining[Math.floor(batchIndex / WORD_BITS)] ?? 0n;
  return ((word >> BigInt(batchIndex % WORD_BITS)) & 1n) === 0n;
}

/** The acknowledged batch indexes of `bits`, ascending. */
export function ackedBatchIndexes(bits: BatchBits): number[] {
  const acked: number[] = [];
  for (let batchIndex = 0; batchIndex < bits.batchSize; batchIndex++) {
    if (isIndexAcked(bits, batchIndex)) acked.push(batchIndex);
  }
  return acked;
}

/** True when both maps are the same (same batch size, same words). */
export function batchBitsEqual(left: BatchBits, right: BatchBits): boolean {
  if (left.batchSize !== right.batchSize || left.remaining.length !== right.remaining.length) return false;
  return left.remaining.every((word, index) => word === right.remaining[index]);
}

function stateOf(batchSize: number, words: readonly bigint[]): BatchState {
  if (words.length === 0) return WHOLE;
  if (isFull(batchSize, words)) return NONE;
  return { kind: "partial", remaining: words };
}

function isFull(batchSize: number, words: readonly bigint[]): boolean {
  const wordCount = Math.ceil(batchSize / WORD_BITS);
  if (words.length !== wordCount) return false;
  return words.every((word, index) => word === maskOfWord(batchSize, index));
}

/** The bits of word `index` that lie below `batchSize`. */
function maskOfWord(batchSize: number, index: number): bigint {
  const bitsBelow = batchSize - index * WORD_BITS;
  if (bitsBelow <= 0) return 0n;
  if (bitsBelow >= WORD_BITS) return WORD_MASK;
  return (1n << BigInt(bitsBelow)) - 1n;
}

function trimTrailingZeroWords(words: readonly bigint[]): bigint[] {
  let length = words.length;
  while (length > 0 && words[length - 1] === 0n) length--;
  return words.slice(0, length);
}

function checkBatchSize(batchSize: number): void {
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
    throw invalidArgument(`batch size ${batchSize} is not an integer in 1..${MAX_BATCH_SIZE}`);
  }
}

function checkBatchIndex(batchIndex: number, batchSize: number): void {
  if (!Number.isInteger(batchIndex) || batchIndex < 0 || batchIndex >= batchSize) {
    throw invalidArgument(`batch index ${batchIndex} is outside 0..${batchSize - 1}`);
  }
}

function invalidArgument(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message);
}
