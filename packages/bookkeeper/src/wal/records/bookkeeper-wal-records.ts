// The durable records of the BookKeeper WAL (docs/architecture.md §8.2), as plain values: the per-stream writer state (which
// ledger the stream's owner writes, under which session epoch), the per-ledger root (identity, quorums, lifecycle;
// removed only by the ledger collector, a tombstone period after BookKeeper deleted the ledger), and the per-range protection that a head transaction writes
// to name an exact entry range. Codecs live beside this file; nothing here does I/O.
import { WireEnum } from "@nereus/core/internal";
import type { DigestType } from "../../digest/digest-type.js";

/**
 * Writer-state lifecycle: IDLE (no current ledger) → ALLOCATING (a ledger is being created) → ACTIVE (the owner
 * appends to `ledger`) → SEALING (the ledger is being closed or recovered) → ALLOCATING … An owner change keeps
 * the lifecycle and bumps `stateEpoch`; the new owner seals the previous owner's ledger before allocating its own.
 */
export type WriterStateLifecycle = "IDLE" | "ALLOCATING" | "ACTIVE" | "SEALING";

/** Who writes a stream's ledgers: a writer process under one append-session epoch. */
export interface LedgerOwner {
  readonly writerId: string;
  /** The append-session epoch of the stream head under which this owner writes. */
  readonly writerEpoch: number;
}

/** The ledger a writer state names (present while ACTIVE or SEALING). */
interface WriterStateLedger {
  readonly ledgerId: bigint;
  readonly segmentSequence: number;
  readonly createdAtMillis: number;
}

/** One per stream: `P/streams/{sid}/bookkeeper/v1/writer-state`. */
export interface BookKeeperWriterState {
  readonly streamId: string;
  /** +1 per lifecycle transition or owner change (a CAS witness readable in logs). */
  readonly stateEpoch: number;
  readonly lifecycle: WriterStateLifecycle;
  readonly owner: LedgerOwner;
  /** Segment sequence the next allocated ledger gets (monotone; never reused). */
  readonly nextSegmentSequence: number;
  /** Present exactly when ACTIVE or SEALING. */
  readonly ledger: WriterStateLedger | undefined;
  /** Non-empty exactly when ALLOCATING: written into the new ledger's custom metadata (orphan discovery). */
  readonly allocationId: string;
  readonly updatedAtMillis: number;
}

/**
 * Ledger root lifecycle: ACTIVE → SEALING → SEALED (+ QUARANTINED when a sealed ledger's metadata is gone), written
 * by the WAL writer; then SEALED → MARKED → DELETING → DELETED (MARKED → SEALED on a veto), written only by the
 * ledger collector (src/reclamation/).
 */
export type LedgerRootLifecycle = "ACTIVE" | "SEALING" | "SEALED" | "MARKED" | "DELETING" | "DELETED" | "QUARANTINED";

/**
 * One per ledger: `P/physical-bookkeeper/v1/{shard03}/roots/{ledgerHash}`. Deleted only with the ledger's journal
 * entry, a tombstone period after BookKeeper deleted the ledger (ids come from BookKeeper's generator, which never
 * hands out an id twice).
 */
export interface BookKeeperLedgerRoot {
  readonly clusterAlias: string;
  readonly ledgerId: bigint;
  /** Hex SHA-256 of (clusterAlias ‖ 0 ‖ u64be(ledgerId)); the root's key identity. */
  readonly ledgerHash: string;
  readonly streamId: string;
  readonly segmentSequence: number;
  readonly allocationId: string;
  /** The owner that created the ledger (the only one that ever adds to it). */
  readonly owner: LedgerOwner;
  readonly ensembleSize: number;
  readonly writeQuorumSize: number;
  readonly ackQuorumSize: number;
  readonly digestType: DigestType;
  readonly lifecycle: LedgerRootLifecycle;
  /** +1 per lifecycle transition; protections record the epoch they were created under. */
  readonly lifecycleEpoch: number;
  readonly createdAtMillis: number;
  /** Entries in the sealed ledger (lastEntryId + 1); 0 unless SEALED. */
  readonly sealedEntryCount: number;
  /** Payload bytes of the sealed ledger; 0 unless SEALED. */
  readonly sealedLength: number;
}

/**
 * Kinds of range protection; the wire id is the key's `typeId02`. Only REACHABLE_APPEND is written today (by the
 * head transaction of the append that names the range); the others are reserved for the gen-0 index, append
 * recovery and materialization sources.
 */
export type RangeProtectionType =
  "REACHABLE_APPEND" | "VISIBLE_GENERATION" | "APPEND_RECOVERY" | "MATERIALIZATION_SOURCE";

/**
 * A durable reference to an exact entry range:
 * `P/physical-bookkeeper/v1/{shard03}/ledgers/{ledgerHash}/ranges/{firstEntryId19}/protections/{typeId02}`.
 * Removable only after its owner record (`ownerKey`) is proven retired; an unverifiable owner is a veto.
 */
export interface BookKeeperRangeProtection {
  readonly ledgerHash: string;
  readonly clusterAlias: string;
  readonly ledgerId: bigint;
  readonly firstEntryId: number;
  readonly entryCount: number;
  /** CRC32C of the concatenated entry payloads (the target's rangeChecksum). */
  readonly rangeChecksum: number;
  readonly type: RangeProtectionType;
  readonly streamId: string;
  /** Metadata key of the owner record (the commit intent for REACHABLE_APPEND). */
  readonly ownerKey: string;
  readonly rootLifecycleEpoch: number;
}

/** Durable wire ids of the enums above. Never renumber, never reuse a retired id. */
export const BookKeeperWalWireIds = {
  writerStateLifecycle: new WireEnum<WriterStateLifecycle>("WriterStateLifecycle", [
    ["IDLE", 1],
    ["ALLOCATING", 2],
    ["ACTIVE", 3],
    ["SEALING", 4],
  ]),
  ledgerRootLifecycle: new WireEnum<LedgerRootLifecycle>("LedgerRootLifecycle", [
    ["ACTIVE", 1],
    ["SEALING", 2],
    ["SEALED", 3],
    ["MARKED", 4],
    ["DELETING", 5],
    ["DELETED", 6],
    ["QUARANTINED", 7],
  ]),
  rangeProtectionType: new WireEnum<RangeProtectionType>("RangeProtectionType", [
    ["REACHABLE_APPEND", 1],
    ["VISIBLE_GENERATION", 2],
    ["APPEND_RECOVERY", 3],
    ["MATERIALIZATION_SOURCE", 4],
  ]),
  digestType: new WireEnum<DigestType>("DigestType", [
    ["CRC32", 1],
    ["HMAC", 2],
    ["CRC32C", 3],
    ["DUMMY", 4],
  ]),
} as const;

/** True when both name the same writer under the same epoch. */
export function sameOwner(a: LedgerOwner, b: LedgerOwner): boolean {
  return a.writerId === b.writerId && a.writerEpoch === b.writerEpoch;
}
