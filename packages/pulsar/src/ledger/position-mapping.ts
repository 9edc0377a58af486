// Position ↔ stream offset, mapping version 1: one topic incarnation is one stream and one virtual ledger, and
// `Position(ledgerId = the incarnation's virtual ledger id, entryId = stream offset)`; a batch index stays inside
// its entry. The ledger never rolls over, so entry ids are dense. Each role a position plays has its own rule,
// against the ledger's bounds (trim offset T, committed end E):
//
//   readable entry        T <= e < E
//   next read position    T <= e <= E
//   mark-delete position  T-1 <= e <= E-1 (below T-1: nothing left to acknowledge, read as T-1)
//   start after P         first read max(T, e+1), at most E; earliest → T; latest → E
//   seek / reset target   e itself, clamped into [T, E]; earliest → T; latest → E
//   read limit (max P)    reads stop before min(e+1, E), at least T; earliest → T (nothing); latest → E
//
// `entryId - 1` arithmetic of clients (the entry before a batch, (L, -1) before the first) is tolerated wherever a
// rule allows it. A position of another ledger id fails with LEDGER_MISMATCH; sentinels are never stored. Pure.
import { ErrorCode } from "@nereus/core";
import { ledgerMismatch, positionOutOfRange } from "./ledger-errors.js";
import { EARLIEST_POSITION, LATEST_POSITION, type Position } from "./position.js";

/** The ledger's offsets a position is resolved against. */
export interface LedgerBounds {
  /** The first readable entry (everything below is trimmed). */
  readonly trimOffset: number;
  /** One past the last committed entry. */
  readonly committedEndOffset: number;
}

/** What a position names: a sentinel, or an entry id of this ledger (>= -1, a safe integer). */
export type ResolvedPosition =
  { readonly kind: "earliest" } | { readonly kind: "latest" } | { readonly kind: "entry"; readonly entryId: number };

const MAX_ENTRY_ID = BigInt(Number.MAX_SAFE_INTEGER);

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

/** The mapping of one incarnation (one virtual ledger id). */
export class PositionMapping {
  readonly ledgerId: bigint;
  /** The topic, for error messages. */
  readonly topic: string;

  constructor(ledgerId: bigint, topic: string) {
    this.ledgerId = ledgerId;
    this.topic = topic;
  }

  /** The position of stream offset `offset` (-1: before the first entry). */
  positionOf(offset: number): Position {
    if (!Number.isSafeInteger(offset) || offset < -1) {
      throw new RangeError(`offset ${String(offset)} is not a safe integer >= -1`);
    }
    return { ledgerId: this.ledgerId, entryId: BigInt(offset) };
  }

  /** The last committed entry (`(L, E-1)`; `(L, -1)` when the ledger never had one). */
  lastConfirmed(bounds: LedgerBounds): Position {
    return this.positionOf(bounds.committedEndOffset - 1);
  }

  /** The position before the first readable entry (`(L, T-1)`), where a cursor at "earliest" stands. */
  beforeFirst(bounds: LedgerBounds): Position {
    return this.positionOf(bounds.trimOffset - 1);
  }

  /**
   * What `position` names. Throws INVALID_ARGUMENT: LEDGER_MISMATCH for another ledger id, POSITION_OUT_OF_RANGE for
   * an entry id below -1 or beyond 2^53-1 in this ledger.
   */
  resolve(position: Position): ResolvedPosition {
    if (position.ledgerId === EARLIEST_POSITION.ledgerId && position.entryId === EARLIEST_POSITION.entryId) {
      return { kind: "earliest" };
    }
    if (position.ledgerId === LATEST_POSITION.ledgerId && position.entryId === LATEST_POSITION.entryId) {
      return { kind: "latest" };
    }
    if (position.ledgerId !== this.ledgerId) throw ledgerMismatch(this.topic, position, this.ledgerId);
    if (position.entryId < -1n || position.entryId > MAX_ENTRY_ID) {
      throw positionOutOfRange(
        ErrorCode.INVALID_ARGUMENT,
        this.topic,
        position,
        "has an entry id outside [-1, 2^53-1]",
      );
    }
    return { kind: "entry", entryId: Number(position.entryId) };
  }

  /** The offset of a readable entry: OFFSET_TRIMMED below T, OFFSET_NOT_AVAILABLE at or beyond E, sentinels refused. */
  readableOffset(position: Position, bounds: LedgerBounds): number {
    const entryId = this.#entryIdOf(position, "is a sentinel, not an entry");
    if (entryId < bounds.trimOffset) {
      throw positionOutOfRange(
        ErrorCode.OFFSET_TRIMMED,
        this.topic,
        position,
        `is below the first entry ${String(bounds.trimOffset)}`,
      );
    }
    if (entryId >= bounds.committedEndOffset) {
      throw positionOutOfRange(
        ErrorCode.OFFSET_NOT_AVAILABLE,
        this.topic,
        position,
        `is at or after the end ${String(bounds.committedEndOffset)}`,
      );
    }
    return entryId;
  }

  /** The offset of a next-read position: like `readableOffset`, and the end itself is allowed. */
  nextReadOffset(position: Position, bounds: LedgerBounds): number {
    const entryId = this.#entryIdOf(position, "is a sentinel, not a read position");
    if (entryId < bounds.trimOffset) {
      throw positionOutOfRange(
        ErrorCode.OFFSET_TRIMMED,
        this.topic,
        position,
        `is below the first entry ${String(bounds.trimOffset)}`,
      );
    }
    if (entryId > bounds.committedEndOffset) {
      throw positionOutOfRange(
        ErrorCode.OFFSET_NOT_AVAILABLE,
        this.topic,
        position,
        `is after the end ${String(bounds.committedEndOffset)}`,
      );
    }
    return entryId;
  }

  /**
   * The cursor markDelete offset (first entry not acknowledged) of Pulsar mark-delete position `position`: e + 1.
   * A position below T-1 reads as T-1 (its entries are gone); OFFSET_NOT_AVAILABLE at or beyond E; sentinels refused.
   */
  markDeleteOffset(position: Position, bounds: LedgerBounds): number {
    const entryId = this.#entryIdOf(position, "is a sentinel, not a mark-delete position");
    if (entryId >= bounds.committedEndOffset) {
      throw positionOutOfRange(
        ErrorCode.OFFSET_NOT_AVAILABLE,
        this.topic,
        position,
        `acknowledges beyond the last entry ${String(bounds.committedEndOffset - 1)}`,
      );
    }
    return Math.max(entryId + 1, bounds.trimOffset);
  }

  /** Where reading starts when `position` is already consumed (a non-durable cursor's start, a rewind target). */
  startAfterOffset(position: Position, bounds: LedgerBounds): number {
    const resolved = this.resolve(position);
    if (resolved.kind === "earliest") return bounds.trimOffset;
    if (resolved.kind === "latest") return bounds.committedEndOffset;
    return clamp(resolved.entryId + 1, bounds.trimOffset, bounds.committedEndOffset);
  }

  /** The next read offset a seek or cursor reset to `position` lands on (no + 1), clamped into [T, E]. */
  seekOffset(position: Position, bounds: LedgerBounds): number {
    const resolved = this.resolve(position);
    if (resolved.kind === "earliest") return bounds.trimOffset;
    if (resolved.kind === "latest") return bounds.committedEndOffset;
    return clamp(resolved.entryId, bounds.trimOffset, bounds.committedEndOffset);
  }

  /** The exclusive offset reads stop at when `position` is the last one to read (inclusive), within [T, E]. */
  readLimitOffset(position: Position, bounds: LedgerBounds): number {
    const resolved = this.resolve(position);
    if (resolved.kind === "earliest") return bounds.trimOffset;
    if (resolved.kind === "latest") return bounds.committedEndOffset;
    return clamp(resolved.entryId + 1, bounds.trimOffset, bounds.committedEndOffset);
  }

  #entryIdOf(position: Position, sentinelRule: string): number {
    const resolved = this.resolve(position);
    if (resolved.kind !== "entry")
      throw positionOutOfRange(ErrorCode.INVALID_ARGUMENT, this.topic, position, sentinelRule);
    return resolved.entryId;
  }
}
