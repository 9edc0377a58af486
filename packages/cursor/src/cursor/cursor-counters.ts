// Plain counters of a cursor's durable work, for benchmarks and diagnostics. One instance may be shared by every
// handle of a store (pass it in) or kept per handle. Only ever incremented; `reset()` zeroes them.

/** Counters of root writes, acks and snapshots. */
export class CursorCounters {
  /** Root transactions sent (successful, lost, failed or ambiguous). */
  casAttempts = 0;
  /** Root transactions that committed. */
  casCommits = 0;
  /** Root transactions that lost their compare (another version was current). */
  casConflicts = 0;
  /** Root transactions whose response was lost (resolved by reloading). */
  ambiguousWrites = 0;
  /** Ack calls that changed the state, committed. */
  acksCommitted = 0;
  /** Ack calls that found their ack already applied. */
  acksAlreadyApplied = 0;
  /** Committed root writes that carried acks (one per group commit). */
  ackCommits = 0;
  /** Snapshot objects created (including ones a lost CAS then orphaned). */
  snapshotsWritten = 0;
  /** Bytes of the snapshot objects created. */
  snapshotBytesWritten = 0;

  /** Sets every counter back to zero. */
  reset(): void {
    this.casAttempts = 0;
    this.casCommits = 0;
    this.casConflicts = 0;
    this.ambiguousWrites = 0;
    this.acksCommitted = 0;
    this.acksAlreadyApplied = 0;
    this.ackCommits = 0;
    this.snapshotsWritten = 0;
    this.snapshotBytesWritten = 0;
  }
}
