// The shapes a managed ledger answers with and takes for reads and trims: its states, where an added entry landed,
// an entry as read, and the options and results of reads and trims. Types only.
import type { Position } from "./position.js";

/**
 * OPEN: appends admitted. WRITE_FENCED: appends refused (retryable) until an uncertain append is resolved and the
 * end re-read. TERMINATING/TERMINATED: sealed, reads go on. FAILED: a failure that cannot be cured in place
 * (corruption, another writer took the stream, an attempt the store cannot resolve); reads go on, reopen to write.
 * CLOSED: every call fails.
 */
export type ManagedLedgerState = "OPEN" | "WRITE_FENCED" | "TERMINATING" | "TERMINATED" | "FAILED" | "CLOSED";

/** Where an added entry landed. */
export interface AddEntryResult {
  readonly offset: number;
  readonly position: Position;
}

/** One entry as read: its offset, position and exact stored bytes (a view; treat as read-only). */
export interface LedgerEntry {
  readonly offset: number;
  readonly position: Position;
  readonly payload: Uint8Array;
}

export interface ReadEntriesOptions {
  /** Most entries returned (default 100); at least one when any is readable. */
  readonly maxEntries?: number;
  /** Payload byte budget (default 4 MiB); at least one entry even when it alone exceeds it. */
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface ReadEntriesResult {
  readonly entries: readonly LedgerEntry[];
  /** The offset to read next. */
  readonly nextOffset: number;
  /** True when `nextOffset` reached the committed end this read observed. */
  readonly reachedEnd: boolean;
}

export interface TrimOptions {
  /** Trim no further than this offset (default: as far as the cursors' floor allows). */
  readonly upTo?: number;
  /** Recorded with the trim (default "consumed"). */
  readonly reason?: string;
  readonly signal?: AbortSignal;
}
