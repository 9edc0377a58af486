// Batch bit maps of client requests made complete: a batch size the client left out (Pulsar clients send none with
// individual batch-index acks and with seeks) is taken from what dispatch knows of the entry or, failing that, from
// the stored entry; the map is then checked against that size.
import { ErrorCode, NereusError } from "@nereus/core";
import type { BatchBits } from "@nereus/cursor";
import { checkBatchBits } from "./batch-words.js";
import type { EntrySource } from "./entry-source.js";
import type { RequestBatchBits } from "./subscription-types.js";

/**
 * The complete map of `bits` for the entry at `offset`. `known` is the entry's message count when dispatch has it at
 * hand; otherwise the client's batch size, or else the stored entry's, is used. Throws INVALID_ARGUMENT when the
 * client's size contradicts the known one, the entry is not readable, or the map does not fit the size.
 */
export async function completeBatchBits(
  bits: RequestBatchBits,
  offset: number,
  known: number | undefined,
  source: EntrySource,
  what: string,
): Promise<BatchBits> {
  if (known !== undefined && bits.batchSize !== undefined && known !== bits.batchSize) {
    throw invalid(`${what}: entry ${offset} is a batch of ${known} messages, not ${bits.batchSize}`);
  }
  const batchSize = known ?? bits.batchSize ?? (await storedBatchSize(source, offset, what));
  const complete = { batchSize, remaining: bits.remaining };
  checkBatchBits(complete, what);
  return complete;
}

async function storedBatchSize(source: EntrySource, offset: number, what: string): Promise<number> {
  const [entry] = await source.read(offset, 1);
  if (entry?.offset !== offset) throw invalid(`${what}: entry ${offset} is not readable`);
  return entry.numMessages;
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}
