// The ledger metadata BookKeeper keeps per ledger (LedgerMetadataFormat in DataFormats.proto), as a plain
// immutable value, plus the segment lookup every read and write path needs. Entry ids and lengths are safe
// integers; -1 means "no entry".
import type { DigestType } from "../digest/digest-type.js";

/** Ledger lifecycle in the metadata: OPEN (writable), IN_RECOVERY (being fenced and closed), CLOSED (sealed). */
export type LedgerState = "OPEN" | "IN_RECOVERY" | "CLOSED";

/** One ensemble segment: the bookies that store entries from `firstEntryId` until the next segment. */
export interface LedgerSegment {
  readonly firstEntryId: number;
  /** Bookie ids ("host:port"), `ensembleSize` of them, in write-set index order. */
  readonly ensemble: readonly string[];
}

/**
 * Ledger metadata (format 3).
 *
 * Invariants: segments are sorted by strictly increasing `firstEntryId`, the first starts at 0, every ensemble
 * has `ensembleSize` distinct bookies; `ensembleSize ≥ writeQuorumSize ≥ ackQuorumSize ≥ 1`; when CLOSED,
 * `lastEntryId` and `length` are final.
 */
export interface LedgerMetadata {
  readonly ensembleSize: number;
  /** Replicas written per entry (the proto's `quorumSize`). */
  readonly writeQuorumSize: number;
  /** Acknowledgements needed per entry (absent in old metadata: equals the write quorum). */
  readonly ackQuorumSize: number;
  readonly state: LedgerState;
  /** Last entry of a closed ledger; -1 while open or when empty. */
  readonly lastEntryId: number;
  /** Total payload bytes of a closed ledger; 0 while open. */
  readonly length: number;
  readonly segments: readonly LedgerSegment[];
  readonly digestType: DigestType;
  /** The raw ledger password (not the master key); empty when there is none. */
  readonly password: Uint8Array;
  /** Creation time stored in the metadata itself (ms), when the writer stored one. */
  readonly ctimeMs?: number;
  /** Application key/value pairs (Pulsar stores e.g. `application=pulsar`). */
  readonly customMetadata: Readonly<Record<string, Uint8Array>>;
  /** Random creation token: a create retried after a lost response recognises its own metadata by it. */
  readonly cToken?: bigint;
}

/** The segment that owns `entryId`: the one with the greatest `firstEntryId ≤ entryId`. */
export function segmentFor(metadata: Pick<LedgerMetadata, "segments">, entryId: number): LedgerSegment {
  let found: LedgerSegment | undefined;
  for (const segment of metadata.segments) {
    if (segment.firstEntryId <= entryId) found = segment;
    else break;
  }
  const first = metadata.segments[0];
  if (found === undefined && first === undefined) throw new RangeError("ledger metadata has no segments");
  return found ?? (first as LedgerSegment);
}

/** The last (current) segment. */
export function lastSegment(metadata: Pick<LedgerMetadata, "segments">): LedgerSegment {
  const last = metadata.segments[metadata.segments.length - 1];
  if (last === undefined) throw new RangeError("ledger metadata has no segments");
  return last;
}
