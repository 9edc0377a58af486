// Append and read value types of the protocol-neutral core. Entries are opaque bytes; a ranged entry (a Kafka
// RecordBatch) consumes `recordCount` offsets and is never split; an opaque entry (a Pulsar entry) consumes one.
import type { ReadTarget } from "./read-target.js";
import type { AppendCompletionPolicy, DurabilityLevel } from "./storage-profile.js";

export type PayloadFormat = "OPAQUE_RECORD_BATCH" | "KAFKA_RECORD_BATCH" | "PULSAR_ENTRY_BATCH";

export interface AppendEntry {
  /** Caller-owned; the core copies what it retains, unless the batch hands its payloads over. */
  readonly payload: Uint8Array;
  /** Offsets this entry consumes: 1 for opaque entries, 1..2^31-1 for ranged entries. */
  readonly recordCount: number;
  /**
   * Optional: `crc32c(payload)`, when the caller already has it (a Kafka adapter gets it from the batch's own CRC).
   * WAL writers then combine it into their checksums instead of reading the payload again. It must be exact: a
   * wrong value makes every read of the entry fail its checksum. Validated as an unsigned 32-bit integer.
   */
  readonly payloadCrc32c?: number;
}

export interface AppendBatch {
  readonly payloadFormat: PayloadFormat;
  readonly entries: readonly AppendEntry[];
  /**
   * True when the caller hands its payload bytes over: it never modifies them again, from the `append` call on.
   * The store may then keep references instead of copying (the Object WAL copies each byte once, into the WAL
   * object). Default false: the store copies what it retains, and the caller may reuse its buffers as soon as
   * `append` returns its promise.
   */
  readonly handOverPayloads?: boolean;
}

export interface AppendOptions {
  /** Rejects before any WAL I/O when the committed end differs (OFFSET_CONFLICT). */
  readonly expectedStartOffset?: number;
  readonly durability?: DurabilityLevel;
  readonly completionPolicy?: AppendCompletionPolicy;
  /** Overall deadline for this append (one monotone deadline across all steps). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** The stable result of a committed append. `generation` is always 0 and `readTarget` the original target. */
export interface AppendResult {
  readonly streamId: string;
  /** Half-open [start, end). */
  readonly startOffset: number;
  readonly endOffset: number;
  /** Committed end of the head after the commit that contains this append (>= endOffset). */
  readonly committedEndOffset: number;
  readonly cumulativeSize: number;
  readonly commitVersion: number;
  readonly commitId: string;
  readonly generation: 0;
  readonly readTarget: ReadTarget;
  readonly payloadFormat: PayloadFormat;
  readonly recordCount: number;
  readonly entryCount: number;
  readonly logicalBytes: number;
}

export interface ReadOptions {
  /** Record budget (default 10,000); at least one entry is returned even when it alone exceeds it. */
  readonly maxRecords?: number;
  /** Payload byte budget (default 4 MiB); at least one entry is returned even when it alone exceeds it. */
  readonly maxBytes?: number;
  /** Overall deadline of this read (default 30 s). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * One stored entry as read back: its first offset, record count and exact bytes. `payload` may be shared with the
 * read caches (a view, not a copy): treat it as read-only.
 */
export interface ReadEntry {
  readonly offset: number;
  readonly recordCount: number;
  readonly payload: Uint8Array;
}

export interface ReadResult {
  readonly streamId: string;
  readonly requestedOffset: number;
  readonly entries: readonly ReadEntry[];
  /** The offset to read next. */
  readonly nextOffset: number;
  /** True when `nextOffset` reached the committed end observed by this read. */
  readonly endOfStream: boolean;
  readonly committedEndOffset: number;
}
