// ObjectStore on a local directory: the embedded default. A put writes a temp file, fsyncs it, publishes it with
// link(2) (atomic and create-only: EEXIST means another writer won) and fsyncs the directory — as one job on a
// publish worker thread (publish-worker/file-publish-worker.ts) — so an object is
// either absent or complete and durable. Each file starts with an 8-byte header ("NOB1" + the body's CRC32C,
// big-endian), so whole reads are verified and head() needs no recomputation; bodies built in `allocateBody`
// memory (its `accelerations`) carry room for it and reach the worker as shared memory, without a copy.
// Layout under `root`: `objects/` (keys mapped by file-system-key-path.ts) and `tmp/` (in-progress puts; a crash
// can leave files there, never in `objects/`). Safe for several stores, and processes, sharing one root on one
// local filesystem; not for network filesystems without atomic link(2). Reads return fresh arrays.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { type FileHandle, open, readdir, rmdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import {
  ErrorCode,
  NereusError,
  OBJECT_STORE_SPI_VERSION,
  SharedLatencyHistogram,
  crc32c,
  type LatencySnapshot,
  type GatedPut,
  type ObjectInfo,
  type ObjectIoOptions,
  type ObjectListPage,
  type ObjectStore,
  type ObjectStoreAccelerations,
  type PutOptions,
} from "@nereus/core";
import { checkObjectRequest, objectRangeOutside } from "@nereus/core/internal";
import { assertListPrefix } from "../object-keys/assert-object-key.js";
import { bodyCrc32c, checkKnownCrc32c } from "../object-store/body-crc32c.js";
import { OBJECT_FILE_SUFFIX, fileSystemKeyPath } from "./file-system-key-path.js";
import { FilePublishPool } from "./publish-worker/file-publish-worker.js";
import type { PublishError, PublishOutcome } from "./publish-worker/publish-jobs.js";
import { SharedBodyPool } from "./shared-body-pool.js";
import { mapFileSystemError } from "./map-file-system-error.js";
import { StoreLifecycle } from "../object-store/store-lifecycle.js";
import { type StoreWriteHealth, type StoreWriteHealthListener, StoreWriteHealthTracker } from "./store-write-health.js";
import { fsyncDirectory, makeDirectories } from "./durable-directories.js";
import { DEFAULT_HOT_READ_SEGMENTS, type HotSegmentReadsStats } from "./segments/hot-segment-reads.js";
import { DEFAULT_LENT_READ_BUFFER_BYTES, type LentReadBuffersStats } from "./segments/lent-read-buffers.js";
import { MAX_SEGMENT_BYTES, SegmentLog, type SegmentLogStats } from "./segments/segment-log.js";

const FILE_MAGIC = Buffer.from("NOB1", "latin1");
const HEADER_BYTES = 8;
const EMPTY = new Uint8Array(0);
const DEFAULT_PUBLISH_WORKERS = 2;
const DEFAULT_SEGMENT_MAX_OBJECT_BYTES = 16 * 1024 * 1024;
const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;
/** What `ioTimings().hotRead` reports before the segment layout opened. */
const NO_TIMINGS = SharedLatencyHistogram.create().snapshot();
const DEFAULT_COMPACT_BELOW = 0.25;

/** The segment layout (segments/segment-log.ts, docs/segment-layout.md). */
export interface SegmentLayoutOptions {
  /** Objects up to this many bytes go to segments, larger ones to files of their own (default 16 MiB). */
  readonly maxObjectBytes?: number;
  /** A segment is sealed before the record that would take it past this many bytes (default 64 MiB). */
  readonly segmentBytes?: number;
  /** Compact a sealed segment whose live bytes fall below this fraction of its size (default 0.25; 0 = never). */
  readonly compactBelow?: number;
  /**
   * Reads of the newest this-many segments run on the calling thread, not a worker: a synchronous read of bytes the
   * page cache holds, with no thread hand-off; three reads in a row slower than 2 ms turn that segment's reads back
   * to the workers (default 16; 0 = every read on a worker). See segments/hot-segment-reads.ts.
   */
  readonly hotReadSegments?: number;
  /**
   * Bytes of read buffers those reads reuse once nothing references a read's bytes any more (default 256 MiB,
   * allocated as reads need them and let go after 30 s without reads; 0: a new buffer per read). Saves the page
   * faults and the full garbage collections of fresh buffers while consumers catch up. See
   * segments/lent-read-buffers.ts.
   */
  readonly hotReadBufferBytes?: number;
}

export interface FileSystemObjectStoreOptions {
  /** Directory holding the store; created on first use. */
  readonly root: string;
  /** Worker threads that write, fsync and link object files (default 2; started on the first put). */
  readonly publishWorkers?: number;
  /**
   * Bytes of read buffers the workers keep and lend out again once nothing references a read's bytes any more
   * (default 128 MiB; 0: a new buffer per read). Saves the page faults and garbage collections of fresh buffers.
   */
  readonly readBufferBytes?: number;
  /**
   * "fsync" (default): a put resolves once the file and its directory entry are fsynced. "os-buffered": no fsync —
   * a put resolves once the file is linked; it survives a crash of this process but not of the OS or the machine
   * (what Apache Kafka does by default).
   */
  readonly durability?: ObjectDurability;
  /**
   * Append objects up to a size to segment files (one write and one shared fdatasync per group of puts; no file,
   * link or directory fsync per object) instead of a file each. Objects already stored as files stay readable and
   * deletable. The segment directory takes a lock: one store (process) at a time. Off by default.
   */
  readonly segments?: boolean | SegmentLayoutOptions;
  /**
   * Told of every write that fails (a full disk, say) and of the first success after failures (see
   * {@link FileSystemObjectStore.writeHealth}). Listeners run on the store's path and must not block.
   */
  readonly writeHealth?: StoreWriteHealthListener;
}

/** When a put counts as done (see `FileSystemObjectStoreOptions.durability`). */
export type ObjectDurability = "fsync" | "os-buffered";

interface ListedObject {
  readonly key: string;
  readonly size: number;
}

/**
 * An `ObjectStore` on a local directory. Invariants (beyond the SPI's): a key's file appears atomically, complete
 * and fsynced, and is never replaced; `putIfAbsent` reports `{ created: true }` only for the call whose link(2)
 * published the file; keys cannot name paths outside `root`; whole-object reads are verified against the stored
 * CRC32C (`OBJECT_CHECKSUM_MISMATCH` on corruption), ranged reads are not (the caller's format verifies them).
 */
export class FileSystemObjectStore implements ObjectStore, AsyncDisposable {
  readonly spiVersion = OBJECT_STORE_SPI_VERSION;
  readonly root: string;
  /**
   * Bodies in reused shared memory (`allocateBody` / `releaseBody`), and with the segment layout, gated puts
   * (`putIfAbsentGated`); see `ObjectStoreAccelerations`.
   */
  readonly accelerations: Required<ObjectStoreAccelerations> = {
    allocateBody: (length) => this.#allocateBody(length),
    releaseBody: (body) => this.#releaseBody(body),
    putIfAbsentGated: (key, body, options) => this.#putIfAbsentGated(key, body, options),
  };

  readonly #objectsDirectory: string;
  readonly #temporaryDirectory: string;
  readonly #lifecycle = new StoreLifecycle("filesystem object store");
  readonly #publishers: FilePublishPool;
  readonly #fsync: boolean;
  /** Shared memory handed out by `allocateBody` (reused after `releaseBody`): first HEADER_BYTES are the header. */
  readonly #bodies: SharedBodyPool;
  #ready: Promise<void> | undefined;
  readonly #segmentOptions: Required<SegmentLayoutOptions> | undefined;
  #segments: Promise<SegmentLog> | undefined;
  #openedSegments: SegmentLog | undefined;
  /** Puts in flight by key (segment layout): a second put of a key waits for the first, so both layouts stay create-only. */
  readonly #claims = new Map<string, Promise<unknown>>();
  readonly #health: StoreWriteHealthTracker;

  constructor(options: FileSystemObjectStoreOptions) {
    if (typeof options.root !== "string" || options.root.length === 0) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, "root must be a non-empty path", { retryable: false });
    }
    this.root = path.resolve(options.root);
    this.#objectsDirectory = path.join(this.root, "objects");
    this.#temporaryDirectory = path.join(this.root, "tmp");
    if (
      options.readBufferBytes !== undefined &&
      !(Number.isSafeInteger(options.readBufferBytes) && options.readBufferBytes >= 0)
    ) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `readBufferBytes must be a non-negative integer, got ${String(options.readBufferBytes)}`,
        { retryable: false },
      );
    }
    const publishers = new FilePublishPool(options.publishWorkers ?? DEFAULT_PUBLISH_WORKERS, {
      readBufferBytes: options.readBufferBytes,
    });
    this.#publishers = publishers;
    this.#bodies = new SharedBodyPool({ headerBytes: HEADER_BYTES, onDrop: (id) => publishers.forget(id) });
    const durability = options.durability ?? "fsync";
    if (durability !== "fsync" && durability !== "os-buffered") {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `durability must be "fsync" or "os-buffered", got ${String(durability)}`,
        { retryable: false },
      );
    }
    this.#fsync = durability === "fsync";
    this.#segmentOptions = segmentLayout(options.segments);
    this.#health = new StoreWriteHealthTracker(options.writeHealth);
  }

  /**
   * Whether the store can write, as its last writes found: not writable from a write that failed (no space left,
   * say) until every part that failed wrote again. With the segment layout, the append after a failure for lack of
   * space repairs the active segment and writes, so writes resume by themselves once the disk has room. Reads are
   * served either way.
   */
  get writeHealth(): StoreWriteHealth {
    return this.#health.current;
  }

  /** Counters of the segment layout (undefined when it is off or not opened yet). */
  get segmentStats(): SegmentLogStats | undefined {
    return this.#openedSegments?.stats;
  }

  /** Counters of the segment reads served on the calling thread (undefined when the layout is off or not opened). */
  get hotReadStats(): HotSegmentReadsStats | undefined {
    return this.#openedSegments?.hotReads;
  }

  /**
   * Counters of the reusable read buffers: `eventLoop`, the segment reads on the calling thread (undefined when the
   * segment layout is off or not opened); `workers`, the reads on the publish workers (lent: answered in a chunk a
   * worker lent; own: in a buffer of their own; returned: chunks given back once collected).
   */
  get readBufferStats(): {
    readonly eventLoop: LentReadBuffersStats | undefined;
    readonly workers: { readonly lent: number; readonly own: number; readonly returned: number };
  } {
    const pool = this.#publishers;
    return {
      eventLoop: this.#openedSegments?.hotReadBuffers,
      workers: { lent: pool.lentReads, own: pool.ownBufferReads, returned: pool.releasedChunks },
    };
  }

  /**
   * How long the physical steps of this store took so far: segment writes, their fdatasyncs, object files published
   * in the files layout and reads, as its worker threads recorded them (see `FilePublishPool.timings`), and
   * `hotRead`, the segment reads served on the calling thread (see segments/hot-segment-reads.ts).
   */
  ioTimings(): ReturnType<FilePublishPool["timings"]> & { readonly hotRead: LatencySnapshot } {
    return { ...this.#publishers.timings(), hotRead: this.#openedSegments?.hotReadTimings() ?? NO_TIMINGS };
  }

  /** What opening the segment layout found: bytes cut off a torn tail after a crash, and why (undefined: none). */
  get segmentRecovery(): { readonly bytes: number; readonly reason: string } | undefined {
    return this.#openedSegments?.recovered.truncated;
  }

  /** Why opening the segment layout rebuilt its index from the segments (undefined: the index was used as found). */
  get segmentRebuiltIndex(): string | undefined {
    return this.#openedSegments?.recovered.rebuiltIndex;
  }

  /** Opens the segment layout now (it opens on first use otherwise), e.g. to report its recovery at start-up. */
  async open(): Promise<void> {
    await this.#lifecycle.run("put", undefined, async () => {
      await this.#ensureReady();
      await this.#segmentLog();
    });
  }

  async putIfAbsent(key: string, body: Uint8Array, options: PutOptions = {}): Promise<{ readonly created: boolean }> {
    return this.#lifecycle.run("put", options.signal, async () => {
      const target = path.join(this.#objectsDirectory, fileSystemKeyPath.objectPath(key));
      if (!(body instanceof Uint8Array)) {
        throw new NereusError(ErrorCode.INVALID_ARGUMENT, "object body must be a Uint8Array", { retryable: false });
      }
      const crc = bodyCrc32c(body, options.crc32c);
      await this.#ensureReady();
      const log = await this.#segmentLog();
      if (log !== undefined) return this.#claim(key, () => this.#putWithSegments(log, key, target, body, crc));
      return this.#putFile(key, target, body, crc);
    });
  }

  /**
   * Segment layout only: queues a segment put of a new key and resolves with its gate (see
   * `ObjectStoreAccelerations.putIfAbsentGated`); `undefined` — nothing started — when the layout is off, the body
   * goes to a file of its own, or the key is taken or being put.
   */
  async #putIfAbsentGated(key: string, body: Uint8Array, options: PutOptions = {}): Promise<GatedPut | undefined> {
    return this.#lifecycle.run("put", options.signal, async () => {
      if (!(body instanceof Uint8Array)) {
        throw new NereusError(ErrorCode.INVALID_ARGUMENT, "object body must be a Uint8Array", { retryable: false });
      }
      checkKnownCrc32c(options.crc32c);
      await this.#ensureReady();
      const log = await this.#segmentLog();
      if (
        log === undefined ||
        this.#claims.has(key) ||
        log.info(key) !== undefined ||
        log.whenWritten(key) !== undefined
      )
        return undefined;
      if (body.length > (this.#segmentOptions as Required<SegmentLayoutOptions>).maxObjectBytes) return undefined;
      // A key written as an object file before the layout was turned on stays with the ungated path, which checks it
      // in order with the write. Nothing else creates files while this store holds the key's claim (taken below,
      // with no await in between).
      if (existsSync(path.join(this.#objectsDirectory, fileSystemKeyPath.objectPath(key)))) return undefined;
      const crc = bodyCrc32c(body, options.crc32c);
      const pooled = this.#bodies.lookup(body);
      let started;
      if (pooled === undefined) {
        started = log.putGated(key, body, crc);
      } else {
        this.#bodies.beginUse(pooled.memory);
        try {
          started = log.putGated(
            key,
            { id: pooled.id, buffer: pooled.memory, start: HEADER_BYTES, length: body.length },
            crc,
          );
        } catch (error) {
          // Refused (the layout failed earlier): nothing reads the memory.
          this.#bodies.endUse(pooled.memory);
          throw error;
        }
        void started.written.then(
          () => this.#bodies.endUse(pooled.memory),
          () => this.#bodies.endUse(pooled.memory),
        );
      }
      const done = started.written.then((created) => ({ created }));
      this.#claims.set(key, done);
      const release = (): void => {
        if (this.#claims.get(key) === done) this.#claims.delete(key);
      };
      done.then(release, release);
      this.#lifecycle.track(done);
      return { gate: started.gate, done };
    });
  }

  /** Segment layout on: small bodies go to a segment, large ones to a file; either way the key must be new in both. */
  async #putWithSegments(
    log: SegmentLog,
    key: string,
    target: string,
    body: Uint8Array,
    crc: number,
  ): Promise<{ readonly created: boolean }> {
    if (log.info(key) !== undefined) return { created: false };
    if (body.length > (this.#segmentOptions as Required<SegmentLayoutOptions>).maxObjectBytes)
      return this.#putFile(key, target, body, crc);
    const pooled = this.#bodies.lookup(body);
    // The worker skips the record if the key exists as an object file (written before the layout was turned on).
    if (pooled === undefined) return { created: await log.put(key, body, crc, target) };
    this.#bodies.beginUse(pooled.memory);
    try {
      return {
        created: await log.put(
          key,
          { id: pooled.id, buffer: pooled.memory, start: HEADER_BYTES, length: body.length },
          crc,
          target,
        ),
      };
    } finally {
      this.#bodies.endUse(pooled.memory);
    }
  }

  /** Runs `put` with no other put of `key` in flight in this store. */
  async #claim<T>(key: string, put: () => Promise<T>): Promise<T> {
    for (let held = this.#claims.get(key); held !== undefined; held = this.#claims.get(key))
      await held.catch(() => undefined);
    const running = put();
    this.#claims.set(key, running);
    try {
      return await running;
    } finally {
      if (this.#claims.get(key) === running) this.#claims.delete(key);
    }
  }

  /** One object file: temp file, fsync, link(2), directory fsync (publish-worker/file-publish-worker.ts). */
  /** `crc`: the CRC32C of `body` (it goes into the file header). */
  async #putFile(key: string, target: string, body: Uint8Array, crc: number): Promise<{ readonly created: boolean }> {
    const temporary = path.join(this.#temporaryDirectory, `${randomUUID()}.tmp`);
    const pooled = this.#bodies.lookup(body);
    let outcome;
    if (pooled === undefined) {
      outcome = await this.#publishers.publish({ temporary, target, ...plainFileParts(body, crc), fsync: this.#fsync });
    } else {
      // The header goes into the buffer's first bytes; the worker writes header + body from shared memory.
      writeFileHeader(new Uint8Array(pooled.memory, 0, HEADER_BYTES), crc);
      this.#bodies.beginUse(pooled.memory);
      try {
        const memory = { id: pooled.id, buffer: pooled.memory, length: HEADER_BYTES + body.length };
        outcome = await this.#publishers.publish({
          temporary,
          target,
          header: EMPTY,
          body: EMPTY,
          memory,
          fsync: this.#fsync,
        });
      } finally {
        this.#bodies.endUse(pooled.memory);
      }
    }
    if (outcome.kind === "published") {
      this.#health.succeeded("object-files");
      return { created: outcome.created };
    }
    const error = this.#publishFailure(key, outcome);
    this.#health.failed("object-files", error);
    throw error;
  }

  /** The error of a publish that did not succeed. */
  #publishFailure(key: string, outcome: Exclude<PublishOutcome, { kind: "published" }>): NereusError {
    if (outcome.kind === "linked-unsynced") {
      return new NereusError(
        ErrorCode.OBJECT_UPLOAD_FAILED,
        `object ${key} was linked but its directory could not be synced`,
        {
          retryable: true,
          cause: publishError(outcome.error),
          details: { key, mayHaveApplied: true },
        },
      );
    }
    if (outcome.error.code === "EWORKER") {
      // The worker died mid-job: the link may or may not have happened.
      return new NereusError(ErrorCode.OBJECT_UPLOAD_FAILED, `object ${key}: ${outcome.error.message}`, {
        retryable: true,
        cause: publishError(outcome.error),
        details: { key, mayHaveApplied: true },
      });
    }
    return mapFileSystemError(publishError(outcome.error), "put", key);
  }

  /**
   * Memory for a body of `length` bytes: a shared buffer with room for the file header in front, from a pool of
   * reused buffers. `putIfAbsent` hands it to a publish worker by reference (the bytes are neither copied nor
   * cloned); `releaseBody` returns it to the pool once no put of it is in flight. Contents are unspecified.
   */
  #allocateBody(length: number): Uint8Array {
    if (!Number.isSafeInteger(length) || length < 0) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `body length must be a non-negative integer, got ${String(length)}`,
        { retryable: false },
      );
    }
    return this.#bodies.allocate(length);
  }

  /** The caller is done with a body from `allocateBody`: its memory is reused once no put of it is in flight. */
  #releaseBody(body: Uint8Array): void {
    this.#bodies.release(body);
  }

  async get(
    key: string,
    range?: { readonly offset: number; readonly length: number },
    options: ObjectIoOptions = {},
  ): Promise<Uint8Array> {
    return this.#lifecycle.run("get", options.signal, async () => {
      const target = path.join(this.#objectsDirectory, fileSystemKeyPath.objectPath(key));
      if (range !== undefined) checkObjectRequest.range(range);
      const fromSegment = await (await this.#segmentLog())?.read(key, range);
      if (fromSegment !== undefined) return fromSegment;
      // One worker job: open, fstat, header, the bytes, close (see publish-worker/file-publish-worker.ts).
      const outcome = await this.#publishers.read({
        path: target,
        headerBytes: HEADER_BYTES,
        offset: range?.offset ?? 0,
        length: range?.length,
      });
      if (outcome.kind === "failed") throw mapFileSystemError(publishError(outcome.error), "get", key);
      const { crc, size } = checkHeader(outcome.header, outcome.bodySize, key);
      if (range === undefined) {
        if (outcome.bytes.length !== size)
          throw corrupt(key, `file ends after ${String(HEADER_BYTES + outcome.bytes.length)} byte(s)`);
        const actual = crc32c(outcome.bytes);
        if (actual !== crc) {
          throw new NereusError(ErrorCode.OBJECT_CHECKSUM_MISMATCH, `object ${key} does not match its stored CRC32C`, {
            retryable: false,
            details: { key, expected: crc, actual },
          });
        }
        return outcome.bytes;
      }
      if (range.offset + range.length > size) throw objectRangeOutside(key, range, size);
      if (outcome.bytes.length !== range.length)
        throw corrupt(key, `file ends after ${String(HEADER_BYTES + range.offset + outcome.bytes.length)} byte(s)`);
      return outcome.bytes;
    });
  }

  async head(key: string, options: ObjectIoOptions = {}): Promise<ObjectInfo | undefined> {
    return this.#lifecycle.run("head", options.signal, async () => {
      const target = path.join(this.#objectsDirectory, fileSystemKeyPath.objectPath(key));
      const log = await this.#segmentLog();
      await log?.whenWritten(key)?.catch(() => undefined);
      const inSegment = log?.info(key);
      if (inSegment !== undefined) return inSegment;
      let handle: FileHandle;
      try {
        handle = await open(target, "r");
      } catch (error) {
        if ((error as { code?: unknown }).code === "ENOENT") return undefined;
        throw mapFileSystemError(error, "head", key);
      }
      try {
        const { size, crc } = await readHeader(handle, key);
        return { key, size, crc32c: crc };
      } catch (error) {
        throw mapFileSystemError(error, "head", key);
      } finally {
        await handle.close();
      }
    });
  }

  async list(
    prefix: string,
    options: ObjectIoOptions & { readonly continuationToken?: string; readonly limit?: number } = {},
  ): Promise<ObjectListPage> {
    return this.#lifecycle.run("list", options.signal, async () => {
      assertListPrefix(prefix);
      const limit = checkObjectRequest.listLimit(options.limit);
      const lastSlash = prefix.lastIndexOf("/");
      const folder = lastSlash < 0 ? [] : prefix.slice(0, lastSlash).split("/");
      const relative = fileSystemKeyPath.directoryPath(folder);
      if (relative === undefined) return { items: [] };
      const after =
        options.continuationToken === undefined ? undefined : Buffer.from(options.continuationToken, "utf8");
      const found: ListedObject[] = [];
      const inSegments = (await this.#segmentLog())?.list(prefix, options.continuationToken, limit + 1) ?? [];
      try {
        await this.#walk(
          path.join(this.#objectsDirectory, relative),
          lastSlash < 0 ? "" : prefix.slice(0, lastSlash + 1),
          prefix.slice(lastSlash + 1),
          after,
          found,
          limit + 1,
        );
      } catch (error) {
        throw mapFileSystemError(error, "list");
      }
      const merged = inSegments.length === 0 ? found : mergeByKey(found, inSegments);
      const items = merged.slice(0, limit).map((item): ObjectInfo => ({ key: item.key, size: item.size }));
      const last = items.at(-1);
      return merged.length > limit && last !== undefined ? { items, continuationToken: last.key } : { items };
    });
  }

  async deleteMany(keys: readonly string[], options: ObjectIoOptions = {}): Promise<void> {
    return this.#lifecycle.run("delete", options.signal, async () => {
      // Every key is validated (objectPath) before anything is deleted.
      const paths = new Map(
        keys.map((key) => [key, path.join(this.#objectsDirectory, fileSystemKeyPath.objectPath(key))]),
      );
      const log = await this.#segmentLog();
      const inFiles = log === undefined ? keys : await log.delete(keys);
      const targets = inFiles.map((key) => ({ key, target: paths.get(key) as string }));
      const directories = new Set<string>();
      for (const { key, target } of targets) {
        try {
          await unlink(target);
          directories.add(path.dirname(target));
        } catch (error) {
          if ((error as { code?: unknown }).code !== "ENOENT") throw mapFileSystemError(error, "delete", key);
        }
      }
      for (const directory of directories) {
        try {
          await fsyncDirectory(directory);
        } catch (error) {
          if ((error as { code?: unknown }).code !== "ENOENT") throw mapFileSystemError(error, "delete");
        }
        await this.#pruneEmptyDirectories(directory);
      }
    });
  }

  /** Idempotent. Refuses new calls, waits for in-flight ones and stops the publish workers. */
  async close(): Promise<void> {
    await this.#lifecycle.close(() => undefined);
    const log = await this.#segments?.catch(() => undefined);
    await log?.close();
    await this.#publishers.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #ensureReady(): Promise<void> {
    this.#ready ??= (async () => {
      await makeDirectories(this.#objectsDirectory);
      await makeDirectories(this.#temporaryDirectory);
    })().catch((error: unknown) => {
      this.#ready = undefined;
      throw mapFileSystemError(error, "put");
    });
    return this.#ready;
  }

  /** The segment layout, opened (recovered) on first use; undefined when it is off. */
  #segmentLog(): Promise<SegmentLog | undefined> {
    const layout = this.#segmentOptions;
    if (layout === undefined) return Promise.resolve(undefined);
    this.#segments ??= SegmentLog.open({
      directory: path.join(this.root, "segments"),
      pool: this.#publishers,
      fsync: this.#fsync,
      segmentBytes: layout.segmentBytes,
      compactBelow: layout.compactBelow,
      hotReadSegments: layout.hotReadSegments,
      hotReadBufferBytes: layout.hotReadBufferBytes,
      health: this.#health,
    }).then(
      (log) => {
        this.#openedSegments = log;
        return log;
      },
      (error: unknown) => {
        this.#segments = undefined;
        throw NereusError.is(error) ? error : mapFileSystemError(error, "get");
      },
    );
    return this.#segments;
  }

  /** Removes now-empty directories from `directory` up to (excluding) the objects directory. */
  async #pruneEmptyDirectories(directory: string): Promise<void> {
    for (
      let current = directory;
      current.startsWith(this.#objectsDirectory + path.sep);
      current = path.dirname(current)
    ) {
      try {
        await rmdir(current);
      } catch {
        return;
      }
    }
  }

  /**
   * Depth-first walk in key order. A file sorts by its key, a directory by its key folder + "/", which yields
   * UTF-8 byte order of the keys. Subtrees entirely at or before `after` are skipped. Stops at `max` results.
   */
  async #walk(
    directory: string,
    keyBase: string,
    namePrefix: string,
    after: Buffer | undefined,
    found: ListedObject[],
    max: number,
  ): Promise<void> {
    let entries;
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT" || (error as { code?: unknown }).code === "ENOTDIR") return;
      throw error;
    }
    const children: { sortKey: Buffer; key: string; file: boolean; name: string }[] = [];
    for (const entry of entries) {
      const file = entry.isFile() && entry.name.endsWith(OBJECT_FILE_SUFFIX);
      if (!file && !entry.isDirectory()) continue;
      const segment = fileSystemKeyPath.decodeSegment(
        file ? entry.name.slice(0, -OBJECT_FILE_SUFFIX.length) : entry.name,
      );
      if (segment === undefined || !segment.startsWith(namePrefix)) continue;
      const key = keyBase + segment;
      children.push({ sortKey: Buffer.from(file ? key : `${key}/`, "utf8"), key, file, name: entry.name });
    }
    children.sort((left, right) => Buffer.compare(left.sortKey, right.sortKey));
    for (const child of children) {
      if (found.length >= max) return;
      const childPath = path.join(directory, child.name);
      if (child.file) {
        if (after !== undefined && Buffer.compare(child.sortKey, after) <= 0) continue;
        const info = await stat(childPath).catch((error: unknown) => {
          if ((error as { code?: unknown }).code === "ENOENT") return undefined;
          throw error;
        });
        if (info !== undefined) found.push({ key: child.key, size: Math.max(0, info.size - HEADER_BYTES) });
      } else {
        const insideAfter = after !== undefined && after.subarray(0, child.sortKey.length).equals(child.sortKey);
        if (after !== undefined && !insideAfter && Buffer.compare(child.sortKey, after) < 0) continue;
        await this.#walk(childPath, `${child.key}/`, "", after, found, max);
      }
    }
  }
}

/** Creates a `FileSystemObjectStore`. Directories are created on the first put. */
export function createFileSystemObjectStore(options: FileSystemObjectStoreOptions): FileSystemObjectStore {
  return new FileSystemObjectStore(options);
}

/** The segment layout's settings with defaults, validated; undefined when it is off. */
function segmentLayout(option: boolean | SegmentLayoutOptions | undefined): Required<SegmentLayoutOptions> | undefined {
  if (option === undefined || option === false) return undefined;
  const given = option === true ? {} : option;
  const layout = {
    maxObjectBytes: given.maxObjectBytes ?? DEFAULT_SEGMENT_MAX_OBJECT_BYTES,
    segmentBytes: given.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
    compactBelow: given.compactBelow ?? DEFAULT_COMPACT_BELOW,
    hotReadSegments: given.hotReadSegments ?? DEFAULT_HOT_READ_SEGMENTS,
    hotReadBufferBytes: given.hotReadBufferBytes ?? DEFAULT_LENT_READ_BUFFER_BYTES,
  };
  if (
    !Number.isSafeInteger(layout.maxObjectBytes) ||
    layout.maxObjectBytes < 0 ||
    layout.maxObjectBytes > MAX_SEGMENT_BYTES
  ) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `segments.maxObjectBytes must be an integer in [0, ${String(MAX_SEGMENT_BYTES)}], got ${String(layout.maxObjectBytes)}`,
      { retryable: false },
    );
  }
  if (
    !Number.isSafeInteger(layout.segmentBytes) ||
    layout.segmentBytes < 1 ||
    layout.segmentBytes > MAX_SEGMENT_BYTES
  ) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `segments.segmentBytes must be an integer in [1, ${String(MAX_SEGMENT_BYTES)}], got ${String(layout.segmentBytes)}`,
      { retryable: false },
    );
  }
  if (!Number.isSafeInteger(layout.hotReadSegments) || layout.hotReadSegments < 0) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `segments.hotReadSegments must be a non-negative integer, got ${String(layout.hotReadSegments)}`,
      { retryable: false },
    );
  }
  if (!Number.isSafeInteger(layout.hotReadBufferBytes) || layout.hotReadBufferBytes < 0) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `segments.hotReadBufferBytes must be a non-negative integer, got ${String(layout.hotReadBufferBytes)}`,
      { retryable: false },
    );
  }
  if (typeof layout.compactBelow !== "number" || !(layout.compactBelow >= 0 && layout.compactBelow < 1)) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `segments.compactBelow must be in [0, 1), got ${String(layout.compactBelow)}`,
      { retryable: false },
    );
  }
  return layout;
}

/** Two key-ordered lists as one (UTF-8 byte order); a key in both appears once. */
function mergeByKey(left: readonly ListedObject[], right: readonly ListedObject[]): ListedObject[] {
  const merged: ListedObject[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const a = left[i];
    const b = right[j];
    const order =
      a === undefined
        ? 1
        : b === undefined
          ? -1
          : Buffer.compare(Buffer.from(a.key, "utf8"), Buffer.from(b.key, "utf8"));
    if (order <= 0 && a !== undefined) {
      merged.push(a);
      i += 1;
      if (order === 0) j += 1;
    } else if (b !== undefined) {
      merged.push(b);
      j += 1;
    }
  }
  return merged;
}

/** A worker's system-call failure as an Error with its errno code (what mapFileSystemError reads). */
function publishError(error: PublishError): Error {
  return Object.assign(new Error(error.message), { code: error.code });
}

async function readExactly(handle: FileHandle, length: number, position: number, key: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  for (let filled = 0; filled < length;) {
    const { bytesRead } = await handle.read(bytes, filled, length - filled, position + filled);
    if (bytesRead === 0) throw corrupt(key, `file ends after ${String(position + filled)} byte(s)`);
    filled += bytesRead;
  }
  return bytes;
}

/** Checks the NOB1 header a read returned; the body's size and stored CRC32C. */
/** Header + body for a body that is not pool memory. */
function plainFileParts(body: Uint8Array, crc: number): { readonly header: Uint8Array; readonly body: Uint8Array } {
  return { header: writeFileHeader(new Uint8Array(HEADER_BYTES), crc), body };
}

/** Writes the NOB1 header of a body with CRC32C `crc` ("NOB1" + the CRC, big-endian) into `header` (HEADER_BYTES long). */
function writeFileHeader(header: Uint8Array, crc: number): Uint8Array {
  header.set(FILE_MAGIC, 0);
  new DataView(header.buffer, header.byteOffset, HEADER_BYTES).setUint32(4, crc);
  return header;
}

function checkHeader(header: Uint8Array, bodySize: number, key: string): { size: number; crc: number } {
  if (header.length < HEADER_BYTES)
    throw corrupt(key, `file has ${String(header.length)} byte(s), fewer than its header`);
  const bytes = Buffer.from(header.buffer, header.byteOffset, header.byteLength);
  if (!bytes.subarray(0, 4).equals(FILE_MAGIC)) throw corrupt(key, "file does not start with the NOB1 header");
  return { size: bodySize, crc: bytes.readUInt32BE(4) };
}

async function readHeader(handle: FileHandle, key: string): Promise<{ size: number; crc: number }> {
  const { size: fileSize } = await handle.stat();
  if (fileSize < HEADER_BYTES) throw corrupt(key, `file has ${String(fileSize)} byte(s), fewer than its header`);
  const header = Buffer.from(await readExactly(handle, HEADER_BYTES, 0, key));
  if (!header.subarray(0, 4).equals(FILE_MAGIC)) throw corrupt(key, "file does not start with the NOB1 header");
  return { size: fileSize - HEADER_BYTES, crc: header.readUInt32BE(4) };
}

function corrupt(key: string, reason: string): NereusError {
  return new NereusError(ErrorCode.OBJECT_CHECKSUM_MISMATCH, `object file of ${key} is corrupt: ${reason}`, {
    retryable: false,
    details: { key },
  });
}
