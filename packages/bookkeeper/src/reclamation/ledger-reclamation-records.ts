// The ledger reclamation journal (README, "Ledger reclamation"): one LedgerReclamation record per BookKeeper ledger a
// stream stopped relying on, under that stream. It is written in the same transaction that removed the stream's last
// range protections of the ledger (or by the orphan sweep for a ledger nothing ever protected), and every later step
// moves the ledger's root and the record together by compare-and-swap, so a collection resumes after a crash from
// metadata alone.
//   RELEASED — protections of the stream's released ranges are gone; the ledger may still have others.
//   MARKED   — no protection was left and the ledger is sealed; its root is MARKED until deleteNotBefore.
//   DELETING — grace over, still no protection, no read of this process pins it: its metadata is being deleted.
//   DELETED  — BookKeeper no longer knows the ledger (bookies garbage-collect its entries); root and record stay as a
//              tombstone for a while, then go.
import { WireEnum } from "@nereus/core/internal";

export type LedgerReclamationState = "RELEASED" | "MARKED" | "DELETING" | "DELETED";

/** One ledger in a stream's reclamation journal. Identity fields never change; times are 0 until reached. */
export interface LedgerReclamation {
  readonly streamId: string;
  readonly clusterAlias: string;
  readonly ledgerId: bigint;
  /** `ledgerHash(clusterAlias, ledgerId)` (the journal key's last component). */
  readonly ledgerHash: string;
  readonly state: LedgerReclamationState;
  /** Whether the orphan sweep journaled the ledger (no committed range ever named it). */
  readonly orphan: boolean;
  readonly releasedAtMillis: number;
  readonly markedAtMillis: number;
  /** The root may move to DELETING from this time on (mark time + grace period). */
  readonly deleteNotBeforeMillis: number;
  readonly deletedAtMillis: number;
  /** Payload bytes of the ledger, from its sealed root (0 until MARKED). */
  readonly ledgerLength: number;
}

/** Durable wire ids. Never renumber. */
export const LedgerReclamationWireIds = {
  state: new WireEnum<LedgerReclamationState>("LedgerReclamationState", [
    ["RELEASED", 1],
    ["MARKED", 2],
    ["DELETING", 3],
    ["DELETED", 4],
  ]),
} as const;
