// The pool of publish worker threads that do the filesystem store's physical I/O with synchronous system calls
// (the program: publish-worker-thread.ts). Publishing an object file — write the temp file (header +
// body), fsync it, link(2) it to its key's path (create-only: EEXIST means the key exists), fsync the directory,
// unlink the temp name — is ONE job instead of ~9 asynchronous fs calls, each of which needs a thread-pool round
// trip and an event-loop turn: under load that cut the latency of a put by half and spares the event loop the
// callbacks. Reads run there too, for the same reason: open, fstat, the 8-byte header, the requested bytes and
// close are one job (one round trip instead of five), and the bytes come back in a shared chunk the worker lends
// (see FilePublishPool) or transferred, never copied; the reads asked for in one turn of the event loop (a reader
// fetching the slices of several objects) are one job. Jobs are independent; the pool spreads them — except
// segment writes (segment layout): those all go to the first worker, which keeps the active segment open between
// jobs. The messages both ways are those of publish-worker-protocol.ts.
import type { Worker } from "node:worker_threads";
import { SharedLatencyHistogram, startWorkerModule, type LatencySnapshot } from "@nereus/core";
import type {
  PublishError,
  PublishJob,
  PublishOutcome,
  ReadJob,
  ReadOutcome,
  SegmentWriteJob,
  SegmentWriteOutcome,
  SegmentWriteRecord,
} from "./publish-jobs.js";
import type {
  PublishWorkerData,
  PublishWorkerReply,
  PublishWorkerRequest,
  SharedBodyReference,
  WorkerReadOutcome,
} from "./publish-worker-protocol.js";

/** Default bytes of read chunks per pool (split evenly between its workers). */
const DEFAULT_READ_BUFFER_BYTES = 128 * 1024 * 1024;

/** A request that has a reply, as the pool hands it to `#post` (which gives it its id). */
type Outgoing =
  Extract<PublishWorkerRequest, { readonly kind: PublishWorkerReply["kind"] }> extends infer R
    ? R extends unknown
      ? Omit<R, "id">
      : never
    : never;

/** What a pending request comes to: the worker's reply, or the worker's end (every request it held fails). */
type Answer<K extends PublishWorkerReply["kind"]> =
  Extract<PublishWorkerReply, { readonly kind: K }> | { readonly kind: "lost"; readonly error: PublishError };

interface PendingJob {
  /** The reply to the request (of its kind), or the worker's end. */
  readonly resolve: (answer: Answer<PublishWorkerReply["kind"]>) => void;
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
  timings(): {
    readonly segmentWrite: LatencySnapshot;
    readonly segmentSync: LatencySnapshot;
    readonly objectPublish: LatencySnapshot;
    readonly objectRead: LatencySnapshot;
  } {
    return {
      segmentWrite: this.#timings.segmentWrite.snapshot(),
      segmentSync: this.#timings.segmentSync.snapshot(),
      objectPublish: this.#timings.objectPublish.snapshot(),
      objectRead: this.#timings.objectRead.snapshot(),
    };
  }

  constructor(size: number, options: FilePublishPoolOptions = {}) {
    if (!Number.isSafeInteger(size) || size < 1)
      throw new RangeError(`publish workers must be a positive integer, got ${String(size)}`);
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
    return this.#run(header === job.header && body === job.body ? job : { ...job, header, body });
  }

  /**
   * Runs one read job. Reads asked for in one turn of the event loop (a reader fetching several slices at once) go
   * to one worker as ONE job, answered by one message: one thread hand-off for all of them instead of one each.
   * The bytes may be lent shared memory: read-only, like every read result.
   */
  read(job: ReadJob): Promise<ReadOutcome> {
    if (this.#closed)
      return Promise.resolve({ kind: "failed", error: { code: "ECLOSED", message: "publish pool closed" } });
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
    if (this.#closed)
      return Promise.resolve({ kind: "failed", error: { code: "ECLOSED", message: "publish pool closed" } });
    const target = this.#workers[0] ?? this.#spawn();
    const records = job.records.map((record) =>
      record.memory === undefined
        ? ownedRecord(record)
        : { ...ownedRecord(record), memory: this.#share(target, record.memory) },
    );
    return this.#post(target, { kind: "write-segment", job: { ...job, records } }).then((answer) =>
      answer.kind === "lost" ? { kind: "failed", error: answer.error } : answer.outcome,
    );
  }

  #sendReads(): void {
    const queued = this.#queuedReads ?? [];
    this.#queuedReads = undefined;
    if (this.#closed) {
      for (const entry of queued)
        entry.resolve({ kind: "failed", error: { code: "ECLOSED", message: "publish pool closed" } });
      return;
    }
    this.readJobs += 1;
    const target = this.#pick();
    void this.#post(target, { kind: "read", jobs: queued.map((entry) => entry.job) }).then((answer) => {
      // One outcome per read, or one failure (the worker died) for all of them.
      queued.forEach((entry, index) => {
        const each: WorkerReadOutcome | undefined =
          answer.kind === "lost" ? { kind: "failed", error: answer.error } : answer.outcomes[index];
        entry.resolve(
          each === undefined
            ? { kind: "failed", error: { code: "EWORKER", message: "publish worker answered too few reads" } }
            : this.#received(target, each),
        );
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
    return {
      kind: "read",
      header: outcome.header,
      bodySize: outcome.bodySize,
      bytes: new Uint8Array(buffer, 0, length),
    };
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
      worker.worker.postMessage({ kind: "release", chunks } satisfies PublishWorkerRequest);
    }
  }

  #run(job: PublishJob): Promise<PublishOutcome> {
    if (this.#closed)
      return Promise.resolve({ kind: "failed", error: { code: "ECLOSED", message: "publish pool closed" } });
    const target = this.#pick();
    const outgoing = job.memory === undefined ? job : { ...job, memory: this.#share(target, job.memory) };
    return this.#post(target, { kind: "publish", job: outgoing }).then((answer) =>
      answer.kind === "lost" ? { kind: "failed", error: answer.error } : answer.outcome,
    );
  }

  /** Only the first job on a worker that uses a shared buffer carries it; later ones name it by id. */
  #share<M extends { readonly id: number; readonly buffer: SharedArrayBuffer }>(
    target: PoolWorker,
    memory: M,
  ): SharedBodyReference<M> {
    if (target.memories.has(memory.id)) {
      const { buffer: _sent, ...named } = memory;
      return named;
    }
    target.memories.add(memory.id);
    return memory;
  }

  #post<R extends Outgoing>(target: PoolWorker, outgoing: R): Promise<Answer<R["kind"]>> {
    const id = ++this.#nextId;
    return new Promise<Answer<R["kind"]>>((resolve) => {
      // The worker answers request `id` with the reply of the request's kind (or the pool reports it lost).
      target.pending.set(id, { resolve: resolve as (answer: Answer<PublishWorkerReply["kind"]>) => void });
      if (target.pending.size === 1) target.worker.ref();
      target.worker.postMessage({ id, ...outgoing });
    });
  }

  /** Makes every worker drop its reference to shared body buffer `id` (the pool let it go). */
  forget(id: number): void {
    for (const entry of this.#workers) {
      if (entry.memories.delete(id))
        entry.worker.postMessage({ kind: "forget", memory: id } satisfies PublishWorkerRequest);
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
    const workerData: PublishWorkerData = {
      readBufferBytes: Math.floor(this.#readBufferBytes / this.#size),
      timings: {
        segmentWrite: this.#timings.segmentWrite.handle,
        segmentSync: this.#timings.segmentSync.handle,
        objectPublish: this.#timings.objectPublish.handle,
        objectRead: this.#timings.objectRead.handle,
      },
    };
    // Beside this module in the sources; beside the bundle in dist (tsup.config.ts builds the thread as a top-level entry).
    const worker: Worker = startWorkerModule(new URL("./publish-worker-thread.js", import.meta.url), { workerData });
    worker.unref();
    const entry: PoolWorker = { worker, pending: new Map(), memories: new Set() };
    const failAll = (message: string): void => {
      const index = this.#workers.indexOf(entry);
      if (index >= 0) this.#workers.splice(index, 1);
      for (const job of entry.pending.values()) job.resolve({ kind: "lost", error: { code: "EWORKER", message } });
      entry.pending.clear();
    };
    worker.on("message", (reply: PublishWorkerReply) => {
      const job = entry.pending.get(reply.id);
      if (job === undefined) return;
      entry.pending.delete(reply.id);
      if (entry.pending.size === 0) worker.unref();
      job.resolve(reply);
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
