// The start-up pass of storage reclamation: a broker that crashed may have left collections half done — objects and
// ledgers MARKED or DELETING in a stream's journal. Right after start the Object WAL collector runs every registered
// stream and the ledger collector sweeps (every root left MARKED, DELETING or DELETED names its stream), so each
// entry moves on from where it stopped; every step is idempotent, so replaying one that had applied changes nothing.
// One log line says what the pass resumed. It runs in the background: serving does not wait for it.
import type { BookKeeperLedgerReclaimer } from "@nereus/bookkeeper";
import type { StreamReclaimer } from "@nereus/object-wal";
import type { BrokerLogger } from "../logging/broker-logger.js";

/** What the start-up pass did. */
export interface ReclamationStartReport {
  readonly objectStreamsRun: number;
  readonly objectsDeleted: number;
  readonly objectsPending: number;
  readonly ledgerStreamsRun: number;
  readonly ledgersDeleted: number;
  readonly ledgersPending: number;
  readonly orphanLedgersFound: number;
  readonly failures: number;
  readonly durationMs: number;
}

/** Runs the start-up pass once (see the module comment) and logs its line. Never throws. */
export async function resumeReclamation(
  objects: Pick<StreamReclaimer, "runRegistered">,
  ledgers: Pick<BookKeeperLedgerReclaimer, "sweep"> | undefined,
  logger: BrokerLogger,
): Promise<ReclamationStartReport> {
  const started = Date.now();
  const objectRuns = await objects.runRegistered().catch(() => []);
  const sweep = await ledgers?.sweep();
  const ledgerRuns = sweep?.runs ?? [];
  const report: ReclamationStartReport = {
    objectStreamsRun: objectRuns.length,
    objectsDeleted: objectRuns.reduce((sum, run) => sum + run.objectsDeleted, 0),
    objectsPending: objectRuns.reduce((sum, run) => sum + run.pendingObjects, 0),
    ledgerStreamsRun: ledgerRuns.length,
    ledgersDeleted: ledgerRuns.reduce((sum, run) => sum + run.ledgersDeleted, 0),
    ledgersPending: ledgerRuns.reduce((sum, run) => sum + run.pendingLedgers, 0),
    orphanLedgersFound: (sweep?.orphanRootsJournaled ?? 0) + (sweep?.unrootedLedgersFound ?? 0),
    failures:
      objectRuns.filter((run) => run.error !== undefined).length +
      ledgerRuns.filter((run) => run.error !== undefined).length +
      (sweep?.error === undefined ? 0 : 1),
    durationMs: Date.now() - started,
  };
  logger.info("storage reclamation start-up pass", { ...report });
  return report;
}
