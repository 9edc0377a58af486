// The durable publish of one object file, run on worker threads with synchronous system calls: write the temp file
// (header + body), fsync it, link(2) it to its key's path (create-only: EEXIST means the key exists), fsync the
// directory, unlink the temp name. Done as ONE job instead of ~9 asynchronous fs calls, each of which needs a
// thread-pool round trip and an event-loop turn: under load that cut the latency of a put by half and spares the
// event loop the callbacks. Reads run there too, for the same reason: open, fstat, the 8-byte header, the requested
// bytes and close are one job (one round trip instead of five), and the bytes come back in a shared chunk the worker
// lends (see FilePublishPool) or transferred, never copied; the reads asked for in one turn of the event loop (a
// reader fetching the slices of several objects) are one job.
// The worker source is plain JavaScript using only Node built-ins (no module file to resolve, so it runs the same
// from sources and from dist). Jobs are independent; the pool spreads them — except segment writes (segment
// layout): those all go to the first worker, which keeps the active segment open between jobs.
import { Worker } from "node:worker_threads";
import { OBSERVE_LATENCY_SOURCE, SharedLatencyHistogram, type LatencySnapshot } from "@nereus/core";

/** What the filesystem store asks a worker to do. Paths are absolute; `objectsRoot` bounds the mkdir fsyncs. */
export interface PublishJob {
  readonly temporary: string;
  readonly target: string;
  readonly header: Uint8Array;
  readonly body: Uint8Array;
  /**
   * Instead of header + body: the first `length` bytes of a shared buffer (header included) that the pool registers
   * with a worker once and names by `id` afterwards (see shared-body-pool.ts).
   */
  readonly memory?: { readonly id: number; readonly buffer: SharedArrayBuffer; readonly length: number };
  /** false: skip both fsyncs (the object survives a process crash, not an OS crash or power loss). */
  readonly fsync: boolean;
}

/**
 * What the filesystem store asks a worker to read: the file's header and `length` bytes at body offset `offset`
 * (the whole body when `length` is undefined).
 */
export interface ReadJob {
  readonly path: string;
  readonly headerBytes: number;
  readonly offset: number;
  readonly length: number | undefined;
}

/**
 * A read's outcome: the header, the body size (file size minus the header) and the bytes read — fewer than asked
 * only when the file is shorter (`bytes.length` tells) — or the failing step's errno.
 */
export type ReadOutcome =
  | { readonly kind: "read"; readonly header: Uint8Array; readonly bodySize: number; readonly bytes: Uint8Array }
  | { readonly kind: "failed"; readonly error: PublishError };

/**
 * Appends records to a segment file at `position` (segment layout, segments/segment-log.ts): each record is its head
 * bytes then its body, from `body` or from registered shared memory (`start`..`start + length`). `create` opens the
 * file create-only; `sync` fdatasyncs it after the writes, `syncDirectory` then fsyncs its directory, `close`
 * closes it last. Segment jobs all run on one worker, one at a time, so a file's writes land in order.
 */
export interface SegmentWriteJob {
  readonly path: string;
  readonly create: boolean;
  readonly position: number;
  readonly records: readonly SegmentWriteRecord[];
  readonly sync: boolean;
  readonly syncDirectory: boolean;
  readonly close: boolean;
  /**
   * A shared durability gate (see `SharedDurabilityGate` in @nereus/core) the worker opens up to `sequence` once
   * every write and sync of the job succeeded — before it answers — or fails when the job fails.
   */
  readonly gate?: { readonly words: SharedArrayBuffer; readonly sequence: number };
  /**
   * Sent while the segment job before it was still in flight: the worker refuses it (writing nothing) unless that
   * job succeeded, so no write lands after a failed one.
   */
  readonly follows?: boolean;
}

/**
 * The error code of a `follows` job the worker refused because the job before it failed: nothing of it was written.
 */
export const FOLLOWER_REFUSED_CODE = "EPREVIOUSFAILED";

/** One record of a `SegmentWriteJob`. */
export interface SegmentWriteRecord {
  /** Skip the record (reported in `skipped`) when this file exists: the key is taken by an object file. */
  readonly unlessFile?: string;
  readonly head: Uint8Array;
  readonly body?: Uint8Array;
  readonly memory?: { readonly id: number; readonly buffer: SharedArrayBuffer; readonly start: number; readonly length: number };
}

/** A segment write's outcome: every byte written (and synced as asked), or the failing step's errno. */
export type SegmentWriteOutcome =
  /** `skipped`: indexes of records not written because their `unlessFile` exists; the others follow each other. */
  | { readonly kind: "written"; readonly skipped: readonly number[] }
  | { readonly kind: "failed"; readonly error: PublishError };

/** The job's outcome: created (or the key existed), or the failing step's errno. */
export type PublishOutcome =
  | { readonly kind: "published"; readonly created: boolean }
  /** Linked (the object exists) but the directory fsync failed: the publication may not survive a crash. */
  | { readonly kind: "linked-unsynced"; readonly error: PublishError }
  | { readonly kind: "failed"; readonly error: PublishError };

/** A system-call failure carried back from the worker (an Error with its errno `code`). */
export interface PublishError {
  readonly code: string;
  readonly message: string;
}

/** link() attempts when the target directory vanished in between (pruned by a concurrent delete). */
const MAX_LINK_ATTEMPTS = 8;
/** Reads shorter than this get a buffer of their own (a small malloc is cheap and rarely faults). */
const MIN_POOLED_READ_BYTES = 16 * 1024;
/** Read chunk size classes: powers of two from 64 KiB to 8 MiB; longer reads get a buffer of their own. */
const MIN_READ_CHUNK_BYTES = 64 * 1024;
const MAX_READ_CHUNK_BYTES = 8 * 1024 * 1024;
/** Default bytes of read chunks per pool (split evenly between its workers). */
export const DEFAULT_READ_BUFFER_BYTES = 128 * 1024 * 1024;

/** What a worker answers for one read: the bytes transferred, or lent in one of its shared chunks. */
type WorkerReadOutcome =
  | { readonly kind: "read"; readonly header: Uint8Array; readonly bodySize: number; readonly bytes: Uint8Array; readonly lent?: undefined }
  | {
      readonly kind: "read";
      readonly header: Uint8Array;
      readonly bodySize: number;
      readonly bytes?: undefined;
      readonly lent: { readonly chunk: number; readonly buffer: SharedArrayBuffer; readonly length: number };
    }
  | { readonly kind: "failed"; readonly error: PublishError };

const WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const path = require("node:path");
const MAX_LINK_ATTEMPTS = ${String(MAX_LINK_ATTEMPTS)};
const timings = workerData.timings;
${OBSERVE_LATENCY_SOURCE}
const known = new Set();
const memories = new Map();
// Read buffers: shared chunks in power-of-two size classes, lent to the main thread and given back by it once the
// last view of a lent chunk was garbage-collected ("release" messages). At most READ_BUFFER_BYTES of chunks.
const READ_BUFFER_BYTES = workerData.readBufferBytes;
const MIN_POOLED_READ = ${String(MIN_POOLED_READ_BYTES)};
const MIN_CHUNK = ${String(MIN_READ_CHUNK_BYTES)};
const MAX_CHUNK = ${String(MAX_READ_CHUNK_BYTES)};
const chunks = [];
const freeChunks = new Map();
let chunkBytes = 0;
function takeChunk(length) {
  if (length < MIN_POOLED_READ || length > MAX_CHUNK) return undefined;
  let size = MIN_CHUNK;
  while (size < length) size *= 2;
  const free = freeChunks.get(size);
  if (free !== undefined && free.length > 0) return free.pop();
  if (chunkBytes + size > READ_BUFFER_BYTES) return undefined;
  chunkBytes += size;
  chunks.push(new SharedArrayBuffer(size));
  return chunks.length - 1;
}
function releaseChunk(id) {
  const chunk = chunks[id];
  if (chunk === undefined) return;
  let free = freeChunks.get(chunk.byteLength);
  if (free === undefined) freeChunks.set(chunk.byteLength, (free = []));
  free.push(id);
}
function fsyncDirectory(directory) {
  const fd = fs.openSync(directory, "r");
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
}
function makeDirectories(directory) {
  const first = fs.mkdirSync(directory, { recursive: true });
  if (first === undefined) return;
  for (let current = directory; ; current = path.dirname(current)) {
    try { fsyncDirectory(path.dirname(current)); } catch (error) { if (error.code !== "ENOENT") throw error; }
    if (current === first || current === path.dirname(current)) return;
  }
}
function writeAll(fd, bytes, position) {
  for (let written = 0; written < bytes.length; ) {
    written += fs.writeSync(fd, bytes, written, bytes.length - written, position + written);
  }
}
function sameFile(a, b) {
  try {
    const left = fs.statSync(a);
    const right = fs.statSync(b);
    return left.ino === right.ino && left.dev === right.dev;
  } catch { return false; }
}
function failure(error) {
  return { code: typeof error.code === "string" ? error.code : "UNKNOWN", message: String(error.message) };
}
function sharedMemory(memory) {
  if (memory.buffer !== undefined) memories.set(memory.id, new Uint8Array(memory.buffer));
  const bytes = memories.get(memory.id);
  if (bytes === undefined) throw Object.assign(new Error("shared body " + memory.id + " was never registered"), { code: "EMEMORY" });
  return bytes;
}
let segment;
// Whether the last segment job failed (or was refused): a job that follows it is refused too.
let lastSegmentJobFailed = false;
function closeSegment() {
  if (segment === undefined) return;
  const fd = segment.fd;
  segment = undefined;
  fs.closeSync(fd);
}
function writeSegment(job) {
  const started = process.hrtime.bigint();
  if (segment === undefined || segment.path !== job.path) {
    closeSegment();
    segment = { path: job.path, fd: fs.openSync(job.path, job.create ? "wx" : "r+", 0o644) };
  }
  let position = job.position;
  const skipped = [];
  for (let index = 0; index < job.records.length; index++) {
    const record = job.records[index];
    if (record.unlessFile !== undefined && fs.existsSync(record.unlessFile)) {
      skipped.push(index);
      continue;
    }
    writeAll(segment.fd, record.head, position);
    position += record.head.length;
    let body = record.body;
    if (record.memory !== undefined) body = sharedMemory(record.memory).subarray(record.memory.start, record.memory.start + record.memory.length);
    if (body !== undefined) {
      writeAll(segment.fd, body, position);
      position += body.length;
    }
  }
  const written = process.hrtime.bigint();
  if (job.records.length > 0) observeLatency(timings.segmentWrite, written - started);
  if (job.sync) {
    fs.fdatasyncSync(segment.fd);
    observeLatency(timings.segmentSync, process.hrtime.bigint() - written);
  }
  if (job.syncDirectory) fsyncDirectory(path.dirname(job.path));
  if (job.close) closeSegment();
  return { kind: "written", skipped };
}
// Shared gate words: [0] durable sequence, [1] failed, [2] changes (notified).
function openGate(gate) {
  const view = new BigInt64Array(gate.words);
  const sequence = BigInt(gate.sequence);
  if (Atomics.load(view, 0) >= sequence) return;
  Atomics.store(view, 0, sequence);
  Atomics.add(view, 2, 1n);
  Atomics.notify(view, 2);
}
function failGate(gate) {
  const view = new BigInt64Array(gate.words);
  Atomics.store(view, 1, 1n);
  Atomics.add(view, 2, 1n);
  Atomics.notify(view, 2);
}
function publish(job) {
  const fd = fs.openSync(job.temporary, "wx", 0o644);
  try {
    if (job.memory !== undefined) {
      writeAll(fd, sharedMemory(job.memory).subarray(0, job.memory.length), 0);
    } else {
      writeAll(fd, job.header, 0);
      writeAll(fd, job.body, job.header.length);
    }
    if (job.fsync) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    const directory = path.dirname(job.target);
    for (let attempt = 1; ; attempt++) {
      try {
        if (!known.has(directory)) {
          makeDirectories(directory);
          if (known.size >= 65536) known.clear();
          known.add(directory);
        }
        fs.linkSync(job.temporary, job.target);
        break;
      } catch (error) {
        if (error.code === "EEXIST") return { kind: "published", created: false };
        if (error.code === "ENOENT" && attempt < MAX_LINK_ATTEMPTS) { known.delete(directory); continue; }
        // An odd failure may still have published the file: it is ours iff it is our temp file's inode.
        if (sameFile(job.target, job.temporary)) break;
        throw error;
      }
    }
    if (job.fsync) {
      try { fsyncDirectory(directory); } catch (error) { return { kind: "linked-unsynced", error: failure(error) }; }
    }
    return { kind: "published", created: true };
  } finally {
    try { fs.unlinkSync(job.temporary); } catch {}
  }
}
function readAll(fd, bytes, position) {
  let filled = 0;
  while (filled < bytes.length) {
    const count = fs.readSync(fd, bytes, filled, bytes.length - filled, position + filled);
    if (count === 0) break;
    filled += count;
  }
  return filled;
}
function read(job) {
  const started = process.hrtime.bigint();
  const outcome = readFile(job);
  observeLatency(timings.objectRead, process.hrtime.bigint() - started);
  return outcome;
}
function readFile(job) {
  const fd = fs.openSync(job.path, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const header = new Uint8Array(Math.min(job.headerBytes, size));
    readAll(fd, header, 0);
    const bodySize = Math.max(0, size - job.headerBytes);
    const wanted = job.length === undefined ? bodySize : job.length;
    // Not zero-filled first (the read overwrites it); a short read zeroes the tail nobody was given.
    const length = Math.max(0, Math.min(wanted, bodySize - job.offset));
    const chunk = takeChunk(length);
    if (chunk !== undefined) {
      let filled;
      try { filled = readAll(fd, new Uint8Array(chunks[chunk], 0, length), job.headerBytes + job.offset); } catch (error) { releaseChunk(chunk); throw error; }
      return { kind: "read", header, bodySize, lent: { chunk, buffer: chunks[chunk], length: filled } };
    }
    const bytes = new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
    const filled = readAll(fd, bytes, job.headerBytes + job.offset);
    if (filled === bytes.length) return { kind: "read", header, bodySize, bytes };
    bytes.fill(0, filled);
    return { kind: "read", header, bodySize, bytes: bytes.subarray(0, filled) };
  } finally {
    fs.closeSync(fd);
  }
}
parentPort.on("message", (message) => {
  let outcome;
  if (message.forget !== undefined) {
    memories.delete(message.forget);
    return;
  }
  if (message.release !== undefined) {
    for (const id of message.release) releaseChunk(id);
    return;
  }
  if (message.reads !== undefined) {
    const outcomes = message.reads.map((job) => {
      try { return read(job); } catch (error) { return { kind: "failed", error: failure(error) }; }
    });
    const transfer = [];
    for (const each of outcomes) if (each.kind === "read" && each.bytes !== undefined && !transfer.includes(each.bytes.buffer)) transfer.push(each.bytes.buffer);
    parentPort.postMessage({ id: message.id, outcome: outcomes }, transfer);
    return;
  }
  if (message.segment !== undefined) {
    const gate = message.segment.gate;
    try {
      if (message.segment.follows === true && lastSegmentJobFailed) {
        throw Object.assign(new Error("the segment write before this one failed"), { code: ${JSON.stringify(FOLLOWER_REFUSED_CODE)} });
      }
      lastSegmentJobFailed = true;
      outcome = writeSegment(message.segment);
      lastSegmentJobFailed = false;
      if (gate !== undefined) openGate(gate);
    } catch (error) {
      try { closeSegment(); } catch {}
      if (gate !== undefined) failGate(gate);
      outcome = { kind: "failed", error: failure(error) };
    }
    parentPort.postMessage({ id: message.id, outcome });
    return;
  }
  const started = process.hrtime.bigint();
  try {
    outcome = publish(message.job);
    if (outcome.kind === "published" && outcome.created) observeLatency(timings.objectPublish, process.hrtime.bigint() - started);
  } catch (error) {
    try { fs.unlinkSync(message.job.temporary); } catch {}
    outcome = { kind: "failed", error: failure(error) };
  }
  parentPort.postMessage({ id: message.id, outcome });
});
`;

interface PendingJob {
  /** One outcome; for a batch of reads an array of them, or one failure that applies to every read of it. */
  readonly resolve: (outcome: unknown) => void;
}

interface QueuedRead {
  readonly job: ReadJob;
  readonly resolve: (outcome: ReadOutcome) => void;
}

interface PoolWorker {
  readonly worker: Worker;
  readonly pending: Map<number, PendingJob>;
  /** Shared body buffers this worker holds (sent once, then named by id). */
  readonly memories: Set<number>;
}

/** Options of {@link FilePublishPool}. */
export interface FilePublishPoolOptions {
  /**
   * Bytes of shared read chunks the workers keep for reuse (default {@link DEFAULT_READ_BUFFER_BYTES}, split evenly
   * between the workers; 0: every read gets a buffer of its own).
   */
  readonly readBufferBytes?: number;
}

/** A chunk a worker lent: given back to `worker` once the main thread's last view of it was collected. */
interface LentChunk {
  readonly worker: PoolWorker;
  readonly chunk: number;
}

/**
 * A lazily started pool of publish workers. Invariants: every `publish` resolves exactly once (a worker that dies
 * fails its jobs with `kind: "failed"`, code `EWORKER`, and is replaced on the next job); `close()` waits for
 * in-flight jobs and stops the workers. Workers are unref'd: they never keep the process alive.
 *
 * Read buffers: a fresh buffer per read costs page faults (the kernel zeroes and maps every page the read fills)
 * and, as external memory, drives V8 into frequent full garbage collections. So each worker reads into shared
 * chunks it keeps (size classes, at most `readBufferBytes` in all) and lends them: the main thread gets a view over
 * its own `SharedArrayBuffer` object for the chunk (one per read; every view of the bytes references it), and a
 * `FinalizationRegistry` gives the chunk back to the worker once that object was collected — once nothing can read
 * the bytes any more. Until then the chunk is never reused, so lent bytes never change. When no chunk is free, the
 * read gets a buffer of its own, as before. Bodies to write that live in shared memory of unknown owners (a lent
 * chunk, say, when compaction re-appends an object it read) are copied before they reach a worker, which would
 * otherwise write from memory the main thread may give back meanwhile.
 */
export class FilePublishPool {
  readonly #size: number;
  readonly #readBufferBytes: number;
  readonly #workers: PoolWorker[] = [];
  #nextId = 0;
  #closed = false;
  /** Reads asked for in the current turn; sent as one job when the microtasks of this turn ran. */
  #queuedReads: QueuedRead[] | undefined;
  /** Chunks whose views were collected, per worker, not yet given back (sent in one message per turn). */
  #released: Map<PoolWorker, number[]> | undefined;
  readonly #lent = new FinalizationRegistry<LentChunk>((lent) => this.#release(lent));
  /** Read jobs sent to workers (each carries one or more reads); for tests and diagnostics. */
  readJobs = 0;
  /** Reads answered in a lent chunk / in a buffer of their own; for tests and diagnostics. */
  lentReads = 0;
  ownBufferReads = 0;
  /** Lent chunks given back to their worker. */
  releasedChunks = 0;
  /** Recorded by the workers (shared memory): see {@link FilePublishPool.timings}. */
  readonly #timings = {
    segmentWrite: SharedLatencyHistogram.create(),
    segmentSync: SharedLatencyHistogram.create(),
    objectPublish: SharedLatencyHistogram.create(),
    objectRead: SharedLatencyHistogram.create(),
  };

  /**
   * How long the workers' physical steps took, as of now: `segmentWrite` one segment job up to its sync (opening the
   * segment file when the job starts a new one, the records' positional writes), `segmentSync` the fdatasync of the
   * active segment after a job (and when one is sealed), `objectPublish` one object file published (temp file write +
   * fsync + link + directory fsync; the files layout), `objectRead` one read job that succeeded (open, header and range
   * reads, close).
   */
  timings(): { readonly segmentWrite: LatencySnapshot; readonly segmentSync: LatencySnapshot; readonly objectPublish: LatencySnapshot; readonly objectRead: LatencySnapshot } {
    return {
      segmentWrite: this.#timings.segmentWrite.snapshot(),
      segmentSync: this.#timings.segmentSync.snapshot(),
      objectPublish: this.#timings.objectPublish.snapshot(),
      objectRead: this.#timings.objectRead.snapshot(),
    };
  }

  constructor(size: number, options: FilePublishPoolOptions = {}) {
    if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`publish workers must be a positive integer, got ${String(size)}`);
    const readBufferBytes = options.readBufferBytes ?? DEFAULT_READ_BUFFER_BYTES;
    if (!Number.isSafeInteger(readBufferBytes) || readBufferBytes < 0) {
      throw new RangeError(`read buffer bytes must be a non-negative integer, got ${String(readBufferBytes)}`);
    }
    this.#size = size;
    this.#readBufferBytes = readBufferBytes;
  }

  /** Runs one publish job on the least busy worker. */
  publish(job: PublishJob): Promise<PublishOutcome> {
    const header = ownedBytes(job.header);
    const body = ownedBytes(job.body);
    return this.#run({ job: header === job.header && body === job.body ? job : { ...job, header, body } });
  }

  /**
   * Runs one read job. Reads asked for in one turn of the event loop (a reader fetching several slices at once) go
   * to one worker as ONE job, answered by one message: one thread hand-off for all of them instead of one each.
   * The bytes may be lent shared memory: read-only, like every read result.
   */
  read(job: ReadJob): Promise<ReadOutcome> {
    if (this.#closed) return Promise.resolve({ kind: "failed", error: { code: "ECLOSED", message: "publish pool closed" } });
    return new Promise<ReadOutcome>((resolve) => {
      if (this.#queuedReads === undefined) {
        this.#queuedReads = [];
        queueMicrotask(() => this.#sendReads());
      }
      this.#queuedReads.push({ job, resolve });
    });
  }

  /**
   * Runs one segment write job, always on the same worker (the first one), so the writes of one file keep their
   * order. The caller may send the next job of a file before this one resolved only with `follows` (the worker then
   * refuses it if this one failed).
   */
  writeSegment(job: SegmentWriteJob): Promise<SegmentWriteOutcome> {
    if (this.#closed) return Promise.resolve({ kind: "failed", error: { code: "ECLOSED", message: "publish pool closed" } });
    const target = this.#workers[0] ?? this.#spawn();
    const records = job.records.map((record) =>
      record.memory === undefined ? ownedRecord(record) : { ...ownedRecord(record), memory: this.#share(target, record.memory) },
    );
    return this.#post(target, { segment: { ...job, records } }) as Promise<SegmentWriteOutcome>;
  }

  #sendReads(): void {
    const queued = this.#queuedReads ?? [];
    this.#queuedReads = undefined;
    if (this.#closed) {
      for (const entry of queued) entry.resolve({ kind: "failed", error: { code: "ECLOSED", message: "publish pool closed" } });
      return;
    }
    this.readJobs += 1;
    const target = this.#pick();
    void this.#post(target, { reads: queued.map((entry) => entry.job) }).then((answer) => {
      // An array of outcomes, or one failure (the worker died) for all of them.
      const outcomes = Array.isArray(answer) ? (answer as readonly WorkerReadOutcome[]) : undefined;
      queued.forEach((entry, index) => {
        const each = outcomes === undefined ? (answer as WorkerReadOutcome) : outcomes[index];
        entry.resolve(each === undefined ? { kind: "failed", error: { code: "EWORKER", message: "publish worker answered too few reads" } } : this.#received(target, each));
      });
    });
  }

  /** A worker's read outcome as callers see it: a lent chunk becomes a view, tracked until it is collected. */
  #received(worker: PoolWorker, outcome: WorkerReadOutcome): ReadOutcome {
    if (outcome.kind === "failed") return outcome;
    if (outcome.lent === undefined) {
      this.ownBufferReads += 1;
      return outcome;
    }
    const { buffer, chunk, length } = outcome.lent;
    this.lentReads += 1;
    // `buffer` is this thread's own object for the chunk (one per message): every view of the bytes keeps it alive.
    this.#lent.register(buffer, { worker, chunk });
    return { kind: "read", header: outcome.header, bodySize: outcome.bodySize, bytes: new Uint8Array(buffer, 0, length) };
  }

  /** Queues `lent` to go back to its worker (one message per worker and turn); dropped if that worker is gone. */
  #release(lent: LentChunk): void {
    if (this.#closed || !this.#workers.includes(lent.worker)) return;
    if (this.#released === undefined) {
      this.#released = new Map();
      setImmediate(() => this.#sendReleases()).unref();
    }
    const chunks = this.#released.get(lent.worker);
    if (chunks === undefined) this.#released.set(lent.worker, [lent.chunk]);
    else chunks.push(lent.chunk);
  }

  #sendReleases(): void {
    const released = this.#released;
    this.#released = undefined;
    if (released === undefined || this.#closed) return;
    for (const [worker, chunks] of released) {
      if (!this.#workers.includes(worker)) continue;
      this.releasedChunks += chunks.length;
      worker.worker.postMessage({ release: chunks });
    }
  }

  #run(message: { readonly job: PublishJob }): Promise<PublishOutcome> {
    if (this.#closed) return Promise.resolve({ kind: "failed", error: { code: "ECLOSED", message: "publish pool closed" } });
    const target = this.#pick();
    let outgoing: object = message;
    if ("job" in message && message.job.memory !== undefined) {
      outgoing = { job: { ...message.job, memory: this.#share(target, message.job.memory) } };
    }
    return this.#post(target, outgoing) as Promise<PublishOutcome>;
  }

  /** Only the first job on a worker that uses a shared buffer carries it; later ones name it by id. */
  #share<M extends { readonly id: number; readonly buffer: SharedArrayBuffer }>(target: PoolWorker, memory: M): M | Omit<M, "buffer"> {
    if (target.memories.has(memory.id)) {
      const { buffer: _sent, ...named } = memory;
      return named;
    }
    target.memories.add(memory.id);
    return memory;
  }

  #post(target: PoolWorker, outgoing: object): Promise<unknown> {
    const id = ++this.#nextId;
    return new Promise<unknown>((resolve) => {
      target.pending.set(id, { resolve });
      if (target.pending.size === 1) target.worker.ref();
      target.worker.postMessage({ id, ...outgoing });
    });
  }

  /** Makes every worker drop its reference to shared body buffer `id` (the pool let it go). */
  forget(id: number): void {
    for (const entry of this.#workers) {
      if (entry.memories.delete(id)) entry.worker.postMessage({ forget: id });
    }
  }

  /** Waits for in-flight jobs, then terminates the workers. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const workers = this.#workers.splice(0);
    await Promise.all(
      workers.map(async (entry) => {
        while (entry.pending.size > 0) await new Promise<void>((resolve) => setTimeout(resolve, 5));
        await entry.worker.terminate();
      }),
    );
  }

  #pick(): PoolWorker {
    let best: PoolWorker | undefined;
    for (const entry of this.#workers) if (best === undefined || entry.pending.size < best.pending.size) best = entry;
    if (best !== undefined && (best.pending.size === 0 || this.#workers.length >= this.#size)) return best;
    return this.#spawn();
  }

  #spawn(): PoolWorker {
    const timings = {
      segmentWrite: this.#timings.segmentWrite.handle,
      segmentSync: this.#timings.segmentSync.handle,
      objectPublish: this.#timings.objectPublish.handle,
      objectRead: this.#timings.objectRead.handle,
    };
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { readBufferBytes: Math.floor(this.#readBufferBytes / this.#size), timings } });
    worker.unref();
    const entry: PoolWorker = { worker, pending: new Map(), memories: new Set() };
    const failAll = (message: string): void => {
      const index = this.#workers.indexOf(entry);
      if (index >= 0) this.#workers.splice(index, 1);
      for (const job of entry.pending.values()) job.resolve({ kind: "failed", error: { code: "EWORKER", message } });
      entry.pending.clear();
    };
    worker.on("message", (message: { id: number; outcome: unknown }) => {
      const job = entry.pending.get(message.id);
      if (job === undefined) return;
      entry.pending.delete(message.id);
      if (entry.pending.size === 0) worker.unref();
      job.resolve(message.outcome);
    });
    worker.on("error", (error) => failAll(`publish worker failed: ${error.message}`));
    worker.on("exit", (code) => failAll(`publish worker exited (${String(code)})`));
    this.#workers.push(entry);
    return entry;
  }
}

/**
 * `bytes` itself, or a copy when it lives in shared memory: a worker must write what the caller passed, not what a
 * shared buffer holds by the time the job runs (it may be a lent read chunk that is given back and reused).
 */
function ownedBytes(bytes: Uint8Array): Uint8Array {
  return bytes.buffer instanceof SharedArrayBuffer ? bytes.slice() : bytes;
}

/** `record` itself unless its head or body lives in shared memory ({@link ownedBytes}); no copy on the usual path. */
function ownedRecord(record: SegmentWriteRecord): SegmentWriteRecord {
  const head = ownedBytes(record.head);
  const body = record.body === undefined ? undefined : ownedBytes(record.body);
  return head === record.head && body === record.body ? record : { ...record, head, body };
}
