// The canonical form of a partial batch ack (see PartialAck), checked by every codec that stores one: the cursor
// root and the snapshot format. Pure; no I/O.
import { MAX_BATCH_SIZE, type PartialAck } from "../domain/ack-types.js";

const WORD_MASK = (1n << 64n) - 1n;

/** Why the remaining-bit words are not canonical for `batchSize`, or undefined when they are. */
function remainingWordsProblem(batchSize: number, remaining: readonly bigint[]): string | undefined {
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
    return `batchSize ${String(batchSize)} is outside [1, 2^31-1]`;
  }
  if (!Array.isArray(remaining) || remaining.length === 0) return "remaining has no bit set (a whole-entry ack)";
  const fullWords = Math.ceil(batchSize / 64);
  if (remaining.length > fullWords)
    return `remaining has ${String(remaining.length)} words for ${String(batchSize)} bits`;
  let full = remaining.length === fullWords;
  for (let index = 0; index < remaining.length; index += 1) {
    const word = remaining[index];
    if (typeof word !== "bigint" || word < 0n || word > WORD_MASK)
      return `remaining word ${String(index)} is not a u64`;
    const mask = wordMask(batchSize, index);
    if ((word & ~mask) !== 0n) return `remaining has a bit at or above batchSize ${String(batchSize)}`;
    if (word !== mask) full = false;
  }
  if (remaining[remaining.length - 1] === 0n) return "remaining has a trailing zero word";
  if (full) return "remaining has every bit below batchSize set (nothing acknowledged)";
  return undefined;
}

/** Why `partial` is not a canonical partial ack, or undefined when it is one (the offset is a safe integer >= 0). */
export function partialAckProblem(partial: PartialAck): string | undefined {
  if (typeof partial !== "object" || partial === null) return "partial ack must be an object";
  if (!Number.isSafeInteger(partial.offset) || partial.offset < 0) {
    return `partial ack offset ${String(partial.offset)} is not a safe integer >= 0`;
  }
  const problem = remainingWordsProblem(partial.batchSize, partial.remaining);
  return problem === undefined ? undefined : `partial ack at ${String(partial.offset)}: ${problem}`;
}

/** The bits of word `index` that lie below `batchSize`. */
function wordMask(batchSize: number, index: number): bigint {
  const bits = Math.min(64, batchSize - index * 64);
  return bits === 64 ? WORD_MASK : (1n << BigInt(bits)) - 1n;
}
