// Call counters of the in-memory MetadataStore, so tests can assert how many metadata round trips a code path costs.

/** Counters of calls that reached the store (after the closed/aborted/argument checks, faults included). */
export class MetadataStoreStats {
  gets = 0;
  getManys = 0;
  scans = 0;
  txns = 0;
  /** Every call that reached the store: reads, txns, lease operations and watch subscriptions. */
  roundTrips = 0;

  /** Sets every counter back to zero. */
  reset(): void {
    this.gets = 0;
    this.getManys = 0;
    this.scans = 0;
    this.txns = 0;
    this.roundTrips = 0;
  }
}
