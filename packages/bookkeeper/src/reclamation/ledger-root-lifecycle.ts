// The collector's moves of a ledger root, as a pure transition function: SEALED → MARKED → DELETING → DELETED, plus
// MARKED → SEALED (a range protection appeared while marked: the mark is vetoed). A root only leaves SEALED through
// here, ACTIVE and SEALING roots (a ledger still written or being sealed) are never marked, DELETING never goes back
// and DELETED is final. Every move adds one to the lifecycle epoch and is written by CAS on the root's exact
// revision, together with the journal entry that drives it.
import { ErrorCode, NereusError } from "@nereus/core";
import type { BookKeeperLedgerRoot, LedgerRootLifecycle } from "../wal/records/bookkeeper-wal-records.js";

const ALLOWED: ReadonlyMap<LedgerRootLifecycle, readonly LedgerRootLifecycle[]> = new Map([
  ["SEALED", ["MARKED"]],
  ["MARKED", ["SEALED", "DELETING"]],
  ["DELETING", ["DELETED"]],
]);

/** True when the collector may move a root from `from` to `to`. */
export function canMoveLedgerRoot(from: LedgerRootLifecycle, to: LedgerRootLifecycle): boolean {
  return ALLOWED.get(from)?.includes(to) ?? false;
}

/** `root` moved to `to` with the next lifecycle epoch; METADATA_INVARIANT_VIOLATION for a forbidden move. */
export function moveLedgerRoot(root: BookKeeperLedgerRoot, to: LedgerRootLifecycle): BookKeeperLedgerRoot {
  if (!canMoveLedgerRoot(root.lifecycle, to)) {
    throw new NereusError(
      ErrorCode.METADATA_INVARIANT_VIOLATION,
      `root of ledger ${String(root.ledgerId)} cannot move from ${root.lifecycle} to ${to}`,
      { retryable: false },
    );
  }
  return { ...root, lifecycle: to, lifecycleEpoch: root.lifecycleEpoch + 1 };
}
