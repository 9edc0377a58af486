// Pulsar positions as the managed-ledger facade speaks them: `(ledgerId, entryId)`, signed 64-bit, bigint end to
// end. Of one topic incarnation, the ledger id is its virtual ledger id and the entry id the stream offset (see
// position-mapping.ts). Clients also send two sentinels: earliest `(-1, -1)` and latest `(2^63-1, 2^63-1)`. The
// protocol carries ids as unsigned 64-bit fields (a client's -1 arrives as 2^64-1); `positionOfMessageId` and
// `messageIdOfPosition` convert between the two readings.

/** A position: signed 64-bit ledger and entry ids. */
export interface Position {
  readonly ledgerId: bigint;
  readonly entryId: bigint;
}

const INT64_MAX = 2n ** 63n - 1n;

/** MessageId.earliest: before every entry of every ledger. */
export const EARLIEST_POSITION: Position = Object.freeze({ ledgerId: -1n, entryId: -1n });
/** MessageId.latest: after every entry. */
export const LATEST_POSITION: Position = Object.freeze({ ledgerId: INT64_MAX, entryId: INT64_MAX });

/** The position of a MessageIdData's ledger and entry ids, read as the signed 64-bit values clients meant. */
export function positionOfMessageId(messageId: { readonly ledgerId: bigint; readonly entryId: bigint }): Position {
  return { ledgerId: BigInt.asIntN(64, messageId.ledgerId), entryId: BigInt.asIntN(64, messageId.entryId) };
}

/** The unsigned 64-bit ledger and entry ids of `position`, as a MessageIdData carries them (-1 as 2^64-1). */
export function messageIdOfPosition(position: Position): { readonly ledgerId: bigint; readonly entryId: bigint } {
  return { ledgerId: BigInt.asUintN(64, position.ledgerId), entryId: BigInt.asUintN(64, position.entryId) };
}

/** Orders positions by ledger id, then entry id (negative, zero or positive). */
export function comparePositions(left: Position, right: Position): number {
  if (left.ledgerId !== right.ledgerId) return left.ledgerId < right.ledgerId ? -1 : 1;
  if (left.entryId === right.entryId) return 0;
  return left.entryId < right.entryId ? -1 : 1;
}

/** `ledgerId:entryId`, as Pulsar prints positions. */
export function formatPosition(position: Position): string {
  return `${position.ledgerId.toString()}:${position.entryId.toString()}`;
}
