// Opens the storage stack the broker runs on: the metadata store (SQLite file or etcd), the object store (a
// directory or an S3 bucket), with `storage.bookkeeper` the BookKeeper client and WAL runtime (open-bookkeeper.ts),
// the Object WAL runtime (multi-stream WAL writer, slice reader, completion coordinators, lag admission, background
// materialization — which also copies BookKeeper ranges into object generations) and the stream store composed from
// both WALs, behind the broker's profile gate (profile-guard.ts). With `storage.reclamation.enabled` the runtime's
// collector (and with BookKeeper the ledger collector, reclaim-ledgers.ts) runs in the background, once at start for
// collections a crash left half done (reclaim-on-start.ts), and right after each trim or delete
// (reclaim-after-trim.ts), sharing the stream store's read pins. Each step failing becomes a one-line StartupError
// naming what could not be reached; whatever opened before is closed again. A broker without BookKeeper refuses to
// start on a cluster that has streams on a BookKeeper profile. `close()` closes in reverse order (stream store,
// Object WAL runtime — which uploads pending WAL objects — BookKeeper runtime — which seals its ledgers — and client,
// then the stores).
import fs from "node:fs";
import path from "node:path";
import {
  type LatencySnapshot,
  type MetadataStore,
  type ObjectStore,
  type StorageProfile,
  type StreamStore,
  createStreamStore,
} from "@nereus/core";
import type { BookKeeperLedgerReclaimer } from "@nereus/bookkeeper";
import type { LogDirectory } from "@nereus/kafka";
import { SqliteMetadataStore, createSqliteMetadataStore } from "@nereus/metadata";
import {
  FileSystemObjectStore,
  type ObjectWalRuntime,
  type SegmentLogStats,
  type StoreWriteHealth,
  createFileSystemObjectStore,
  createObjectWalRuntime,
  createS3ObjectStore,
} from "@nereus/object-wal";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { type BrokerConfig, defaultWalLingerMs, materializationMode, servedStorage } from "../config/broker-config.js";
import { StartupError, reasonOf } from "../errors/startup-error.js";
import { BookKeeperStreamMarks } from "./bookkeeper-stream-marks.js";
import { etcdSummary, openEtcd } from "./open-etcd.js";
import { type OpenedBookKeeper, openBookKeeper } from "./open-bookkeeper.js";
import { guardProfiles } from "./profile-guard.js";
import { followUpDelayMs, reclaimAfterTrim } from "./reclaim-after-trim.js";
import { createLedgerReclaimer } from "./reclaim-ledgers.js";
import { resumeReclamation } from "./reclaim-on-start.js";
import { type OrphanSweeps, startOrphanSweeps } from "./reclaim-orphans.js";
import { collectionRoute } from "./reclaim-routes.js";
import { reclamationLogger } from "./reclamation-log.js";
import { StorageWriteLog } from "./storage-write-log.js";

export interface BrokerStorage {
  readonly metadata: MetadataStore;
  readonly objectStore: ObjectStore;
  readonly runtime: ObjectWalRuntime;
  /** The BookKeeper client and WAL runtime, when `storage.bookkeeper` is configured. */
  readonly bookkeeper: OpenedBookKeeper | undefined;
  /** The BookKeeper ledger collector, with BookKeeper and `storage.reclamation.enabled`. */
  readonly ledgerReclaimer: BookKeeperLedgerReclaimer | undefined;
  readonly store: StreamStore;
  /** Where the partitions' bytes live, as DescribeLogDirs reports it (the objects directory, or the bucket). */
  readonly logDir: LogDirectory;
  /** For the start-up log line (no secrets). */
  readonly summary: Readonly<Record<string, unknown>>;
  /** Whether the object store can write, as its last writes found (always writable for S3, whose errors are per request). */
  writeHealth(): StoreWriteHealth;
  close(): Promise<void>;
}

/** The embedded stores' physical steps, by step name (see {@link storageIoTimings}). */
export type StorageIoTimings = Readonly<Record<string, LatencySnapshot>>;

/**
 * How long the physical steps of the embedded stores took so far, recorded by their I/O threads: `segment_write` /
 * `segment_sync` (a segment job's writes and its fdatasync), `object_publish` (an object file of the files layout),
 * `object_read` (a read of an object or segment range, as Fetch and materialization do on a cache miss, on a worker),
 * `object_read_hot` (such a read of one of the newest segments, on the event loop: see the object-wal README),
 * `sqlite_round` (a SQLite writer round, BEGIN to COMMIT, without gate waits), `sqlite_gate_wait` (a round waiting
 * for the segment writes its txns stand behind), `sqlite_wal_sync` (the `-wal` datasync). Empty for etcd and S3,
 * whose steps are network calls timed by their clients.
 */
export function storageIoTimings(storage: Pick<BrokerStorage, "metadata" | "objectStore">): StorageIoTimings {
  const timings: Record<string, LatencySnapshot> = {};
  if (storage.objectStore instanceof FileSystemObjectStore) {
    const objects = storage.objectStore.ioTimings();
    timings["segment_write"] = objects.segmentWrite;
    timings["segment_sync"] = objects.segmentSync;
    timings["object_publish"] = objects.objectPublish;
    timings["object_read"] = objects.objectRead;
    timings["object_read_hot"] = objects.hotRead;
  }
  if (storage.metadata instanceof SqliteMetadataStore) {
    const metadata = storage.metadata.ioTimings();
    timings["sqlite_round"] = metadata.round;
    timings["sqlite_gate_wait"] = metadata.gateWait;
    timings["sqlite_wal_sync"] = metadata.walSync;
  }
  return timings;
}

/** One pool of reused read buffers as /metrics reports it: reads lent a buffer, reads given their own, bytes held. */
export interface StorageReadBufferPool {
  readonly pool: "event_loop" | "workers";
  readonly lent: number;
  readonly own: number;
  /** Bytes of chunks held now; undefined where the pool does not say (the workers keep theirs). */
  readonly chunkBytes?: number;
}

/**
 * The filesystem store's reused read buffers (see the object-wal README): the segment reads on the event loop and
 * the reads on the publish workers. Empty for S3, and before the segment layout was opened for the event loop's pool.
 */
export function storageReadBuffers(storage: Pick<BrokerStorage, "objectStore">): readonly StorageReadBufferPool[] {
  if (!(storage.objectStore instanceof FileSystemObjectStore)) return [];
  const { eventLoop, workers } = storage.objectStore.readBufferStats;
  const pools: StorageReadBufferPool[] = [{ pool: "workers", lent: workers.lent, own: workers.own }];
  if (eventLoop !== undefined)
    pools.unshift({ pool: "event_loop", lent: eventLoop.lent, own: eventLoop.own, chunkBytes: eventLoop.chunkBytes });
  return pools;
}

/**
 * The filesystem store's segment writer counters (see the object-wal README): write jobs (each one write and one
 * fdatasync), those sent while another was in flight, records written, segments removed, objects moved by
 * compaction. Undefined for S3 and for the files layout.
 */
export function storageSegmentStats(storage: Pick<BrokerStorage, "objectStore">): SegmentLogStats | undefined {
  return storage.objectStore instanceof FileSystemObjectStore ? storage.objectStore.segmentStats : undefined;
}

export interface OpenStorageOptions {
  readonly config: BrokerConfig;
  readonly writerId: string;
  readonly logger: BrokerLogger;
  /** Wraps the stream store (metrics); identity by default. */
  readonly instrument?: (store: StreamStore) => StreamStore;
}

/** Foreground bytes per second at which the embedded broker's materialization yields. */
const EMBEDDED_BUSY_BYTES_PER_SECOND = 256 * 1024;
/** Backlog (payload bytes) and wait after which it materializes even while busy. */
const EMBEDDED_BUSY_LEVEL_ONE_BYTES = 256 * 1024 * 1024;
const EMBEDDED_BUSY_LEVEL_ONE_DELAY_MS = 60_000;
/** The profiles materialization mode "async" builds generations for (the ones that require them). */
const ASYNC_OBJECT_PROFILES: ReadonlySet<StorageProfile> = new Set<StorageProfile>(["OBJECT_WAL_ASYNC_OBJECT"]);
/** With BookKeeper, the BookKeeper object profiles too (their objects are what the profile is for). */
const ASYNC_OBJECT_PROFILES_WITH_BOOKKEEPER: ReadonlySet<StorageProfile> = new Set<StorageProfile>([
  ...ASYNC_OBJECT_PROFILES,
  "BOOKKEEPER_WAL_ASYNC_OBJECT",
  "BOOKKEEPER_WAL_SYNC_OBJECT",
]);

async function closeQuietly(what: string, logger: BrokerLogger, close: () => Promise<void>): Promise<void> {
  try {
    await close();
  } catch (error) {
    logger.warn(`closing ${what} failed`, { error });
  }
}

async function openMetadata(
  config: BrokerConfig,
): Promise<{ metadata: MetadataStore; summary: Record<string, unknown> }> {
  const spec = config.storage.metadata;
  if (spec.kind === "sqlite") {
    const file = path.resolve(config.dataDir, spec.path ?? "metadata.sqlite");
    try {
      return {
        // The default file lies in the data directory, which this broker holds locked (data-dir-lock.ts): no other
        // broker writes it, so its reads may be cached until this store's next write. A file named in the
        // configuration may be shared.
        metadata: await createSqliteMetadataStore({
          path: file,
          durability: config.storage.durability,
          cacheReads: spec.path === undefined,
        }),
        summary: {
          metadata: "sqlite",
          metadataPath: file,
          metadataReadCache: spec.path === undefined ? "on" : "off (the metadata file is named in the configuration)",
          durability: config.storage.durability,
        },
      };
    } catch (error) {
      throw new StartupError(`cannot open the SQLite metadata store ${file}: ${reasonOf(error)}`, { cause: error });
    }
  }
  return { metadata: await openEtcd(spec, config.cluster), summary: etcdSummary(spec) };
}

/** The volume holding `directory`: its size and the bytes an unprivileged user may still write. */
async function volumeCapacity(directory: string): Promise<{ totalBytes: number; usableBytes: number }> {
  const stats = await fs.promises.statfs(directory);
  return { totalBytes: stats.blocks * stats.bsize, usableBytes: stats.bavail * stats.bsize };
}

async function openObjects(
  config: BrokerConfig,
  logger: BrokerLogger,
): Promise<{ objectStore: ObjectStore; logDir: LogDirectory; summary: Record<string, unknown> }> {
  const spec = config.storage.objects;
  if (spec.kind === "filesystem") {
    const root = path.resolve(config.dataDir, spec.root ?? "objects");
    const objectStore = createFileSystemObjectStore({
      root,
      durability: config.storage.durability,
      segments: spec.layout === "segments" && {
        hotReadSegments: spec.hotReadSegments,
        hotReadBufferBytes: spec.readBufferBytes,
      },
      // A full disk: one line at the first failed write, then at most one per 30 s, and one when writes succeed again.
      writeHealth: new StorageWriteLog(logger),
    });
    try {
      // Opening replays the segments now, so a corrupt one is a start-up error and a torn tail is cut before clients come.
      await objectStore.open();
    } catch (error) {
      await objectStore.close().catch(() => undefined);
      throw new StartupError(`cannot open the filesystem object store ${root}: ${reasonOf(error)}`, { cause: error });
    }
    const recovery = objectStore.segmentRecovery;
    return {
      objectStore,
      logDir: { path: root, capacity: () => volumeCapacity(root) },
      summary: {
        objects: "filesystem",
        objectsRoot: root,
        objectsLayout: spec.layout,
        durability: config.storage.durability,
        ...(recovery === undefined
          ? {}
          : { objectsTornTailCut: `${String(recovery.bytes)} byte(s): ${recovery.reason}` }),
        ...(objectStore.segmentRebuiltIndex === undefined
          ? {}
          : { objectsIndexRebuilt: objectStore.segmentRebuiltIndex }),
      },
    };
  }
  const objectStore = await createS3ObjectStore({
    region: spec.region,
    bucket: spec.bucket,
    forcePathStyle: spec.forcePathStyle,
    keyPrefix: spec.keyPrefix,
    ...(spec.endpoint === undefined ? {} : { endpoint: spec.endpoint }),
    ...(spec.accessKeyId === undefined || spec.secretAccessKey === undefined
      ? {}
      : { credentials: { accessKeyId: spec.accessKeyId, secretAccessKey: spec.secretAccessKey } }),
  });
  const where = `s3://${spec.bucket}/${spec.keyPrefix}${spec.endpoint === undefined ? "" : ` at ${spec.endpoint}`}`;
  try {
    // One LIST proves the endpoint, the bucket and the credentials before any client connects.
    await objectStore.list(spec.keyPrefix, { limit: 1, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    await objectStore.close().catch(() => undefined);
    throw new StartupError(`cannot use the object store ${where}: ${reasonOf(error)}`, { cause: error });
  }
  return {
    objectStore,
    logDir: { path: `s3://${spec.bucket}/${spec.keyPrefix}` },
    summary: { objects: "s3", bucket: spec.bucket, s3Endpoint: spec.endpoint ?? "aws", keyPrefix: spec.keyPrefix },
  };
}

/** The BookKeeper side when configured; on failure closes the stores opened before it. */
async function openBookKeeperSide(
  config: BrokerConfig,
  logger: BrokerLogger,
  metadata: MetadataStore,
  objectStore: ObjectStore,
): Promise<OpenedBookKeeper | undefined> {
  const spec = config.storage.bookkeeper;
  if (spec === undefined) return undefined;
  try {
    return await openBookKeeper(spec, metadata, config.cluster);
  } catch (error) {
    await closeQuietly("the object store", logger, () => objectStore.close());
    await closeQuietly("the metadata store", logger, () => metadata.close());
    throw error;
  }
}

/** The Object WAL runtime; with BookKeeper its worker also materializes BookKeeper ranges. */
function createObjectRuntime(
  config: BrokerConfig,
  logger: BrokerLogger,
  writerId: string,
  stores: { metadata: MetadataStore; objectStore: ObjectStore },
  bookkeeper: OpenedBookKeeper | undefined,
): ObjectWalRuntime {
  const materialization = materializationMode(config);
  const asyncProfiles = bookkeeper === undefined ? ASYNC_OBJECT_PROFILES : ASYNC_OBJECT_PROFILES_WITH_BOOKKEEPER;
  return createObjectWalRuntime({
    objectStore: stores.objectStore,
    metadata: stores.metadata,
    cluster: config.cluster,
    writerId,
    flush: { lingerMs: config.storage.walLingerMs ?? defaultWalLingerMs(config) },
    ...(bookkeeper === undefined ? {} : { sourceReaders: [bookkeeper.runtime.reader] }),
    materialization: {
      enabled: materialization !== "off",
      ...(materialization === "async" ? { profiles: asyncProfiles } : {}),
      // Which topics get generations: materializationMode ("async" on the filesystem store: only the profiles that
      // require them). Where it runs on one local disk and a few cores, it takes CPU and I/O straight from appends
      // and reads: one task at a time, and while foreground traffic reaches 256 KiB/s it waits for a quieter moment,
      // up to a backlog of 256 MiB or a minute (reads are served from the WAL objects meanwhile).
      ...(config.storage.objects.kind === "filesystem"
        ? {
            concurrency: 1,
            busyBytesPerSecond: EMBEDDED_BUSY_BYTES_PER_SECOND,
            policy: {
              busyLevelOneBytes: EMBEDDED_BUSY_LEVEL_ONE_BYTES,
              busyLevelOneDelayMs: EMBEDDED_BUSY_LEVEL_ONE_DELAY_MS,
            },
          }
        : {}),
      onError: (error, streamId) => logger.warn("materialization failed", { streamId, error }),
    },
    reclamation: {
      enabled: config.storage.reclamation.enabled,
      intervalMs: config.storage.reclamation.intervalMs,
      policy: {
        graceMs: config.storage.reclamation.graceMs,
        minObjectAgeMs: config.storage.reclamation.minObjectAgeMs,
      },
      logger: reclamationLogger(logger),
    },
  });
}

/**
 * The stream store over both WALs: the Object WAL's writer, reader, coordinators (core's STABLE_HEAD and
 * GENERATION_ZERO_VISIBLE, REQUIRED_OBJECT_GENERATION) and lag admission, plus the BookKeeper writer and reader.
 */
function composeStreamStore(
  config: BrokerConfig,
  writerId: string,
  metadata: MetadataStore,
  runtime: ObjectWalRuntime,
  bookkeeper: OpenedBookKeeper | undefined,
): StreamStore {
  const objectSide = runtime.storeOptions();
  const bookKeeperSide = bookkeeper?.runtime.storeOptions();
  return createStreamStore({
    metadata,
    cluster: config.cluster,
    writerId,
    walWriters: [...objectSide.walWriters, ...(bookKeeperSide?.walWriters ?? [])],
    walReaders: [...objectSide.walReaders, ...(bookKeeperSide?.walReaders ?? [])],
    completionCoordinators: objectSide.completionCoordinators,
    admissionHooks: [...objectSide.admissionHooks, ...(bookKeeperSide?.admissionHooks ?? [])],
    // The collector of this process never deletes an object a read of this store holds.
    readPins: objectSide.readPins,
  });
}

/** Refuses a broker without BookKeeper on a cluster with a stream on a BookKeeper profile. */
async function checkNoBookKeeperStreams(marks: BookKeeperStreamMarks, store: StreamStore): Promise<void> {
  const head = await marks.firstLiveStream(store);
  if (head === undefined) return;
  const topic = head.attributes["kafka.topic"];
  const stream = topic === undefined ? `stream ${head.streamName}` : `Kafka topic ${topic}`;
  throw new StartupError(
    `this cluster has streams on BookKeeper profiles (${stream}: ${head.profile}), and this broker has no BookKeeper configured (storage.bookkeeper: --bookkeeper-zookeeper or --bookkeeper-metadata-service-uri)`,
  );
}

/** Opens the stack; throws StartupError (having closed what it opened) when a part cannot be used. */
export async function openStorage(options: OpenStorageOptions): Promise<BrokerStorage> {
  const { config, logger, writerId } = options;
  const { metadata, summary: metadataSummary } = await openMetadata(config);
  let objects: Awaited<ReturnType<typeof openObjects>>;
  try {
    objects = await openObjects(config, logger);
  } catch (error) {
    await closeQuietly("the metadata store", logger, () => metadata.close());
    throw error;
  }
  const { objectStore } = objects;
  const bookkeeper = await openBookKeeperSide(config, logger, metadata, objectStore);
  const runtime = createObjectRuntime(config, logger, writerId, { metadata, objectStore }, bookkeeper);
  const store = composeStreamStore(config, writerId, metadata, runtime, bookkeeper);
  const marks = new BookKeeperStreamMarks(metadata, config.cluster);
  const guarded = guardProfiles(store, servedStorage(config.storage), marks);
  const reclaims = config.storage.reclamation.enabled;
  const ledgerReclaimer =
    reclaims && bookkeeper !== undefined
      ? createLedgerReclaimer(config, bookkeeper, { metadata, readPins: store.readPins }, writerId, logger)
      : undefined;
  const reclaiming = reclaims
    ? reclaimAfterTrim(guarded, collectionRoute({ objects: runtime.reclaimer, ledgers: ledgerReclaimer }), {
        followUpMs: followUpDelayMs(runtime.reclaimer, ...(ledgerReclaimer === undefined ? [] : [ledgerReclaimer])),
      })
    : undefined;
  const served = reclaiming?.store ?? guarded;
  let orphanSweeps: OrphanSweeps | undefined;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      reclaiming?.stop();
      await orphanSweeps?.stop();
      if (ledgerReclaimer !== undefined)
        await closeQuietly("the ledger collector", logger, () => ledgerReclaimer.close());
      await closeQuietly("the stream store", logger, () => store.close());
      await closeQuietly("the Object WAL runtime", logger, () => runtime.close());
      if (bookkeeper !== undefined) await closeQuietly("the BookKeeper WAL", logger, () => bookkeeper.close());
      await closeQuietly("the object store", logger, () => objectStore.close());
      await closeQuietly("the metadata store", logger, () => metadata.close());
    })();
    return closed;
  };
  if (bookkeeper === undefined) {
    try {
      await checkNoBookKeeperStreams(marks, store);
    } catch (error) {
      await close();
      if (error instanceof StartupError) throw error;
      throw new StartupError(`cannot read the BookKeeper stream marks: ${reasonOf(error)}`, { cause: error });
    }
  }
  runtime.start();
  if (reclaims) {
    // Collections a crash left half done resume now; then the ledger sweeps run periodically.
    void resumeReclamation(runtime.reclaimer, ledgerReclaimer, logger).then(() => ledgerReclaimer?.start());
    orphanSweeps = startOrphanSweeps(config, { metadata, objectStore }, runtime.reclaimer.stats, logger);
  }
  return {
    metadata,
    objectStore,
    runtime,
    bookkeeper,
    ledgerReclaimer,
    store: options.instrument === undefined ? served : options.instrument(served),
    logDir: objects.logDir,
    summary: {
      ...metadataSummary,
      ...objects.summary,
      ...bookkeeper?.summary,
      materialization: materializationMode(config),
      reclamation: config.storage.reclamation.enabled
        ? `on (grace ${String(config.storage.reclamation.graceMs)} ms)`
        : "off",
      cluster: config.cluster,
      writerId,
    },
    writeHealth: () => (objectStore instanceof FileSystemObjectStore ? objectStore.writeHealth : { writable: true }),
    close,
  };
}
