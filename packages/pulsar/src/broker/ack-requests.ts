// MessageIds of ACK and REDELIVER commands as subscription requests: each id names an entry of the consumer's
// topic (its virtual ledger id and stream offset) and, for a batch-index ack, the entry's still-unacknowledged
// indexes. Ids of entries already trimmed were acknowledged before and are dropped, as is the cumulative ack of
// (ledgerId, -1) a client sends for "everything before the first entry"; an id of another ledger fails the request.
import { ErrorCode, NereusError } from "@nereus/core";
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import { positionOfMessageId } from "../ledger/position.js";
import { AckType, type CommandAck, type MessageIdData } from "../protocol/index.js";
import type { AckItem, AckRequest, RequestBatchBits } from "../subscriptions/subscription-types.js";

/** The stream offset of a readable entry `id` names; undefined when it was trimmed (acknowledged long ago). */
function entryOffsetOf(ledger: ManagedLedger, id: MessageIdData): number | undefined {
  try {
    return ledger.positions.readableOffset(positionOfMessageId(id), ledger.bounds());
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.OFFSET_TRIMMED)) return undefined;
    throw error;
  }
}

/**
 * The batch bits of a batch-index ack or seek, when the id carries an ack set. The wire's words are signed int64s,
 * the subscription's unsigned. The Java client sends the batch size only with cumulative acks; the subscription
 * takes it from the entry otherwise.
 */
export function batchOf(id: MessageIdData): RequestBatchBits | undefined {
  if (id.ackSet === undefined || id.ackSet.length === 0) return undefined;
  const remaining = id.ackSet.map((word) => BigInt.asUintN(64, word));
  return id.batchSize === undefined ? { remaining } : { remaining, batchSize: id.batchSize };
}

/** A delivery's remaining batch bits as the wire carries them (signed int64 words). */
export function wireAckSet(remaining: readonly bigint[]): bigint[] {
  return remaining.map((word) => BigInt.asIntN(64, word));
}

/** The subscription request of an ACK, or undefined when nothing is left to acknowledge. Throws for bad ids. */
export function ackRequestOf(ledger: ManagedLedger, command: CommandAck): AckRequest | undefined {
  const ids = command.messageId ?? [];
  if (command.ackType === AckType.Cumulative) {
    const [id] = ids;
    if (id === undefined || ids.length !== 1) throw invalid("a cumulative ack carries exactly one message id");
    if (positionOfMessageId(id).entryId === -1n && BigInt.asIntN(64, id.ledgerId) === ledger.ledgerId) return undefined;
    const offset = entryOffsetOf(ledger, id);
    if (offset === undefined) return undefined;
    const batch = batchOf(id);
    return batch === undefined ? { kind: "cumulative", offset } : { kind: "cumulative", offset, batch };
  }
  const items: AckItem[] = [];
  for (const id of ids) {
    const offset = entryOffsetOf(ledger, id);
    if (offset === undefined) continue;
    const batch = batchOf(id);
    items.push(batch === undefined ? { offset } : { offset, batch });
  }
  return items.length === 0 ? undefined : { kind: "individual", items };
}

/** The offsets of a redelivery request's ids that are still readable (ids of other ledgers are skipped). */
export function redeliveryOffsetsOf(ledger: ManagedLedger, ids: readonly MessageIdData[]): number[] {
  const offsets: number[] = [];
  for (const id of ids) {
    try {
      const offset = entryOffsetOf(ledger, id);
      if (offset !== undefined) offsets.push(offset);
    } catch {
      // Not an entry of this topic (any more): nothing to redeliver.
    }
  }
  return offsets;
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}
