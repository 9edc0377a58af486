// How a journal entry names its ledger elsewhere: the root key (physical BookKeeper space) and the read-pin id
// (what reads of any range of the ledger pin, core's `physicalTargetId`).
import { ledgerRootKey } from "../wal/records/bookkeeper-wal-keys.js";
import type { LedgerReclamationContext } from "./ledger-reclamation-context.js";
import type { LedgerReclamation } from "./ledger-reclamation-records.js";

/** The root key of the entry's ledger. */
export function ledgerRootKeyOf(
  context: Pick<LedgerReclamationContext, "cluster">,
  entry: Pick<LedgerReclamation, "ledgerHash">,
): string {
  return ledgerRootKey(context.cluster, entry.ledgerHash);
}

/** The pin id reads of the entry's ledger use: `bookkeeper:{clusterAlias}/{ledgerId}`. */
export function ledgerPinId(entry: Pick<LedgerReclamation, "clusterAlias" | "ledgerId">): string {
  return `bookkeeper:${entry.clusterAlias}/${String(entry.ledgerId)}`;
}
