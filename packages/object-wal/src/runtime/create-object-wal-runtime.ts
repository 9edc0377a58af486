// Wires the Object WAL profiles for one process (docs/architecture.md §6): the multi-stream WAL writer, the OBJECT_SLICE reader,
// the completion coordinators (stable head and generation-0 visible — core's built-ins — plus the required Object
// generation, which waits for a committed higher generation covering the append), the admission hook
// (registration + async lag bound) and the background materialization worker (gen-0 index repair, higher
// generations). Pass `storeOptions()` (or the individual lists) to `createStreamStore`, then `start()` the worker.
//   OBJECT_WAL_SYNC_OBJECT  — success after the stable head + confirmed gen-0 index (core writes the index in the
//                              head transaction); higher generations optional, in the background.
//   OBJECT_WAL_ASYNC_OBJECT — success after the stable head; gen-0 index repaired by the worker and on read;
//                              appends rejected before any PUT while the materialization lag is above the bound.
//   OBJECT_WAL              — alias of OBJECT_WAL_SYNC_OBJECT, canonicalized by core at stream creation.
// With a `sourceReaders` entry serving BOOKKEEPER_ENTRY_RANGE targets (the BookKeeper WAL runtime's reader, through
// core's WalReader SPI), the BookKeeper object profiles are served too:
//   BOOKKEEPER_WAL_ASYNC_OBJECT — the worker materializes exact committed BK ranges into Object generations; the
//                                  admission hook rejects appends before any BookKeeper I/O over the lag bound.
//   BOOKKEEPER_WAL_SYNC_OBJECT  — the REQUIRED_OBJECT_GENERATION coordinator waits for a committed generation
//                                  covering the append and reads it back (byte-identical to the BK range) before
//                                  success; a timeout is KNOWN_COMMITTED and `recoverAppend` waits again.
// Compose with the BookKeeper runtime: its writer/reader/built-in coordinators, plus this runtime's
// `storeOptions({ builtInCoordinators: false })` (Object reader, required coordinator, admission hook).
// Storage reclamation: the runtime's StreamReclaimer collects released WAL and generation objects of the streams this
// process drives; it shares the runtime's read pins with the stream store (`storeOptions()` hands them over), so it
// never deletes what a read of this process holds. Its background passes are off unless `reclamation.enabled`.
// Owns the writer, the worker and the reclaimer (close() closes them); does not own the object store or the
// metadata store.
import {
  GenerationZeroVisibleCoordinator,
  ReadPins,
  StableHeadCoordinator,
  type MetadataStore,
  type ObjectStore,
  type ReadTarget,
  type StorageProfile,
  type StoreProviders,
  type WalReader,
} from "@nereus/core";
import { CoverageCache } from "../generations/coverage-cache.js";
import { DEFAULT_LAG_BOUND, type MaterializationLagBound } from "../generations/materialization-lag.js";
import { MaterializationStateStore } from "../generations/materialization-state-store.js";
import { MaterializationWorker, type MaterializationHooks } from "../generations/materialization-worker.js";
import type { MaterializationPolicy } from "../generations/plan-materialization.js";
import { StreamRegistry } from "../generations/stream-registry.js";
import { MaterializationLagAdmission } from "../profiles/materialization-lag-admission.js";
import { LAG_BOUNDED_PROFILES, defaultMaterializedProfiles } from "../profiles/materialized-profiles.js";
import { RequiredGenerationCoordinator } from "../profiles/required-generation-coordinator.js";
import { ObjectWalReader } from "../reader/object-wal-reader.js";
import type { ReclamationHooks, ReclamationPolicy } from "../reclamation/reclamation-context.js";
import { StreamReclaimer, type ReclamationLogger } from "../reclamation/stream-reclaimer.js";
import { ForegroundActivity } from "./foreground-activity.js";
import type { FlushPolicy } from "../writer/flush-policy.js";
import { ObjectWalWriter, type ObjectWalWriterHooks } from "../writer/object-wal-writer.js";
import { newProcessRunId } from "../writer/wal-object-naming.js";

export interface ObjectWalRuntimeOptions {
  readonly objectStore: ObjectStore;
  /** The metadata store the stream store commits to (roots, registrations and generations live there too). */
  readonly metadata: MetadataStore;
  readonly cluster: string;
  /** This process's writer identity (the same one given to `createStreamStore`). */
  readonly writerId: string;
  readonly processRunId?: string;
  readonly flush?: Partial<FlushPolicy>;
  /** Async-profile lag bound (0 disables a bound; default 1,000,000 records / 1 GiB). */
  readonly lagBound?: Partial<MaterializationLagBound>;
  readonly materialization?: {
    /** Run the background worker at all (default true). Registration and lag admission stay on. */
    readonly enabled?: boolean;
    readonly policy?: Partial<MaterializationPolicy>;
    readonly intervalMs?: number;
    readonly claimTtlMs?: number;
    readonly concurrency?: number;
    /** Pause after each task, leaving the event loop to appends (default 0: only a yield). */
    readonly taskPauseMs?: number;
    /** Cap on materialized source bytes per second (default 0: no cap; the worker may then fall behind). */
    readonly maxBytesPerSecond?: number;
    /**
     * Foreground bytes per second (appended through the writer + read through the reader) at which the process
     * counts as busy, so background passes apply the policy's `busyLevelOneBytes` / `busyLevelOneDelayMs` and start
     * no merges (default 0: never busy).
     */
    readonly busyBytesPerSecond?: number;
    /**
     * Profiles whose streams get higher generations (default both Object WAL profiles, plus both BookKeeper object
     * profiles when a source reader serves BOOKKEEPER_ENTRY_RANGE targets).
     */
    readonly profiles?: ReadonlySet<StorageProfile>;
    readonly hooks?: MaterializationHooks;
    readonly onError?: (error: unknown, streamId: string) => void;
  };
  readonly reclamation?: {
    /** Run background collection passes over the registered streams this process drives (default false). */
    readonly enabled?: boolean;
    readonly policy?: Partial<ReclamationPolicy>;
    /** Pause between passes (default 30 s). */
    readonly intervalMs?: number;
    readonly hooks?: ReclamationHooks;
    readonly logger?: ReclamationLogger;
  };
  /** Extra readers of source targets the worker may materialize (e.g. a BookKeeper WAL reader). */
  readonly sourceReaders?: readonly WalReader[];
  readonly writerHooks?: ObjectWalWriterHooks;
  readonly clock?: () => number;
}

/** What `createStreamStore` needs from this runtime. */
export type ObjectWalStoreProviders = StoreProviders;

export interface ObjectWalRuntime extends ObjectWalStoreProviders, AsyncDisposable {
  readonly writer: ObjectWalWriter;
  readonly reader: ObjectWalReader;
  readonly admission: MaterializationLagAdmission;
  readonly worker: MaterializationWorker;
  readonly registry: StreamRegistry;
  /** The REQUIRED_OBJECT_GENERATION coordinator (counts read-verified completions). */
  readonly required: RequiredGenerationCoordinator;
  /** Pins of the targets the stream store's reads use (handed to it by `storeOptions()`). */
  readonly readPins: ReadPins;
  /** The storage collector of this process (`runStream` after a trim; background passes when enabled). */
  readonly reclaimer: StreamReclaimer;
  /**
   * The provider lists, for `createStreamStore({ metadata, cluster, writerId, ...runtime.storeOptions() })`. Pass
   * `{ builtInCoordinators: false }` when another runtime already installs core's STABLE_HEAD and
   * GENERATION_ZERO_VISIBLE coordinators (a store accepts one coordinator per boundary).
   */
  storeOptions(options?: { readonly builtInCoordinators?: boolean }): ObjectWalStoreProviders;
  /** Starts the background worker (unless materialization is disabled) and collector (if enabled). Idempotent. */
  start(): void;
  /** Idempotent: stops the collector and the worker, uploads pending WAL objects, refuses new persists. */
  close(): Promise<void>;
}

/** Builds the Object WAL runtime of one process. No I/O until used. */
export function createObjectWalRuntime(options: ObjectWalRuntimeOptions): ObjectWalRuntime {
  const clock = options.clock ?? Date.now;
  const processRunId = options.processRunId ?? newProcessRunId();
  const writer = new ObjectWalWriter({
    objectStore: options.objectStore,
    metadata: options.metadata,
    cluster: options.cluster,
    writerId: options.writerId,
    processRunId,
    clock,
    ...(options.flush === undefined ? {} : { flush: options.flush }),
    ...(options.writerHooks === undefined ? {} : { hooks: options.writerHooks }),
  });
  const reader = new ObjectWalReader({ objectStore: options.objectStore });
  // The worker reads its sources through its own reader, so that the foreground reader's counters measure reads
  // served to the store's callers only.
  const sourceReader = new ObjectWalReader({ objectStore: options.objectStore });
  const extraReaders = options.sourceReaders ?? [];
  const readers = (target: ReadTarget): WalReader | undefined =>
    target.type === "OBJECT_SLICE"
      ? sourceReader
      : extraReaders.find((candidate) => candidate.targetTypes.includes(target.type));
  const coverage = new CoverageCache();
  const registry = new StreamRegistry(options.metadata, options.cluster, clock);
  const materialization = options.materialization ?? {};
  const served = defaultMaterializedProfiles(extraReaders.flatMap((candidate) => candidate.targetTypes));
  const profiles = materialization.profiles ?? served;
  const states = new MaterializationStateStore(options.metadata, options.cluster);
  const lagBound: MaterializationLagBound = { ...DEFAULT_LAG_BOUND, ...options.lagBound };
  const admission = new MaterializationLagAdmission({
    registry,
    states,
    coverage,
    bound: lagBound,
    registeredProfiles: new Set<StorageProfile>([
      ...profiles,
      ...[...LAG_BOUNDED_PROFILES].filter((profile) => served.has(profile)),
    ]),
  });
  const busyBytesPerSecond = materialization.busyBytesPerSecond ?? 0;
  if (!(Number.isFinite(busyBytesPerSecond) && busyBytesPerSecond >= 0)) {
    throw new RangeError(
      `materialization.busyBytesPerSecond must be a non-negative number, got ${String(busyBytesPerSecond)}`,
    );
  }
  const activity =
    busyBytesPerSecond > 0
      ? new ForegroundActivity({
          total: () => writer.stats.objectBytes + reader.stats.requestedBytes,
          busyBytesPerSecond,
        })
      : undefined;
  const worker = new MaterializationWorker({
    metadata: options.metadata,
    objectStore: options.objectStore,
    cluster: options.cluster,
    workerId: options.writerId,
    processRunId,
    readers,
    coverage,
    clock,
    materializeProfiles: profiles,
    lagBound,
    ...(materialization.policy === undefined ? {} : { policy: materialization.policy }),
    ...(materialization.intervalMs === undefined ? {} : { intervalMs: materialization.intervalMs }),
    ...(materialization.claimTtlMs === undefined ? {} : { claimTtlMs: materialization.claimTtlMs }),
    ...(materialization.concurrency === undefined ? {} : { concurrency: materialization.concurrency }),
    ...(materialization.taskPauseMs === undefined ? {} : { taskPauseMs: materialization.taskPauseMs }),
    ...(materialization.maxBytesPerSecond === undefined
      ? {}
      : { maxBytesPerSecond: materialization.maxBytesPerSecond }),
    ...(activity === undefined ? {} : { foregroundBusy: () => activity.busy() }),
    ...(materialization.hooks === undefined ? {} : { hooks: materialization.hooks }),
    ...(materialization.onError === undefined ? {} : { onError: materialization.onError }),
  });
  const required = new RequiredGenerationCoordinator({
    states,
    coverage,
    poke: () => worker.poke(),
    verify: { cluster: options.cluster, reader, sources: readers },
  });
  const readPins = new ReadPins();
  const reclamation = options.reclamation ?? {};
  const reclaimer = new StreamReclaimer({
    metadata: options.metadata,
    objectStore: options.objectStore,
    cluster: options.cluster,
    writerId: options.writerId,
    readPins,
    clock,
    ...(reclamation.policy === undefined ? {} : { policy: reclamation.policy }),
    ...(reclamation.intervalMs === undefined ? {} : { intervalMs: reclamation.intervalMs }),
    ...(reclamation.hooks === undefined ? {} : { hooks: reclamation.hooks }),
    ...(reclamation.logger === undefined ? {} : { logger: reclamation.logger }),
  });
  const providers: ObjectWalStoreProviders = {
    walWriters: [writer],
    walReaders: [reader],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator(), required],
    admissionHooks: [admission],
    readPins,
  };
  let closed: Promise<void> | undefined;
  const runtime: ObjectWalRuntime = {
    ...providers,
    writer,
    reader,
    admission,
    worker,
    registry,
    required,
    readPins,
    reclaimer,
    storeOptions: (storeOptions = {}) =>
      storeOptions.builtInCoordinators === false ? { ...providers, completionCoordinators: [required] } : providers,
    start: () => {
      if (materialization.enabled !== false) worker.start();
      if (reclamation.enabled === true) reclaimer.start();
    },
    close: () => {
      closed ??= (async () => {
        await reclaimer.close();
        await worker.close();
        await writer.close();
      })();
      return closed;
    },
    [Symbol.asyncDispose]: async () => {
      await runtime.close();
    },
  };
  return runtime;
}
