// The segment layout of the filesystem store (docs/segment-layout.md): objects up to a size limit are appended as
// NSR1 records to numbered segment files instead of one file each. A put is one positional write into the active
// segment plus one fdatasync shared by every record written meanwhile (group commit): no inode to allocate, no
// link(2), no directory fsync per object. An index in SQLite beside the segments (segment-index.ts) maps keys to
// their bodies. Deletes append targeted delete records; a segment whose records are no longer needed is unlinked, and a
// sealed segment holding little live data is compacted (its live objects re-appended, then it is unlinked). Reads of
// the newest segments run on the calling thread (hot-segment-reads.ts), older ones on a publish worker.
//
// Invariants: writes are appended strictly in order by one worker, one job at a time (a second job may wait in the
// worker's queue, and is refused there when the one before it failed); a record is visible (index)
// only once written — and fdatasynced, with durability "fsync"; the active segment is fdatasynced and closed before
// the next one is created. A write that failed for lack of space (ENOSPC, EDQUOT: a full disk) wrote nothing
// acknowledged: the next append first cuts the segment back to its last acknowledged record (segment-tail-repair.ts)
// and then goes on, so writes resume by themselves once the disk has room. Any other write or sync failure fails the
// layout (every later call is refused until the store is reopened, when recovery cuts what was torn), because after
// a failed fdatasync the file's state is unknown. A failed index update fails nothing: the records stay held in
// memory and are applied once the index accepts writes again (deferred-index-puts.ts). Every outcome is reported to
// the store's write health (../store-write-health.ts).
import path from "node:path";
import { unlink } from "node:fs/promises";
import {
  ErrorCode,
  NereusError,
  SharedDurabilityGates,
  crc32c,
  type DurabilityGate,
  type LatencySnapshot,
  type ObjectInfo,
} from "@nereus/core";
import type { FilePublishPool } from "../publish-worker/file-publish-worker.js";
import {
  FOLLOWER_REFUSED_CODE,
  type PublishError,
  type SegmentWriteOutcome,
  type SegmentWriteRecord,
} from "../publish-worker/publish-jobs.js";
import { fsyncDirectory, makeDirectories } from "../durable-directories.js";
import { mapFileSystemError } from "../map-file-system-error.js";
import { StoreWriteHealthTracker } from "../store-write-health.js";
import { DeferredIndexPuts, type HeldRecord } from "./deferred-index-puts.js";
import type { SegmentIndex, SegmentLocation } from "./segment-index.js";
import { lockSegmentDirectory, type SegmentLock } from "./segment-lock.js";
import { DEFAULT_HOT_READ_SEGMENTS, HotSegmentReads, type HotSegmentReadsStats } from "./hot-segment-reads.js";
import { DEFAULT_LENT_READ_BUFFER_BYTES, type LentReadBuffersStats } from "./lent-read-buffers.js";
import { loadBetterSqlite3 } from "./load-better-sqlite3.js";
import { type RecoveredSegments, recoverSegments, segmentFileName } from "./segment-recovery.js";
import { isNoSpaceError, repairSegmentTail } from "./segment-tail-repair.js";
import { MAX_SEGMENT_OFFSET, encodeSegmentRecordHead } from "./segment-record.js";

/**
 * Largest `segmentBytes`: a segment may exceed it by one record, and a record is at most an object the store routes
 * here (bounded by the same limit), so every offset stays a u32.
 */
export const MAX_SEGMENT_BYTES = Math.floor(MAX_SEGMENT_OFFSET / 4);

/** A body in shared memory registered with the publish workers (see ../shared-body-pool.ts). */
export interface SharedBody {
  readonly id: number;
  readonly buffer: SharedArrayBuffer;
  readonly start: number;
  readonly length: number;
}

export interface SegmentLogOptions {
  /** The segment directory (created if missing). */
  readonly directory: string;
  readonly pool: FilePublishPool;
  /** fdatasync before a put or delete resolves (false: os-buffered). */
  readonly fsync: boolean;
  /** A segment is sealed once the next record would take it past this many bytes. */
  readonly segmentBytes: number;
  /** Compact a sealed segment once its live bytes fall below this fraction of its size (0 disables). */
  readonly compactBelow: number;
  /**
   * How many of the newest segments are read on the calling thread instead of a worker (default
   * {@link DEFAULT_HOT_READ_SEGMENTS}; 0: every read goes to a worker). See hot-segment-reads.ts.
   */
  readonly hotReadSegments?: number;
  /** Bytes of reusable buffers for those reads (default {@link DEFAULT_LENT_READ_BUFFER_BYTES}). See lent-read-buffers.ts. */
  readonly hotReadBufferBytes?: number;
  /** Where write failures and recoveries are reported (default: a tracker of its own). */
  readonly health?: StoreWriteHealthTracker;
}

interface PendingRecord {
  readonly key: string;
  /** Settles with false when the record was skipped because its key exists as an object file. */
  readonly resolve: (written: boolean) => void;
  readonly head: Uint8Array;
  readonly write: SegmentWriteRecord;
  readonly bytes: number;
  readonly delete?: { readonly segment: number; readonly offset: number };
  readonly size: number;
  readonly crc32c: number;
  readonly reject: (error: NereusError) => void;
  /** The sequence of the durability gate this record opens once written (0: none). */
  readonly gateSequence?: number;
}

/** A write job sent to the worker, settled in the order sent. */
interface InFlightJob {
  readonly batch: readonly PendingRecord[];
  readonly outcome: Promise<SegmentWriteOutcome>;
  /** Where its first record goes in the active segment. */
  readonly position: number;
  readonly bytes: number;
  /** Whether the worker may skip one of its records (`unlessFile`), so that later records land elsewhere. */
  readonly mayShift: boolean;
  /** The highest gate sequence among its records (0: none). */
  readonly gateSequence: number;
}

/**
 * Write jobs in flight at once: one being written and synced by the worker and the next one waiting in its queue, so
 * the next write starts right after the previous sync instead of after its answer reached this thread.
 */
export const MAX_SEGMENT_JOBS_IN_FLIGHT = 2;

/** Counters for tests, logs and metrics. */
export class SegmentLogStats {
  writeJobs = 0;
  /** Write jobs sent while another one was in flight (see MAX_SEGMENT_JOBS_IN_FLIGHT). */
  followingJobs = 0;
  records = 0;
  segmentsRemoved = 0;
  objectsCompacted = 0;
}

/** See the module comment. Create with `SegmentLog.open`. */
export class SegmentLog {
  readonly stats = new SegmentLogStats();
  /** Reads of recent segments on the calling thread. */
  readonly #hot: HotSegmentReads;
  /** What recovery found at open (a torn tail it cut, if any). */
  readonly recovered: Omit<RecoveredSegments, "index">;
  readonly #directory: string;
  readonly #pool: FilePublishPool;
  readonly #fsync: boolean;
  readonly #segmentBytes: number;
  readonly #compactBelow: number;
  readonly #index: SegmentIndex;
  /** Put records on their way to the index (lookups go through it). */
  readonly #puts: DeferredIndexPuts;
  readonly #lock: SegmentLock;
  #active: { seq: number; bytes: number; created: boolean };
  #queue: PendingRecord[] = [];
  /** Write jobs sent to the worker and not settled yet, oldest first, and their bytes. */
  readonly #inFlight: InFlightJob[] = [];
  #inFlightBytes = 0;
  /** Whether a dispatch of the next job behind the one in flight is scheduled for the end of this turn. */
  #followerScheduled = false;
  /** That dispatch (one function for the log's lifetime: no closure per scheduled job). */
  readonly #dispatchFollower = (): void => {
    this.#followerScheduled = false;
    this.#dispatch();
  };
  /** The latest drain (close waits for it) and whether one is running. */
  #draining: Promise<void> | undefined;
  #drainRunning = false;
  #housekeeping: Promise<void> | undefined;
  #housekeepingAgain = false;
  /** Keys being re-appended by compaction: a delete of one waits for its move. */
  readonly #moving = new Map<string, Promise<boolean>>();
  /** Keys with a delete queued but not yet applied: compaction must not re-append them behind it. */
  readonly #deleting = new Map<string, number>();
  #failure: NereusError | undefined;
  /** Whether `#failure` is a lack of space that the next append repairs (see the module comment). */
  #repairable = false;
  readonly #health: StoreWriteHealthTracker;
  #closed = false;
  /**
   * Gates of `putGated` records: opened by the writing worker right after the job's fdatasync. Replaced by a new set
   * when records are given up unwritten (their gates fail with the old set), so later records never share a failed set.
   */
  #gates = new SharedDurabilityGates();
  /** Keys of gated puts not written yet: a read of one waits for its write. */
  readonly #gatedInFlight = new Map<string, Promise<unknown>>();

  private constructor(options: SegmentLogOptions, recovered: RecoveredSegments, lock: SegmentLock) {
    this.#directory = options.directory;
    this.#pool = options.pool;
    this.#fsync = options.fsync;
    this.#segmentBytes = options.segmentBytes;
    this.#compactBelow = options.compactBelow;
    this.#hot = new HotSegmentReads((seq) => this.#path(seq), {
      window: options.hotReadSegments ?? DEFAULT_HOT_READ_SEGMENTS,
      bufferBytes: options.hotReadBufferBytes ?? DEFAULT_LENT_READ_BUFFER_BYTES,
    });
    this.#index = recovered.index;
    this.#health = options.health ?? new StoreWriteHealthTracker();
    this.#puts = new DeferredIndexPuts(recovered.index, {
      onFailure: (error) =>
        this.#health.failed(
          "segment-index",
          new NereusError(ErrorCode.OBJECT_UPLOAD_FAILED, `segment index update failed: ${String(error)}`, {
            retryable: true,
            cause: error,
          }),
        ),
      onRecovered: () => this.#health.succeeded("segment-index"),
    });
    this.#lock = lock;
    const { index: _index, ...summary } = recovered;
    this.recovered = summary;
    this.#active =
      recovered.last === 0
        ? { seq: recovered.next, bytes: 0, created: false }
        : { seq: recovered.last, bytes: recovered.lastBytes, created: true };
  }

  /**
   * Locks `directory`, replays its segments (cutting a torn tail) and returns the open log. Loads better-sqlite3
   * for the index first: without it, throws `DEPENDENCY_UNAVAILABLE` before touching the directory.
   */
  static async open(options: SegmentLogOptions): Promise<SegmentLog> {
    if (
      !Number.isSafeInteger(options.segmentBytes) ||
      options.segmentBytes < 1 ||
      options.segmentBytes > MAX_SEGMENT_BYTES
    ) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `segmentBytes must be an integer in [1, ${String(MAX_SEGMENT_BYTES)}], got ${String(options.segmentBytes)}`,
        { retryable: false },
      );
    }
    if (
      options.hotReadSegments !== undefined &&
      !(Number.isSafeInteger(options.hotReadSegments) && options.hotReadSegments >= 0)
    ) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `hotReadSegments must be a non-negative integer, got ${String(options.hotReadSegments)}`,
        { retryable: false },
      );
    }
    if (
      options.hotReadBufferBytes !== undefined &&
      !(Number.isSafeInteger(options.hotReadBufferBytes) && options.hotReadBufferBytes >= 0)
    ) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `hotReadBufferBytes must be a non-negative integer, got ${String(options.hotReadBufferBytes)}`,
        { retryable: false },
      );
    }
    if (!(options.compactBelow >= 0 && options.compactBelow < 1)) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `compactBelow must be in [0, 1), got ${String(options.compactBelow)}`,
        { retryable: false },
      );
    }
    const Sqlite = await loadBetterSqlite3();
    await makeDirectories(options.directory);
    const lock = await lockSegmentDirectory(options.directory);
    try {
      const recovered = await recoverSegments(options.directory, Sqlite);
      const log = new SegmentLog(options, recovered, lock);
      log.#scheduleHousekeeping();
      return log;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Counters of the reads served on the calling thread (see hot-segment-reads.ts). */
  get hotReads(): HotSegmentReadsStats {
    return this.#hot.stats;
  }

  /** Counters of the reusable buffers those reads land in (see lent-read-buffers.ts). */
  get hotReadBuffers(): LentReadBuffersStats {
    return this.#hot.buffers;
  }

  /** Durations of the reads served on the calling thread. */
  hotReadTimings(): LatencySnapshot {
    return this.#hot.timings();
  }

  /** The live object `key` in this layout, if any. */
  info(key: string): ObjectInfo | undefined {
    const location = this.#puts.get(key);
    return location === undefined ? undefined : { key, size: location.size, crc32c: location.crc32c };
  }

  /** Settles once a gated put of `key` still in flight ended (undefined when there is none). */
  whenWritten(key: string): Promise<unknown> | undefined {
    return this.#gatedInFlight.get(key);
  }

  /** Live keys starting with `prefix`, after `after` (UTF-8 byte order), ascending, at most `limit`. */
  list(prefix: string, after: string | undefined, limit: number): ObjectInfo[] {
    this.#puts.flush();
    return this.#index.list(prefix, after, limit);
  }

  /**
   * Appends `key` (which must not be live here; the caller serializes puts of one key). Resolves true once the record
   * is written (and synced, with fsync) and indexed; false, writing nothing, when file `unlessFile` exists (checked
   * by the writing worker, in order with the write). `crc` is the body's CRC32C.
   */
  async put(key: string, body: Uint8Array | SharedBody, crc: number, unlessFile?: string): Promise<boolean> {
    this.#check("put", key);
    const size = body.length;
    const head = encodeSegmentRecordHead({ kind: "put", key, bodyLength: size, bodyCrc32c: crc });
    const source = body instanceof Uint8Array ? { body } : { memory: body };
    const write: SegmentWriteRecord = unlessFile === undefined ? { head, ...source } : { head, ...source, unlessFile };
    return this.#append({ key, head, write, bytes: head.length + size, size, crc32c: crc });
  }
  /**
   * Appends `key` like `put` (no `unlessFile`: the caller made sure no object file holds the key) and returns at
   * once: `gate` opens as soon as the record is written and synced — the writing worker opens it, before this
   * thread hears of the write — and fails with the layout; `written` settles like `put`. Until it settles, `read`
   * and `whenWritten` of the key wait for it.
   */
  putGated(
    key: string,
    body: Uint8Array | SharedBody,
    crc: number,
  ): { readonly gate: DurabilityGate; readonly written: Promise<boolean> } {
    this.#check("put", key);
    const size = body.length;
    const head = encodeSegmentRecordHead({ kind: "put", key, bodyLength: size, bodyCrc32c: crc });
    const write: SegmentWriteRecord = body instanceof Uint8Array ? { head, body } : { head, memory: body };
    const sequence = this.#gates.nextSequence();
    const written = this.#append({
      key,
      head,
      write,
      bytes: head.length + size,
      size,
      crc32c: crc,
      gateSequence: sequence,
    });
    const settled = written.finally(() => {
      if (this.#gatedInFlight.get(key) === settled) this.#gatedInFlight.delete(key);
    });
    settled.catch(() => undefined);
    this.#gatedInFlight.set(key, settled);
    const durable = written.then(() => undefined);
    durable.catch(() => undefined);
    return { gate: { durable, accelerations: { shared: { words: this.#gates.words, sequence } } }, written };
  }

  /** Deletes those of `keys` that are live here; returns the others (not in this layout). */
  async delete(keys: readonly string[]): Promise<string[]> {
    const others: string[] = [];
    const appends: Promise<boolean>[] = [];
    for (const key of keys) {
      const moving = this.#moving.get(key);
      if (moving !== undefined) await moving.catch(() => undefined);
      const location = this.#puts.get(key);
      if (location === undefined) {
        others.push(key);
        continue;
      }
      this.#check("delete", key);
      const head = encodeSegmentRecordHead({
        kind: "delete",
        key,
        targetSegment: location.segment,
        targetOffset: location.recordOffset,
      });
      this.#deleting.set(key, (this.#deleting.get(key) ?? 0) + 1);
      const written = this.#append({
        key,
        head,
        write: { head },
        bytes: head.length,
        size: 0,
        crc32c: 0,
        delete: { segment: location.segment, offset: location.recordOffset },
      });
      appends.push(
        written.finally(() => {
          const left = (this.#deleting.get(key) ?? 1) - 1;
          if (left === 0) this.#deleting.delete(key);
          else this.#deleting.set(key, left);
        }),
      );
    }
    await Promise.all(appends);
    if (appends.length > 0) this.#scheduleHousekeeping();
    return others;
  }

  /**
   * The body of `key` (or `range` of it); undefined when `key` is not live here. Whole reads are verified against
   * the stored CRC32C.
   */
  async read(
    key: string,
    range: { readonly offset: number; readonly length: number } | undefined,
  ): Promise<Uint8Array | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      const location = this.#puts.get(key);
      if (location === undefined) {
        const writing = this.#gatedInFlight.get(key);
        if (writing === undefined) return undefined;
        await writing.catch(() => undefined);
        continue;
      }
      if (range !== undefined && range.offset + range.length > location.size) {
        throw new NereusError(
          ErrorCode.INVALID_ARGUMENT,
          `range [${String(range.offset)}, +${String(range.length)}) lies outside object ${key} of ${String(location.size)} byte(s)`,
          { retryable: false, details: { key, offset: range.offset, length: range.length, size: location.size } },
        );
      }
      const length = range?.length ?? location.size;
      const position = location.bodyOffset + (range?.offset ?? 0);
      const hot = this.#hot.read(location.segment, this.#active.seq, position, length);
      const outcome =
        hot !== undefined
          ? { kind: "read" as const, bytes: hot }
          : await this.#pool.read({ path: this.#path(location.segment), headerBytes: 0, offset: position, length });
      if (outcome.kind === "failed") {
        // Compaction moved the object and removed its old segment meanwhile: look it up again.
        if (outcome.error.code === "ENOENT" && !sameLocation(this.#puts.get(key), location) && attempt < 3) continue;
        throw mapFileSystemError(asError(outcome.error), "get", key);
      }
      if (outcome.bytes.length !== length)
        throw corrupt(key, `segment ${String(location.segment)} ends inside the object`);
      if (range === undefined) {
        const actual = crc32c(outcome.bytes);
        if (actual !== location.crc32c) {
          throw new NereusError(ErrorCode.OBJECT_CHECKSUM_MISMATCH, `object ${key} does not match its stored CRC32C`, {
            retryable: false,
            details: { key, expected: location.crc32c, actual, segment: location.segment },
          });
        }
      }
      return outcome.bytes;
    }
  }

  /** Waits for queued writes and housekeeping, closes the active segment and releases the lock. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#draining;
    await this.#housekeeping?.catch(() => undefined);
    await this.#draining;
    if (this.#active.created && this.#failure === undefined) {
      await this.#pool.writeSegment({
        path: this.#path(this.#active.seq),
        create: false,
        position: this.#active.bytes,
        records: [],
        sync: this.#fsync,
        syncDirectory: false,
        close: true,
      });
    }
    this.#puts.flush();
    this.#puts.close();
    this.#index.close();
    this.#hot.close();
    await this.#lock.release();
  }

  #check(operation: "put" | "delete", key: string): void {
    if (this.#failure !== undefined && !this.#repairable) {
      throw new NereusError(
        ErrorCode.OBJECT_UPLOAD_FAILED,
        `${operation} of ${key}: the segment layout failed earlier (${this.#failure.message}); reopen the store`,
        {
          retryable: false,
          cause: this.#failure,
          details: { key },
        },
      );
    }
  }

  #append(record: Omit<PendingRecord, "resolve" | "reject">): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.#queue.push({ ...record, resolve, reject });
      if (!this.#drainRunning) {
        this.#draining = this.#drain();
      } else if (
        !this.#followerScheduled &&
        this.#inFlight.length > 0 &&
        this.#inFlight.length < MAX_SEGMENT_JOBS_IN_FLIGHT
      ) {
        // The next job goes out at the end of this event-loop turn, with every record queued by then (puts of many
        // streams in one turn share its fdatasync).
        this.#followerScheduled = true;
        setImmediate(this.#dispatchFollower);
      }
    });
  }

  /**
   * Writes queued records in batches (one job, one fdatasync each) until the queue is empty, settling the jobs in the
   * order they were sent. A job goes out while the one before it is still in flight (see #dispatch), so the worker
   * starts it as soon as it synced the previous one instead of after a round trip through this thread.
   */
  async #drain(): Promise<void> {
    // Cleared synchronously where the loop ends (no await between), so a put right after it starts the next drain.
    this.#drainRunning = true;
    try {
      for (;;) {
        this.#dispatch();
        const job = this.#inFlight[0];
        if (job === undefined) {
          if (this.#queue.length === 0) return;
          if (this.#failure !== undefined) {
            // Every job settled: the active segment's valid length is known. Repair, then write what is queued.
            if (this.#repairable && !this.#closed && (await this.#repair())) continue;
            this.#abandonQueue();
            return;
          }
          // Nothing could go out: the next record does not fit the active segment.
          await this.#roll();
          continue;
        }
        const outcome = await job.outcome;
        this.#inFlight.shift();
        this.#inFlightBytes -= job.bytes;
        this.#settle(job, outcome);
      }
    } finally {
      this.#drainRunning = false;
    }
  }

  /**
   * Sends queued records as write jobs: at most {@link MAX_SEGMENT_JOBS_IN_FLIGHT} at once, a second one only behind
   * a job whose records all land where they were placed (no `unlessFile`, which the worker may skip) and only while the
   * records fit the active segment (a roll waits for every job to settle). The worker refuses a job marked `follows`
   * when the job before it failed, so nothing is written after a failed write.
   */
  #dispatch(): void {
    while (
      this.#queue.length > 0 &&
      this.#failure === undefined &&
      this.#inFlight.length < MAX_SEGMENT_JOBS_IN_FLIGHT
    ) {
      const previous = this.#inFlight[this.#inFlight.length - 1];
      if (previous !== undefined && previous.mayShift) return;
      const active = this.#active;
      const position = active.bytes + this.#inFlightBytes;
      const first = this.#queue[0] as PendingRecord;
      if (position > 0 && position + first.bytes > this.#segmentBytes) return;
      const batch: PendingRecord[] = [];
      let bytes = 0;
      let mayShift = false;
      let gateSequence = 0;
      while (this.#queue.length > 0) {
        const next = this.#queue[0] as PendingRecord;
        if (batch.length > 0 && position + bytes + next.bytes > this.#segmentBytes) break;
        batch.push(next);
        this.#queue.shift();
        bytes += next.bytes;
        if (next.write.unlessFile !== undefined) mayShift = true;
        if (next.gateSequence !== undefined && next.gateSequence > gateSequence) gateSequence = next.gateSequence;
      }
      const create = !active.created && previous === undefined;
      this.stats.writeJobs += 1;
      if (previous !== undefined) this.stats.followingJobs += 1;
      const outcome = this.#pool.writeSegment({
        path: this.#path(active.seq),
        create,
        position,
        records: batch.map((record) => record.write),
        sync: this.#fsync,
        syncDirectory: create && this.#fsync,
        close: false,
        ...(previous === undefined ? {} : { follows: true }),
        ...(gateSequence === 0 ? {} : { gate: { words: this.#gates.words, sequence: gateSequence } }),
      });
      this.#inFlight.push({ batch, outcome, position, bytes, mayShift, gateSequence });
      this.#inFlightBytes += bytes;
    }
  }

  /** Applies the outcome of the oldest job in flight: the index, the gates, the records' promises. */
  #settle(job: InFlightJob, outcome: SegmentWriteOutcome): void {
    const { batch, gateSequence } = job;
    if (outcome.kind === "failed" && outcome.error.code === FOLLOWER_REFUSED_CODE && this.#failure !== undefined) {
      // Refused by the worker behind the failed job settled just before: nothing of it was written.
      for (const record of batch) record.reject(this.#refused(record.key));
      return;
    }
    if (outcome.kind === "failed") {
      this.#fail(mapFileSystemError(asError(outcome.error), "put"), isNoSpaceError(outcome.error.code));
      for (const record of batch) record.reject(this.#uncertain(record.key));
      return;
    }
    if (this.#failure !== undefined) {
      // Written behind a job whose index update failed: durable in the segment (a reopen replays it), not indexed.
      for (const record of batch) record.reject(this.#uncertain(record.key));
      return;
    }
    const active = this.#active;
    if (job.position !== active.bytes) {
      // Cannot happen (a job follows only one whose records all land); refuse rather than index wrong offsets.
      this.#fail(
        new NereusError(
          ErrorCode.OBJECT_UPLOAD_FAILED,
          `segment write at ${String(job.position)} settled with the segment at ${String(active.bytes)}`,
          { retryable: false },
        ),
      );
      for (const record of batch) record.reject(this.#uncertain(record.key));
      return;
    }
    active.created = true;
    if (gateSequence !== 0) this.#gates.open(gateSequence);
    this.#health.succeeded("segment-log");
    let offset = active.bytes;
    const skipped = new Set(outcome.skipped);
    const records: HeldRecord[] = [];
    let deletes = false;
    for (const [position, record] of batch.entries()) {
      if (skipped.has(position)) continue;
      if (record.delete === undefined) {
        records.push({ key: record.key, location: putLocation(record, active.seq, offset), recordBytes: record.bytes });
      } else {
        records.push({
          key: record.key,
          segment: active.seq,
          recordOffset: offset,
          recordBytes: record.bytes,
          delete: record.delete,
        });
        deletes = true;
      }
      offset += record.bytes;
      this.stats.records += 1;
    }
    // Puts only (the common case): held, and applied to the index with later jobs' in one transaction. Deletes are
    // applied at once (housekeeping reads the index as a whole); an index that cannot be written keeps them held.
    this.#puts.hold(records, { segment: active.seq, offset });
    if (deletes) this.#puts.flush();
    active.bytes = offset;
    for (const [position, record] of batch.entries()) record.resolve(!skipped.has(position));
  }

  /** Seals the active segment (fdatasync + close, whatever the durability) and starts the next one. */
  async #roll(): Promise<void> {
    const active = this.#active;
    const outcome = await this.#pool.writeSegment({
      path: this.#path(active.seq),
      create: false,
      position: active.bytes,
      records: [],
      sync: true,
      syncDirectory: false,
      close: true,
    });
    if (outcome.kind === "failed") {
      this.#fail(mapFileSystemError(asError(outcome.error), "put"), isNoSpaceError(outcome.error.code));
      return;
    }
    this.#active = { seq: active.seq + 1, bytes: 0, created: false };
    this.#hot.retire(this.#active.seq);
    this.#scheduleHousekeeping();
  }

  /** Unlinks segments nothing needs and compacts sparse ones, one pass at a time, off the write path. */
  #scheduleHousekeeping(): void {
    if (this.#housekeeping !== undefined) {
      this.#housekeepingAgain = true;
      return;
    }
    this.#housekeeping = (async () => {
      do {
        this.#housekeepingAgain = false;
        await this.#removeUnneeded();
        if (await this.#compactOne()) this.#housekeepingAgain = true;
        // Housekeeping never holds the event loop: one pass per turn at most.
        await new Promise<void>((resolve) => setImmediate(resolve));
      } while (this.#housekeepingAgain && !this.#closed && this.#failure === undefined);
    })()
      .catch(() => undefined)
      .finally(() => {
        this.#housekeeping = undefined;
      });
  }

  /** Unlinks removable segments, then fsyncs the directory before counting them gone (see SegmentIndex). */
  async #removeUnneeded(): Promise<void> {
    if (!this.#puts.flush()) return;
    for (
      let removable = this.#index.removable(this.#active.seq);
      removable.length > 0;
      removable = this.#index.removable(this.#active.seq)
    ) {
      for (const seq of removable) {
        // An open descriptor would keep the unlinked file's blocks allocated.
        this.#hot.forget(seq);
        await unlink(this.#path(seq)).catch((error: unknown) => {
          if ((error as { code?: unknown }).code !== "ENOENT") throw error;
        });
      }
      if (this.#fsync) await fsyncDirectory(this.#directory);
      for (const seq of removable) {
        this.#index.removeSegment(seq);
        this.stats.segmentsRemoved += 1;
      }
    }
  }

  /**
   * Compacts the sparsest sealed segment whose live bytes are below the threshold: re-appends its live objects and
   * copies of its deletes that still matter (same targets), then it holds nothing needed and is unlinked.
   */
  async #compactOne(): Promise<boolean> {
    if (this.#compactBelow === 0 || this.#closed || !this.#puts.flush()) return false;
    const victim = this.#index.sparsest(this.#active.seq, this.#compactBelow);
    if (victim === undefined) return false;
    let progress = false;
    for (const key of this.#index.keysIn(victim)) {
      if (this.#closed || this.#failure !== undefined) return progress;
      const move = this.#move(key, victim);
      this.#moving.set(key, move);
      try {
        if (await move) progress = true;
      } finally {
        this.#moving.delete(key);
      }
    }
    const deletes = this.#index.neededDeletes(victim);
    await Promise.all(
      deletes.map(async (entry) => {
        const head = encodeSegmentRecordHead({
          kind: "delete",
          key: entry.key,
          targetSegment: entry.targetSegment,
          targetOffset: entry.targetOffset,
        });
        await this.#append({
          key: entry.key,
          head,
          write: { head },
          bytes: head.length,
          size: 0,
          crc32c: 0,
          delete: { segment: entry.targetSegment, offset: entry.targetOffset },
        });
      }),
    );
    this.#index.dropDeletes(victim);
    // Progress: something moved or was copied (a victim whose objects all had a delete queued waits for it).
    return progress || deletes.length > 0;
  }

  /** Re-appends live object `key` from segment `from` (skipped if it was deleted or moved meanwhile). */
  async #move(key: string, from: number): Promise<boolean> {
    const location = this.#puts.get(key);
    if (location?.segment !== from || this.#deleting.has(key)) return false;
    const body = await this.read(key, undefined);
    // Checked again right before the record is queued (no await in between): a delete queued meanwhile wins.
    if (body === undefined || !sameLocation(this.#puts.get(key), location) || this.#deleting.has(key)) return false;
    const head = encodeSegmentRecordHead({ kind: "put", key, bodyLength: body.length, bodyCrc32c: location.crc32c });
    await this.#append({
      key,
      head,
      write: { head, body },
      bytes: head.length + body.length,
      size: body.length,
      crc32c: location.crc32c,
    });
    this.stats.objectsCompacted += 1;
    return true;
  }

  /**
   * A write or sync failed: nothing more goes out until the failure is repaired (`repairable`: for lack of space) or
   * the store is reopened. What is queued was not written and is refused now, with its gates.
   */
  #fail(error: NereusError, repairable = false): void {
    this.#repairable = (this.#failure === undefined || this.#repairable) && repairable;
    this.#failure ??= error;
    this.#health.failed("segment-log", error);
    this.#abandonQueue();
  }

  /** Refuses every queued record (none of them was written) and fails their gates; later records get new gates. */
  #abandonQueue(): void {
    const queued = this.#queue.splice(0);
    for (const record of queued) record.reject(this.#refused(record.key));
    this.#gates.fail();
    this.#gates = new SharedDurabilityGates();
  }

  /**
   * Cuts the active segment back to its last acknowledged record after a failure for lack of space; true when the
   * layout may write again. Every job has settled (nothing is in flight).
   */
  async #repair(): Promise<boolean> {
    const active = this.#active;
    try {
      if (!active.created) this.#hot.forget(active.seq);
      await repairSegmentTail(this.#path(active.seq), active.bytes, active.created);
    } catch (error) {
      this.#health.failed("segment-log", mapFileSystemError(error, "put"));
      return false;
    }
    this.#failure = undefined;
    this.#repairable = false;
    return true;
  }

  #refused(key: string): NereusError {
    if (this.#repairable) {
      return new NereusError(
        ErrorCode.OBJECT_UPLOAD_FAILED,
        `${key} was not written: the segment layout cannot write (${this.#failure?.message ?? "no space"}); retry once the disk has room`,
        {
          retryable: true,
          cause: this.#failure,
          details: { key, mayHaveApplied: false },
        },
      );
    }
    return new NereusError(
      ErrorCode.OBJECT_UPLOAD_FAILED,
      `${key}: the segment layout failed earlier (${this.#failure?.message ?? "closed"}); reopen the store`,
      {
        retryable: false,
        cause: this.#failure,
        details: { key },
      },
    );
  }

  #uncertain(key: string): NereusError {
    return new NereusError(
      ErrorCode.OBJECT_UPLOAD_FAILED,
      `${key}: writing the segment failed (${this.#failure?.message ?? "unknown"}); the record may have been written`,
      {
        retryable: true,
        cause: this.#failure,
        details: { key, mayHaveApplied: true },
      },
    );
  }

  #path(seq: number): string {
    return path.join(this.#directory, segmentFileName(seq));
  }
}

/** Where the body of put record `record`, written at `recordOffset` of segment `segment`, lives. */
function putLocation(record: PendingRecord, segment: number, recordOffset: number): SegmentLocation {
  return {
    segment,
    recordOffset,
    bodyOffset: recordOffset + record.head.length,
    size: record.size,
    crc32c: record.crc32c,
  };
}

function sameLocation(left: SegmentLocation | undefined, right: SegmentLocation): boolean {
  return left !== undefined && left.segment === right.segment && left.recordOffset === right.recordOffset;
}

function asError(error: PublishError): Error {
  return Object.assign(new Error(error.message), { code: error.code });
}

function corrupt(key: string, reason: string): NereusError {
  return new NereusError(ErrorCode.OBJECT_CHECKSUM_MISMATCH, `object ${key} is corrupt: ${reason}`, {
    retryable: false,
    details: { key },
  });
}
