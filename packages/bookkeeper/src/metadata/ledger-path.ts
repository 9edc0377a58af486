// Znode path of a ledger's metadata, as BookKeeper's ledger managers compute it:
//   hierarchical, id < 2^31-1:  10-digit zero-padded id split 2-4-4  → <root>/00/0000/L0001
//   otherwise (and always for longhierarchical): 19 digits split 3-4-4-4-4 → <root>/000/0000/0002/1474/L8364
import { ErrorCode, NereusError } from "@nereus/core";
import type { LedgerLayout } from "./ledger-layout.js";

const INT32_MAX = 0x7fff_ffffn;

/** The metadata znode path of `ledgerId` under `ledgersRoot` (e.g. "/ledgers"). Ledger ids are non-negative. */
export function ledgerPath(ledgersRoot: string, ledgerId: bigint, layout: LedgerLayout): string {
  if (ledgerId < 0n || ledgerId > (1n << 63n) - 1n) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `ledger id ${String(ledgerId)} is not a non-negative int64`);
  }
  const root = ledgersRoot.endsWith("/") ? ledgersRoot.slice(0, -1) : ledgersRoot;
  if (layout === "hierarchical" && ledgerId < INT32_MAX) {
    const digits = ledgerId.toString().padStart(10, "0");
    return `${root}/${digits.slice(0, 2)}/${digits.slice(2, 6)}/L${digits.slice(6, 10)}`;
  }
  const digits = ledgerId.toString().padStart(19, "0");
  return `${root}/${digits.slice(0, 3)}/${digits.slice(3, 7)}/${digits.slice(7, 11)}/${digits.slice(11, 15)}/L${digits.slice(15, 19)}`;
}
