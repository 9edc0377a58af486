// The in-memory state of the segment layout: where each live key's body is, and per segment how many live puts it
// holds and which deletes in it still matter. Built by replaying every record in (segment, offset) order at open and
// kept current by applying each record once it is written. Pure bookkeeping: no I/O.
//
// A segment may be removed once nothing in it is needed: no live put, and every delete in it names a put whose
// segment is already removed for good (otherwise replaying without the delete would bring that put back).

/** Where a live key's body is. */
export interface SegmentLocation {
  readonly segment: number;
  /** Offset of the put record in its segment. */
  readonly recordOffset: number;
  /** Offset of the body in its segment. */
  readonly bodyOffset: number;
  readonly size: number;
  readonly crc32c: number;
}

/** A delete record: removes `key` if it is still the put at (`targetSegment`, `targetOffset`). */
export interface SegmentDelete {
  readonly key: string;
  readonly targetSegment: number;
  readonly targetOffset: number;
}

interface SegmentState {
  readonly seq: number;
  /** Bytes of records applied so far (the segment's valid length). */
  bytes: number;
  livePuts: number;
  liveBytes: number;
  /** The deletes in this one that named a segment still present when they were applied. */
  deletes: SegmentDelete[];
}

/** Live keys and per-segment accounting of the segment layout. */
export class SegmentIndex {
  readonly #entries = new Map<string, SegmentLocation>();
  readonly #segments = new Map<number, SegmentState>();

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): SegmentLocation | undefined {
    return this.#entries.get(key);
  }

  /** Every live key (unordered). */
  keys(): IterableIterator<string> {
    return this.#entries.keys();
  }

  /** Segments known (present on disk), ascending. */
  segments(): number[] {
    return [...this.#segments.keys()].sort((a, b) => a - b);
  }

  /** Valid bytes of `seq` (0 for an unknown segment). */
  segmentBytes(seq: number): number {
    return this.#segments.get(seq)?.bytes ?? 0;
  }

  /** Live puts in `seq`. */
  livePuts(seq: number): number {
    return this.#segments.get(seq)?.livePuts ?? 0;
  }

  /** Live body bytes of `seq`. */
  liveBytes(seq: number): number {
    return this.#segments.get(seq)?.liveBytes ?? 0;
  }

  /** Registers segment `seq` (empty) if it is not known yet. */
  addSegment(seq: number): void {
    if (!this.#segments.has(seq)) this.#segments.set(seq, { seq, bytes: 0, livePuts: 0, liveBytes: 0, deletes: [] });
  }

  /** A put record of `recordBytes` at `location`: the key now lives there (a later put of a key replaces it). */
  applyPut(key: string, location: SegmentLocation, recordBytes: number): void {
    const segment = this.#segment(location.segment);
    this.#drop(key);
    this.#entries.set(key, location);
    segment.livePuts += 1;
    segment.liveBytes += location.size;
    segment.bytes = Math.max(segment.bytes, location.recordOffset + recordBytes);
  }

  /**
   * A delete record in segment `seq` at `recordOffset` naming the put at (`targetSegment`, `targetOffset`): removes
   * the key if it is still that put. Returns true when it removed the key.
   */
  applyDelete(key: string, seq: number, recordOffset: number, recordBytes: number, targetSegment: number, targetOffset: number): boolean {
    const segment = this.#segment(seq);
    segment.bytes = Math.max(segment.bytes, recordOffset + recordBytes);
    // A delete of a put in a segment already gone is not needed by anyone.
    if (targetSegment !== seq && this.#segments.has(targetSegment)) segment.deletes.push({ key, targetSegment, targetOffset });
    const current = this.#entries.get(key);
    if (current === undefined || current.segment !== targetSegment || current.recordOffset !== targetOffset) return false;
    this.#drop(key);
    return true;
  }

  /** Segments below `active` that hold nothing needed (see the module comment), ascending. */
  removable(active: number): number[] {
    const result: number[] = [];
    for (const segment of this.#segments.values()) {
      if (segment.seq < active && segment.livePuts === 0 && this.neededDeletes(segment.seq).length === 0) result.push(segment.seq);
    }
    return result.sort((a, b) => a - b);
  }

  /** The deletes of `seq` whose target segment is still present (without them the target's puts would revive). */
  neededDeletes(seq: number): SegmentDelete[] {
    return (this.#segments.get(seq)?.deletes ?? []).filter((entry) => this.#segments.has(entry.targetSegment));
  }

  /** Forgets the deletes of `seq` (copies of the needed ones were written to a later segment). */
  dropDeletes(seq: number): void {
    const segment = this.#segments.get(seq);
    if (segment !== undefined) segment.deletes = [];
  }

  /** Live keys in segment `seq`. */
  keysIn(seq: number): string[] {
    const keys: string[] = [];
    for (const [key, location] of this.#entries) if (location.segment === seq) keys.push(key);
    return keys;
  }

  /** Forgets segment `seq` (its file is removed for good). It must hold no live put. */
  removeSegment(seq: number): void {
    const segment = this.#segments.get(seq);
    if (segment === undefined) return;
    if (segment.livePuts > 0) throw new Error(`segment ${String(seq)} still holds ${String(segment.livePuts)} live object(s)`);
    this.#segments.delete(seq);
  }

  #segment(seq: number): SegmentState {
    this.addSegment(seq);
    return this.#segments.get(seq) as SegmentState;
  }

  #drop(key: string): void {
    const old = this.#entries.get(key);
    if (old === undefined) return;
    this.#entries.delete(key);
    const segment = this.#segments.get(old.segment);
    if (segment !== undefined) {
      segment.livePuts -= 1;
      segment.liveBytes -= old.size;
    }
  }
}
