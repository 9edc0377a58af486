// The index of the segment layout: where each live key's body is, and per segment how many live puts it holds and
// which deletes in it still matter. Kept in a SQLite file beside the segments (`index.sqlite`), so memory stays
// bounded however many objects the store holds, and a reopen replays only the records written after the index's
// `applied` position (every record before it is in the index). It is a cache of the segments: it may lag them
// (recovery replays what is missing), and if it cannot be opened it is rebuilt from them.
//
// A segment may be removed once nothing in it is needed: no live put, and every delete in it names a put whose
// segment is already removed for good (otherwise replaying without the delete would bring that put back).
import type Database from "better-sqlite3";

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

/** Every record before (`segment`, `offset`) is in the index. */
export interface AppliedPosition {
  readonly segment: number;
  readonly offset: number;
}

const FORMAT_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS objects (
  key TEXT PRIMARY KEY, segment INTEGER NOT NULL, record_offset INTEGER NOT NULL, body_offset INTEGER NOT NULL,
  size INTEGER NOT NULL, crc INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS objects_by_segment ON objects (segment);
CREATE TABLE IF NOT EXISTS segments (seq INTEGER PRIMARY KEY, bytes INTEGER NOT NULL, live_puts INTEGER NOT NULL, live_bytes INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS deletes (segment INTEGER NOT NULL, key TEXT NOT NULL, target_segment INTEGER NOT NULL, target_offset INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS deletes_by_segment ON deletes (segment);
INSERT OR IGNORE INTO meta (name, value) VALUES ('format_version', ${String(FORMAT_VERSION)}), ('applied_segment', 0), ('applied_offset', 0);
`;

interface LocationRow {
  segment: number;
  record_offset: number;
  body_offset: number;
  size: number;
  crc: number;
}

/** Live keys and per-segment accounting of the segment layout, in SQLite. Not safe for two processes. */
export class SegmentIndex {
  readonly #db: Database.Database;
  readonly #statements: ReturnType<typeof prepare>;
  /** One transaction wrapper for every call (better-sqlite3 builds a new one per `db.transaction`). */
  readonly #inTransaction: (apply: () => unknown) => unknown;
  /** The segment `addSegment` registered last (while it is not removed, registering it again is a no-op). */
  #lastAdded = 0;

  private constructor(db: Database.Database) {
    this.#db = db;
    this.#statements = prepare(db);
    this.#inTransaction = db.transaction((apply: () => unknown) => apply());
  }

  /**
   * Opens (creating) the index at `file` (":memory:" for tests) with better-sqlite3's `Database` class (loaded by the
   * caller, load-better-sqlite3.ts). Throws when the file is not a usable index (the caller rebuilds it from the
   * segments).
   */
  static open(file: string, Sqlite: typeof Database): SegmentIndex {
    const db = new Sqlite(file);
    try {
      // One store owns the directory (segment-lock.ts): no shared-memory file, no locking per transaction.
      db.pragma("locking_mode = EXCLUSIVE");
      if (file !== ":memory:" && db.pragma("journal_mode = WAL", { simple: true }) !== "wal")
        throw new Error("could not enable WAL journal mode");
      // A cache of the segments: commits need not reach the disk; WAL mode keeps the file consistent after a crash.
      db.pragma("synchronous = NORMAL");
      db.exec(SCHEMA);
      const version = (db.prepare("SELECT value FROM meta WHERE name = 'format_version'").get() as { value: number })
        .value;
      if (version !== FORMAT_VERSION)
        throw new Error(`segment index format ${String(version)} is not ${String(FORMAT_VERSION)}`);
      return new SegmentIndex(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  /** Runs `apply` as one transaction (all of it or none of it reaches the index). */
  transaction<T>(apply: () => T): T {
    return this.#inTransaction(apply) as T;
  }

  get applied(): AppliedPosition {
    return {
      segment: (this.#statements.selectMeta.get("applied_segment") as { value: number }).value,
      offset: (this.#statements.selectMeta.get("applied_offset") as { value: number }).value,
    };
  }

  /** Records that every record before (`segment`, `offset`) is applied. */
  setApplied(position: AppliedPosition): void {
    this.#statements.updateApplied.run(position.segment, position.offset);
  }

  get size(): number {
    return (this.#statements.countObjects.get() as { count: number }).count;
  }

  get(key: string): SegmentLocation | undefined {
    const row = this.#statements.selectObject.get(key) as LocationRow | undefined;
    return row === undefined
      ? undefined
      : {
          segment: row.segment,
          recordOffset: row.record_offset,
          bodyOffset: row.body_offset,
          size: row.size,
          crc32c: row.crc,
        };
  }

  /** Live keys starting with `prefix`, after `after` (UTF-8 byte order: SQLite's binary collation), ascending. */
  list(prefix: string, after: string | undefined, limit: number): { key: string; size: number }[] {
    const found: { key: string; size: number }[] = [];
    const rows =
      after !== undefined && after >= prefix
        ? this.#statements.listAfter.iterate(after)
        : this.#statements.listFrom.iterate(prefix);
    for (const row of rows as Iterable<{ key: string; size: number }>) {
      if (!row.key.startsWith(prefix) || found.length >= limit) break;
      found.push({ key: row.key, size: row.size });
    }
    return found;
  }

  /** Segments known (present on disk), ascending. */
  segments(): number[] {
    return (this.#statements.selectSegments.all() as { seq: number }[]).map((row) => row.seq);
  }

  /** Whether segment `seq` is known. */
  hasSegment(seq: number): boolean {
    return this.#segment(seq) !== undefined;
  }

  /** Valid bytes of `seq` (0 for an unknown segment). */
  segmentBytes(seq: number): number {
    return this.#segment(seq)?.bytes ?? 0;
  }

  /** Live puts in `seq`. */
  livePuts(seq: number): number {
    return this.#segment(seq)?.live_puts ?? 0;
  }

  /** Live body bytes of `seq`. */
  liveBytes(seq: number): number {
    return this.#segment(seq)?.live_bytes ?? 0;
  }

  /** Registers segment `seq` (empty) if it is not known yet. */
  addSegment(seq: number): void {
    if (seq === this.#lastAdded) return;
    this.#statements.insertSegment.run(seq);
    this.#lastAdded = seq;
  }

  /** A put record of `recordBytes` at `location`: the key now lives there (a later put of a key replaces it). */
  applyPut(key: string, location: SegmentLocation, recordBytes: number): void {
    this.addSegment(location.segment);
    const values = [
      key,
      location.segment,
      location.recordOffset,
      location.bodyOffset,
      location.size,
      location.crc32c,
    ] as const;
    // The usual case is a new key: one insert. A key already there (compaction moved it) is replaced.
    if (this.#statements.insertObject.run(...values).changes === 0) {
      this.#drop(key);
      this.#statements.insertObject.run(...values);
    }
    this.#statements.addPut.run(location.size, location.recordOffset + recordBytes, location.segment);
  }

  /**
   * A delete record in segment `seq` at `recordOffset` naming the put at (`targetSegment`, `targetOffset`): removes
   * the key if it is still that put. Returns true when it removed the key.
   */
  applyDelete(
    key: string,
    seq: number,
    recordOffset: number,
    recordBytes: number,
    targetSegment: number,
    targetOffset: number,
  ): boolean {
    this.addSegment(seq);
    this.#statements.growSegment.run(recordOffset + recordBytes, seq);
    // A delete of a put in a segment already gone is not needed by anyone.
    if (targetSegment !== seq && this.#segment(targetSegment) !== undefined)
      this.#statements.insertDelete.run(seq, key, targetSegment, targetOffset);
    const current = this.get(key);
    if (current === undefined || current.segment !== targetSegment || current.recordOffset !== targetOffset)
      return false;
    this.#drop(key);
    return true;
  }

  /** Segments below `limit` that hold nothing needed (see the module comment), ascending. */
  removable(limit: number): number[] {
    return (this.#statements.selectRemovable.all(limit) as { seq: number }[]).map((row) => row.seq);
  }

  /**
   * The segment below `limit` with the smallest share of live bytes, if that share is below `below` and the segment
   * holds something to move (a live put, or a delete that still matters).
   */
  sparsest(limit: number, below: number): number | undefined {
    return (this.#statements.selectSparsest.get(limit, below) as { seq: number } | undefined)?.seq;
  }

  /** The deletes of `seq` whose target segment is still present (without them the target's puts would revive). */
  neededDeletes(seq: number): SegmentDelete[] {
    return (
      this.#statements.selectNeededDeletes.all(seq) as { key: string; target_segment: number; target_offset: number }[]
    ).map((row) => ({
      key: row.key,
      targetSegment: row.target_segment,
      targetOffset: row.target_offset,
    }));
  }

  /** Forgets the deletes of `seq` (copies of the needed ones were written to a later segment). */
  dropDeletes(seq: number): void {
    this.#statements.deleteDeletes.run(seq);
  }

  /** Live keys in segment `seq`. */
  keysIn(seq: number): string[] {
    return (this.#statements.selectKeysIn.all(seq) as { key: string }[]).map((row) => row.key);
  }

  /** Forgets segment `seq` (its file is removed for good). It must hold no live put. */
  removeSegment(seq: number): void {
    const live = this.livePuts(seq);
    if (live > 0) throw new Error(`segment ${String(seq)} still holds ${String(live)} live object(s)`);
    this.#statements.deleteSegment.run(seq);
    this.#statements.deleteDeletes.run(seq);
    if (seq === this.#lastAdded) this.#lastAdded = 0;
  }

  /**
   * Forgets every put of `seq` that does not end by `offset` and sets its size to `offset`: records a crash cut off before
   * they reached the disk while the index had them (possible only without fsync). Deletes cut off stay applied.
   */
  truncateSegment(seq: number, offset: number): void {
    for (const row of this.#statements.selectKeysEndingAfter.all(seq, offset) as { key: string }[]) this.#drop(row.key);
    this.#statements.setSegmentBytes.run(offset, seq);
  }

  #segment(seq: number): { bytes: number; live_puts: number; live_bytes: number } | undefined {
    return this.#statements.selectSegment.get(seq) as
      { bytes: number; live_puts: number; live_bytes: number } | undefined;
  }

  #drop(key: string): void {
    const old = this.get(key);
    if (old === undefined) return;
    this.#statements.deleteObject.run(key);
    this.#statements.addLive.run(-1, -old.size, old.segment);
  }
}

function prepare(db: Database.Database) {
  return {
    selectMeta: db.prepare("SELECT value FROM meta WHERE name = ?"),
    updateApplied: db.prepare(
      "UPDATE meta SET value = CASE name WHEN 'applied_segment' THEN ? ELSE ? END WHERE name IN ('applied_segment', 'applied_offset')",
    ),
    countObjects: db.prepare("SELECT count(*) AS count FROM objects"),
    selectObject: db.prepare("SELECT segment, record_offset, body_offset, size, crc FROM objects WHERE key = ?"),
    insertObject: db.prepare(
      "INSERT INTO objects (key, segment, record_offset, body_offset, size, crc) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
    ),
    deleteObject: db.prepare("DELETE FROM objects WHERE key = ?"),
    listFrom: db.prepare("SELECT key, size FROM objects WHERE key >= ? ORDER BY key"),
    listAfter: db.prepare("SELECT key, size FROM objects WHERE key > ? ORDER BY key"),
    selectKeysIn: db.prepare("SELECT key FROM objects WHERE segment = ?"),
    selectKeysEndingAfter: db.prepare("SELECT key FROM objects WHERE segment = ? AND body_offset + size > ?"),
    selectSegments: db.prepare("SELECT seq FROM segments ORDER BY seq"),
    selectSegment: db.prepare("SELECT bytes, live_puts, live_bytes FROM segments WHERE seq = ?"),
    insertSegment: db.prepare("INSERT OR IGNORE INTO segments (seq, bytes, live_puts, live_bytes) VALUES (?, 0, 0, 0)"),
    addLive: db.prepare("UPDATE segments SET live_puts = live_puts + ?, live_bytes = live_bytes + ? WHERE seq = ?"),
    addPut: db.prepare(
      "UPDATE segments SET live_puts = live_puts + 1, live_bytes = live_bytes + ?, bytes = max(bytes, ?) WHERE seq = ?",
    ),
    growSegment: db.prepare("UPDATE segments SET bytes = max(bytes, ?) WHERE seq = ?"),
    setSegmentBytes: db.prepare("UPDATE segments SET bytes = ? WHERE seq = ?"),
    deleteSegment: db.prepare("DELETE FROM segments WHERE seq = ?"),
    insertDelete: db.prepare("INSERT INTO deletes (segment, key, target_segment, target_offset) VALUES (?, ?, ?, ?)"),
    deleteDeletes: db.prepare("DELETE FROM deletes WHERE segment = ?"),
    selectNeededDeletes: db.prepare(
      "SELECT key, target_segment, target_offset FROM deletes d WHERE d.segment = ? AND EXISTS (SELECT 1 FROM segments t WHERE t.seq = d.target_segment)",
    ),
    selectSparsest: db.prepare(
      `SELECT seq FROM segments s
       WHERE s.seq < ? AND (CASE WHEN s.bytes = 0 THEN 0.0 ELSE s.live_bytes * 1.0 / s.bytes END) < ?
         AND (s.live_puts > 0 OR EXISTS (SELECT 1 FROM deletes d JOIN segments t ON t.seq = d.target_segment WHERE d.segment = s.seq))
       ORDER BY (CASE WHEN s.bytes = 0 THEN 0.0 ELSE s.live_bytes * 1.0 / s.bytes END), s.seq
       LIMIT 1`,
    ),
    selectRemovable: db.prepare(
      `SELECT seq FROM segments s WHERE s.seq < ? AND s.live_puts = 0
         AND NOT EXISTS (SELECT 1 FROM deletes d JOIN segments t ON t.seq = d.target_segment WHERE d.segment = s.seq)
       ORDER BY seq`,
    ),
  };
}
