// Counters of a storage collector, for metrics: what it freed by kind of physical thing, what waits for deletion,
// how many runs and failures. Plain fields a metrics registry reads when scraped; the collector updates them.

/** Counters of one collector (monotone unless said otherwise). */
export class ReclamationStats {
  /** Collection runs started. */
  runs = 0;
  /** Runs that ended with an error (the next run resumes where it stopped). */
  failures = 0;
  /** Targets (object slices, generations) a stream stopped relying on. */
  targetsReleased = 0;
  /** Metadata records deleted (intents, markers, index entries, protections, journal entries, roots). */
  metadataRecordsDeleted = 0;
  /** Roots moved back to ACTIVE because a reference appeared while they were marked. */
  vetoes = 0;
  /** Transactions that lost a compare (someone moved first; the next run plans again). */
  conflicts = 0;
  /** Physical deletes sent (a retried delete after a lost response counts again). */
  deletesSent = 0;
  /** Bytes freed, by kind of physical thing (e.g. "OBJECT_WAL", "STREAM_GENERATION"). */
  readonly bytesFreed = new Map<string, number>();
  /** Physical things freed, by kind. */
  readonly objectsFreed = new Map<string, number>();
  /** Gauge: things marked or being deleted, as of each stream's last run. */
  readonly #pendingByStream = new Map<string, { readonly objects: number; readonly bytes: number }>();

  /** Records that `kind` freed one thing of `bytes`. */
  freed(kind: string, bytes: number): void {
    this.bytesFreed.set(kind, (this.bytesFreed.get(kind) ?? 0) + bytes);
    this.objectsFreed.set(kind, (this.objectsFreed.get(kind) ?? 0) + 1);
  }

  /** Sets `streamId`'s pending deletions (0 objects forgets the stream). */
  setPending(streamId: string, objects: number, bytes: number): void {
    if (objects === 0) this.#pendingByStream.delete(streamId);
    else this.#pendingByStream.set(streamId, { objects, bytes });
  }

  /** Gauge: physical things marked or being deleted. */
  get pendingObjects(): number {
    let total = 0;
    for (const pending of this.#pendingByStream.values()) total += pending.objects;
    return total;
  }

  /** Gauge: bytes of the physical things marked or being deleted. */
  get pendingBytes(): number {
    let total = 0;
    for (const pending of this.#pendingByStream.values()) total += pending.bytes;
    return total;
  }
}
