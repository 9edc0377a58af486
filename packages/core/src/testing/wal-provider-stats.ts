// Call counters of the in-memory WAL provider, so tests can prove which code paths did physical I/O.

/** Counters of provider calls (faulted calls included). */
export class WalProviderStats {
  prepares = 0;
  /** `prepare` calls whose request said every payload was handed over (`payloadsHandedOver`). */
  handedOverPrepares = 0;
  /** Physical writes attempted (`persist` calls). */
  persists = 0;
  protects = 0;
  /** Physical reads (`readEntries` calls). */
  reads = 0;

  /** Physical I/O calls: persists + reads. */
  get physicalIo(): number {
    return this.persists + this.reads;
  }

  reset(): void {
    this.prepares = 0;
    this.handedOverPrepares = 0;
    this.persists = 0;
    this.protects = 0;
    this.reads = 0;
  }
}
