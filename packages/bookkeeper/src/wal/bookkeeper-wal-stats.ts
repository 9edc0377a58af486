// Counters of the BookKeeper WAL of one process: physical BookKeeper I/O (ledger creates, adds, recovery opens,
// reads) and ledger lifecycle events. Plain numbers, updated synchronously where the I/O is issued; tests use
// them to prove an append was refused before any BookKeeper I/O, benchmarks to report adds per append.

/** Counters; every field only grows. */
export class BookKeeperWalStats {
  /** `persist` calls that reached BookKeeper (writes of a prepared attempt). */
  persists = 0;
  /** Entries sent to `addEntry` (one per Nereus entry). */
  entriesAdded = 0;
  /** Framed bytes sent to `addEntry`. */
  bytesAdded = 0;
  /** Ledgers created. */
  ledgersCreated = 0;
  /** Ledgers sealed (own close or recovery-open of a previous owner's or a failed ledger). */
  ledgersSealed = 0;
  /** Recovery-opens (fencing another writer, or sealing a ledger this process can no longer write). */
  recoveryOpens = 0;
  /** Ledgers sealed because a limit (entries, bytes, age) was reached. */
  rollovers = 0;
  /** Writer-state takeovers from a previous owner. */
  takeovers = 0;
  /** Persists that failed at BookKeeper (the ledger is then sealed and never written again). */
  failedWrites = 0;
  /** Target ranges read. */
  rangesRead = 0;
  /** Entries read. */
  entriesRead = 0;
  /** Read-only ledger opens (cache misses). */
  ledgerOpens = 0;

  /** Every BookKeeper I/O operation issued: creates, adds, recovery opens, read opens and entry reads. */
  get bookKeeperIo(): number {
    return this.ledgersCreated + this.entriesAdded + this.recoveryOpens + this.ledgerOpens + this.entriesRead;
  }
}
