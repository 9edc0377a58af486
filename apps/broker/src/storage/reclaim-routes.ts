// Which collector looks after a stream, by its storage profile: the Object WAL collector (WAL objects, generation
// objects) for the Object WAL profiles; the BookKeeper ledger collector for BOOKKEEPER_WAL_ONLY; both for the
// BookKeeper object profiles (their ledgers, and the generation objects below the trim). A collector's run is reduced
// to "changed something or left something pending", which is what decides whether a follow-up run is worth it.
import type { StreamHead } from "@nereus/core";
import type { BookKeeperLedgerReclaimer, LedgerReclamationRunReport } from "@nereus/bookkeeper";
import type { ReclamationRunReport, StreamReclaimer } from "@nereus/object-wal";
import type { CollectionRoute, StreamCollection } from "./reclaim-after-trim.js";

/** Whether an Object WAL run changed anything or left objects pending. */
function objectRunChanged(report: ReclamationRunReport): boolean {
  return (
    report.error !== undefined ||
    report.pendingObjects > 0 ||
    report.targetsReleased > 0 ||
    report.metadataRecordsDeleted > 0 ||
    report.objectsDeleted > 0
  );
}

/** Whether a ledger run changed anything or left ledgers pending. */
function ledgerRunChanged(report: LedgerReclamationRunReport): boolean {
  return (
    report.error !== undefined ||
    report.pendingLedgers > 0 ||
    report.rangesReleased > 0 ||
    report.metadataRecordsDeleted > 0 ||
    report.ledgersDeleted > 0
  );
}

/** The route over the broker's collectors (`ledgers` only with BookKeeper). */
export function collectionRoute(collectors: {
  readonly objects: Pick<StreamReclaimer, "runStream">;
  readonly ledgers: Pick<BookKeeperLedgerReclaimer, "runStream"> | undefined;
}): CollectionRoute {
  const objects: StreamCollection = (streamId) => collectors.objects.runStream(streamId).then(objectRunChanged);
  const ledgerReclaimer = collectors.ledgers;
  const ledgers: StreamCollection[] =
    ledgerReclaimer === undefined ? [] : [(streamId) => ledgerReclaimer.runStream(streamId).then(ledgerRunChanged)];
  return (head: StreamHead) => {
    switch (head.profile) {
      case "OBJECT_WAL_SYNC_OBJECT":
      case "OBJECT_WAL_ASYNC_OBJECT":
        return [objects];
      case "BOOKKEEPER_WAL_ONLY":
        return ledgers;
      case "BOOKKEEPER_WAL_ASYNC_OBJECT":
      case "BOOKKEEPER_WAL_SYNC_OBJECT":
        return [...ledgers, objects];
      default:
        return [];
    }
  };
}
