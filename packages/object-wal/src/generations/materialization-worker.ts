// The background materialization worker (docs/architecture.md §6.1). Each pass discovers work from metadata only — the
// stream registry, each stream's head and its StreamMaterialization record — so a crash loses nothing: a restarted
// (or another) worker finds the same work. Per stream it (1) closes generation-0 index gaps left by async appends,
// then (2) runs at most one materialization task at a time: a level-1 generation from the generation-0 slices past
// the materialized end (spread over many multi-stream WAL objects), or a merge of level-1 generations into level 2.
//
// A task is claimed by a CAS on the record (random claim token, expiry); every later transition compares the
// record's revision, so a worker whose claim expired and was taken over can no longer prepare or publish. The
// output object (content-addressed key + claim token; root created first) is uploaded and verified before anything
// names it: its encoded bytes are compared entry by entry with the sources, and the stored object is proven to be
// those bytes (the store's size + CRC32C from HEAD, else a whole read-back). Publication:
//   PREPARE  — one txn: record (claim) → task PREPARED with a freshly allocated generation; generation index entry
//              written PREPARED (key absent); VISIBLE_GENERATION protection of the output, comparing its root.
//   verify   — head still there, sources unchanged (exact digest), output still verifies.
//   PUBLISH  — one txn: record (exact revision) → task PUBLISHED + coverage advanced; index entry PREPARED →
//              COMMITTED at its exact revision. This is the publication point; only COMMITTED entries are read.
// A worker that finds a PREPARED task whose claim expired reclaims it and resumes at verify (or aborts: entry
// ABORTED, task ABANDONED, when the output no longer verifies). Offsets, entry bytes and AppendResult never change.
// Cost control (the worker shares the event loop with appends): background passes defer a level-1 task over a small
// increment (policy `minLevelOneBytes` / `maxLevelOneDelayMs`), so outputs are few and large; the advanced
// generation-0 index end rides on the claim transaction; after each task the worker yields, optionally pauses
// (`taskPauseMs`) and keeps to `maxBytesPerSecond`; while `foregroundBusy()` says appends or reads are keeping the
// process busy, background passes wait for a larger backlog (`busyLevelOneBytes` / `busyLevelOneDelayMs`) and
// start no merges; and a background task that started in a quiet moment gives way when traffic comes back: between
// its steps (source reads, hash steps, the upload) it waits while the foreground is busy, up to half its claim's
// lease after the claim, then goes on.
import { setImmediate as nextTurn, setTimeout as delay } from "node:timers/promises";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import {
  ErrorCode,
  NereusError,
  type GenerationIndexEntry,
  type MetadataStore,
  type ObjectStore,
  type RevisionCompare,
  type WriteOp,
  type StorageProfile,
  type StreamHead,
} from "@nereus/core";
import { StreamKeyspace } from "@nereus/core/internal";
import { PhysicalObjectRoots } from "../roots/physical-object-roots.js";
import { newProcessRunId } from "../writer/wal-object-naming.js";
import { advanceGenerationZeroIndex } from "./advance-generation-zero-index.js";
import { CoverageCache } from "./coverage-cache.js";
import { measureLag, type MaterializationLagBound } from "./materialization-lag.js";
import {
  SourceReadError,
  encodeGenerationObjectYielding,
  readAllSources,
  uploadGenerationObject,
  verifyGenerationObject,
  verifyUploadedGenerationObject,
  type SourceReaders,
} from "./generation-object.js";
import type { MaterializationTask, StreamMaterialization, StreamRegistration } from "./materialization-records.js";
import { MaterializationStateStore, type VersionedMaterialization } from "./materialization-state-store.js";
import {
  DEFAULT_MATERIALIZATION_POLICY,
  estimatedRunBytes,
  materializationSource,
  planLevelOne,
  planMerge,
  shouldDeferLevelOne,
  sourceDigest,
  type MaterializationPlan,
  type MaterializationPolicy,
  type MaterializationSource,
  type ScannedGeneration,
  type ScannedIndexEntry,
} from "./plan-materialization.js";
import { StreamRegistry } from "./stream-registry.js";

/** Test seams inside a task (a throw there behaves like a crash of the worker at that point). */
export interface MaterializationHooks {
  /** The output object is uploaded and verified; nothing names it yet. */
  readonly afterOutputUpload?: (task: MaterializationTask) => Promise<void> | void;
  /** The generation index entry is PREPARED (not readable); the publish CAS has not been sent. */
  readonly afterPrepared?: (task: MaterializationTask) => Promise<void> | void;
  /** Right before the PREPARED → COMMITTED transaction. */
  readonly beforePublish?: (task: MaterializationTask) => Promise<void> | void;
}

export interface MaterializationWorkerOptions {
  readonly metadata: MetadataStore;
  readonly objectStore: ObjectStore;
  readonly cluster: string;
  /** Identity of this worker (written into claims and output objects). */
  readonly workerId: string;
  readonly processRunId?: string;
  /** Readers of source targets (the Object WAL reader serves WAL slices and generation objects). */
  readonly readers: SourceReaders;
  readonly policy?: Partial<MaterializationPolicy>;
  /** Profiles whose streams get higher generations (default: both Object WAL profiles). */
  readonly materializeProfiles?: ReadonlySet<StorageProfile>;
  /** Claim lease (default 30 s); a claim is taken over only after expiry + `clockSkewMs`. */
  readonly claimTtlMs?: number;
  readonly clockSkewMs?: number;
  /** Pause between passes of `start()` (default 200 ms). */
  readonly intervalMs?: number;
  /**
   * The runtime's async lag bound: deferral never lets an async-profile stream's pending part reach half of it
   * (default: none given, i.e. no such cap).
   */
  readonly lagBound?: MaterializationLagBound;
  /** Pause after each task, leaving the event loop to foreground work (default 0: only a yield). */
  readonly taskPauseMs?: number;
  /**
   * Whether foreground work (appends, reads) is busy right now; background passes then apply the policy's
   * `busyLevelOneBytes` / `busyLevelOneDelayMs` and start no merges (default: never busy).
   */
  readonly foregroundBusy?: () => boolean;
  /** Cap on the source payload bytes materialized per second, averaged over tasks (default 0: no cap). */
  readonly maxBytesPerSecond?: number;
  /** Streams processed at once (default 4). */
  readonly concurrency?: number;
  /** Tasks one stream may run per pass (default 4). */
  readonly tasksPerStream?: number;
  /** Commits one gen-0 repair call walks (default 256). */
  readonly repairBudget?: number;
  readonly orphanGraceMs?: number;
  /** Shared with the lag admission hook (the worker reports coverage it published). */
  readonly coverage?: CoverageCache;
  readonly clock?: () => number;
  readonly hooks?: MaterializationHooks;
  /** Called with every error a pass swallowed (a pass never throws; the next pass retries). */
  readonly onError?: (error: unknown, streamId: string) => void;
}

/** Counters of one worker. */
export class MaterializationWorkerStats {
  passes = 0;
  streamsVisited = 0;
  /** Streams skipped because nothing changed since they were last found idle. */
  streamsUnchanged = 0;
  generationZeroGapsRepaired = 0;
  tasksClaimed = 0;
  tasksResumed = 0;
  tasksPublished = 0;
  tasksAbandoned = 0;
  /** Background visits that started no merge because the foreground was busy (policy `busyLevelOneBytes`). */
  mergesDeferred = 0;
  /** Background visits that left a small level-1 increment for later (policy `minLevelOneBytes`). */
  tasksDeferred = 0;
  /** Outputs proven identical to their encoded bytes by the store's size + CRC32C (no download). */
  outputsVerifiedByChecksum = 0;
  /** Outputs proven by reading them back whole (no store CRC32C, or a resumed task). */
  outputsVerifiedByReadBack = 0;
  /** Estimated source payload bytes of the tasks driven (published or not). */
  bytesMaterialized = 0;
  /** Time spent in pauses after tasks (`taskPauseMs`, `maxBytesPerSecond`). */
  pacingMs = 0;
  /** Time background tasks waited between their steps for busy foreground traffic to pass. */
  foregroundWaitMs = 0;
  /** CAS conflicts on a stream's record (another worker moved first). */
  claimsLost = 0;
  errors = 0;
  /** Generations published by level. */
  readonly publishedByLevel = new Map<number, number>();
}

/** Result of one pass. */
export interface MaterializationPassResult {
  readonly streams: number;
  readonly published: number;
}

interface StreamView {
  readonly head: StreamHead;
  readonly headRevision: number;
  readonly state: VersionedMaterialization;
}

/** "idle": nothing to do; "busy": another worker holds the stream's task; "deferred": a small increment waits. */
type TaskOutcome = "published" | "abandoned" | "lost" | "busy" | "idle" | "deferred";

const memoOf = (headRevision: number, stateRevision: number): string =>
  `${String(headRevision)}/${String(stateRevision)}`;

export class MaterializationWorker implements AsyncDisposable {
  readonly stats = new MaterializationWorkerStats();
  readonly workerId: string;
  readonly processRunId: string;
  readonly policy: MaterializationPolicy;
  readonly coverage: CoverageCache;
  readonly #metadata: MetadataStore;
  readonly #store: ObjectStore;
  readonly #cluster: string;
  readonly #keyspace: StreamKeyspace;
  readonly #states: MaterializationStateStore;
  readonly #registry: StreamRegistry;
  readonly #roots: PhysicalObjectRoots;
  readonly #readers: SourceReaders;
  readonly #profiles: ReadonlySet<StorageProfile>;
  readonly #claimTtlMs: number;
  readonly #clockSkewMs: number;
  readonly #intervalMs: number;
  readonly #lagBound: MaterializationLagBound | undefined;
  readonly #taskPauseMs: number;
  readonly #foregroundBusy: () => boolean;
  readonly #maxBytesPerSecond: number;
  readonly #concurrency: number;
  readonly #tasksPerStream: number;
  readonly #repairBudget: number;
  readonly #orphanGraceMs: number;
  readonly #clock: () => number;
  readonly #hooks: MaterializationHooks;
  readonly #onError: (error: unknown, streamId: string) => void;
  /** Stream → "headRevision/recordRevision" when last found idle (a hint; a restart forgets it). */
  readonly #idle = new Map<string, string>();
  /** Claim tokens this worker created (a task left behind by a failed run of ours is resumed at once). */
  readonly #ownTokens = new Set<string>();
  /** Streams this worker is processing right now (never two runs of one stream at once). */
  readonly #active = new Set<string>();
  /** Stream → since when (clock) a deferred increment from `from` has waited (a hint; a restart forgets it). */
  readonly #pendingSince = new Map<string, { readonly from: number; readonly since: number }>();
  /** Each visited stream's payload bytes above its materialized end, as of its last visit (see `pendingBytes`). */
  readonly #lagBytes = new Map<string, number>();
  /** Stream → how far this worker's last walk found the generation-0 index contiguous (per stream incarnation). */
  readonly #indexedEnds = new Map<string, { readonly createdAtMillis: number; readonly end: number }>();
  /** `performance.now()` until which the byte-rate budget is spent. */
  #budgetAt = 0;
  /** A poke asked for the next background pass to defer nothing (someone waits for a generation). */
  #poked = false;
  readonly #closing = new AbortController();
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: MaterializationWorkerOptions) {
    this.workerId = options.workerId;
    this.processRunId = options.processRunId ?? newProcessRunId();
    this.policy = Object.freeze({ ...DEFAULT_MATERIALIZATION_POLICY, ...options.policy });
    this.coverage = options.coverage ?? new CoverageCache();
    this.#metadata = options.metadata;
    this.#store = options.objectStore;
    this.#cluster = options.cluster;
    this.#keyspace = new StreamKeyspace(options.cluster);
    this.#states = new MaterializationStateStore(options.metadata, options.cluster);
    this.#clock = options.clock ?? Date.now;
    this.#registry = new StreamRegistry(options.metadata, options.cluster, this.#clock);
    this.#roots = new PhysicalObjectRoots(options.cluster);
    this.#readers = options.readers;
    this.#profiles =
      options.materializeProfiles ?? new Set<StorageProfile>(["OBJECT_WAL_SYNC_OBJECT", "OBJECT_WAL_ASYNC_OBJECT"]);
    this.#claimTtlMs = options.claimTtlMs ?? 30_000;
    this.#clockSkewMs = options.clockSkewMs ?? 1_000;
    this.#intervalMs = options.intervalMs ?? 200;
    this.#lagBound = options.lagBound;
    this.#taskPauseMs = options.taskPauseMs ?? 0;
    this.#foregroundBusy = options.foregroundBusy ?? (() => false);
    this.#maxBytesPerSecond = options.maxBytesPerSecond ?? 0;
    this.#concurrency = options.concurrency ?? 4;
    this.#tasksPerStream = options.tasksPerStream ?? 4;
    this.#repairBudget = options.repairBudget ?? 256;
    this.#orphanGraceMs = options.orphanGraceMs ?? 24 * 60 * 60 * 1000;
    this.#hooks = options.hooks ?? {};
    this.#onError = options.onError ?? (() => undefined);
  }

  /**
   * Runs one pass over every registered stream. Never throws for a stream's failure (counted, reported). By default
   * it materializes whatever is pending; `{ defer: true }` makes it a background pass (small level-1 increments
   * wait, see `MaterializationPolicy.minLevelOneBytes`).
   */
  runOnce(signal?: AbortSignal, options: { readonly defer?: boolean } = {}): Promise<MaterializationPassResult> {
    return this.#pass(options.defer === true, signal);
  }

  /**
   * Payload bytes committed above the materialized end, summed over the streams this worker handles, each as of its
   * last visit (a stream unchanged since then has the same lag). The backlog a deferring worker has left for later.
   */
  get pendingBytes(): number {
    let total = 0;
    for (const bytes of this.#lagBytes.values()) total += bytes;
    return total;
  }

  async #pass(defer: boolean, signal?: AbortSignal): Promise<MaterializationPassResult> {
    const combined = signal === undefined ? this.#closing.signal : AbortSignal.any([signal, this.#closing.signal]);
    this.stats.passes += 1;
    const before = this.stats.tasksPublished;
    const seen = new Set<string>();
    let streams = 0;
    let batch: StreamRegistration[] = [];
    const flush = async (): Promise<void> => {
      const current = batch;
      batch = [];
      const views = await this.#loadViews(current, combined);
      let next = 0;
      const lanes = Array.from({ length: Math.min(this.#concurrency, current.length) }, async () => {
        for (let index = next++; index < current.length; index = next++) {
          const registration = current[index] as StreamRegistration;
          await this.#visit(registration, views.get(registration.streamId), combined, defer);
        }
      });
      await Promise.all(lanes);
    };
    for await (const registration of this.#registry.scan(combined)) {
      streams += 1;
      seen.add(registration.streamId);
      batch.push(registration);
      if (batch.length >= 64) await flush();
    }
    if (batch.length > 0) await flush();
    // Streams no longer registered (deleted) have no backlog.
    for (const streamId of this.#lagBytes.keys()) if (!seen.has(streamId)) this.#lagBytes.delete(streamId);
    return { streams, published: this.stats.tasksPublished - before };
  }

  /** Processes one stream now (tests, tools): gen-0 repair and up to `tasksPerStream` tasks, no deferral. */
  async runStream(streamId: string, signal?: AbortSignal): Promise<void> {
    const view = await this.#loadView(streamId, signal);
    if (view === undefined) return;
    await this.#process(streamId, view, signal ?? this.#closing.signal, false);
  }

  /**
   * Starts passes every `intervalMs` until `close()`. Idempotent. These background passes defer small level-1
   * increments (policy `minLevelOneBytes` / `maxLevelOneDelayMs`), except the pass right after a `poke()`.
   */
  start(): void {
    if (this.#loop !== undefined || this.#closed !== undefined) return;
    this.#loop = (async () => {
      while (!this.#closing.signal.aborted) {
        const eager = this.#poked;
        this.#poked = false;
        try {
          await this.#pass(!eager);
        } catch (error) {
          if (this.#closing.signal.aborted) return;
          this.stats.errors += 1;
          this.#onError(error, "");
        }
        // close() during the pass (it found no wait to end), or a poke during the pass: no wait.
        if (this.#closing.signal.aborted) return;
        if (this.#poked) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.#intervalMs);
          this.#wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.#wake = undefined;
      }
    })();
  }

  /** Ends the wait between passes (new work is likely); the next background pass defers nothing. */
  poke(): void {
    this.#poked = true;
    this.#wake?.();
  }

  /** Idempotent: stops the loop and aborts in-flight work (claims expire; another worker resumes them). */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#closing.abort(
        new NereusError(ErrorCode.STORAGE_CLOSED, "materialization worker closed", { retryable: false }),
      );
      this.#wake?.();
      await this.#loop?.catch(() => undefined);
    })();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #visit(
    registration: StreamRegistration,
    view: StreamView | undefined,
    signal: AbortSignal,
    defer: boolean,
  ): Promise<void> {
    if (view === undefined || !this.#profiles.has(registration.profile)) return;
    this.stats.streamsVisited += 1;
    if (this.#idle.get(registration.streamId) === memoOf(view.headRevision, view.state.revision)) {
      this.stats.streamsUnchanged += 1;
      return;
    }
    try {
      await this.#process(registration.streamId, view, signal, defer);
    } catch (error) {
      if (signal.aborted) return;
      this.stats.errors += 1;
      this.#onError(error, registration.streamId);
    }
  }

  async #loadViews(
    registrations: readonly StreamRegistration[],
    signal: AbortSignal,
  ): Promise<Map<string, StreamView>> {
    const keys = registrations.flatMap((registration) => [
      this.#keyspace.headKey(registration.streamId),
      this.#states.key(registration.streamId),
    ]);
    const found = await this.#metadata.getMany(keys, { signal });
    const views = new Map<string, StreamView>();
    for (const { streamId } of registrations) {
      const headKv = found.get(this.#keyspace.headKey(streamId));
      if (headKv === undefined) continue;
      const stateKv = found.get(this.#states.key(streamId));
      const head = this.#keyspace.decodeHead(headKv).head;
      const state = this.#states.decode(streamId, stateKv?.value, stateKv?.modRevision ?? 0);
      views.set(streamId, { head, headRevision: headKv.modRevision, state });
    }
    return views;
  }

  async #loadView(streamId: string, signal?: AbortSignal): Promise<StreamView | undefined> {
    const headKey = this.#keyspace.headKey(streamId);
    const found = await this.#metadata.getMany([headKey, this.#states.key(streamId)], { signal });
    const headKv = found.get(headKey);
    if (headKv === undefined) return undefined;
    const stateKv = found.get(this.#states.key(streamId));
    const state = this.#states.decode(streamId, stateKv?.value, stateKv?.modRevision ?? 0);
    return { head: this.#keyspace.decodeHead(headKv).head, headRevision: headKv.modRevision, state };
  }

  async #process(streamId: string, first: StreamView, signal: AbortSignal, defer: boolean): Promise<void> {
    if (this.#active.has(streamId)) return;
    this.#active.add(streamId);
    try {
      await this.#processExclusively(streamId, first, signal, defer);
    } finally {
      this.#active.delete(streamId);
    }
  }

  async #processExclusively(streamId: string, first: StreamView, signal: AbortSignal, defer: boolean): Promise<void> {
    let view: StreamView | undefined = first;
    for (let tasks = 0; view !== undefined && tasks <= this.#tasksPerStream; tasks++) {
      const { head } = view;
      if (head.state !== "ACTIVE" && head.state !== "SEALED") {
        this.#lagBytes.delete(streamId);
        return;
      }
      this.#lagBytes.set(streamId, measureLag(head, view.state.record).bytes);
      let state = view.state;
      // 1. Generation-0 index gaps (async appends acknowledge before the index exists). The entries are written
      // now; the record's indexed end (a hint where the next walk starts) rides on the claim of the next task, or is
      // written alone when the stream turns out idle. While its tasks are deferred, the walk resumes from where this
      // worker's last walk of the same stream incarnation ended (kept in memory: no write per pass).
      const walked = this.#indexedEnds.get(streamId);
      let indexedEnd = Math.max(
        state.record.generationZeroIndexedEnd,
        walked !== undefined && walked.createdAtMillis === head.createdAtMillis ? walked.end : 0,
      );
      if (indexedEnd < head.committedEndOffset) {
        const advanced = await advanceGenerationZeroIndex({
          metadata: this.#metadata,
          keyspace: this.#keyspace,
          head,
          from: indexedEnd,
          repairBudget: this.#repairBudget,
          signal,
        });
        this.stats.generationZeroGapsRepaired += advanced.repairedGaps;
        indexedEnd = Math.max(indexedEnd, advanced.indexedEnd);
        if (this.#indexedEnds.size >= 100_000) this.#indexedEnds.clear();
        this.#indexedEnds.set(streamId, { createdAtMillis: head.createdAtMillis, end: indexedEnd });
      }
      // 2. One task.
      const outcome = await this.#runTask(head, state, indexedEnd, signal, defer);
      if (signal.aborted) return;
      if (outcome === "deferred") return;
      if (outcome === "idle" || outcome === "busy") {
        if (indexedEnd > state.record.generationZeroIndexedEnd) {
          const next = { ...state.record, generationZeroIndexedEnd: indexedEnd };
          const replaced = await this.#states.replace(state, next, {}, signal);
          if (!replaced.ok) {
            this.stats.claimsLost += 1;
            return;
          }
          state = { record: next, revision: replaced.revision };
        }
        if (outcome === "idle") this.#idle.set(streamId, memoOf(view.headRevision, state.revision));
        return;
      }
      view = await this.#loadView(streamId, signal);
    }
  }

  /** Claims or resumes a task and drives it to an end. "busy": nothing to do or someone else holds the task. */
  async #runTask(
    head: StreamHead,
    state: VersionedMaterialization,
    indexedEnd: number,
    signal: AbortSignal,
    defer: boolean,
  ): Promise<TaskOutcome> {
    const record: StreamMaterialization = {
      ...state.record,
      generationZeroIndexedEnd: Math.max(state.record.generationZeroIndexedEnd, indexedEnd),
    };
    const task = record.task;
    const now = this.#clock();
    if (task !== undefined && (task.state === "CLAIMED" || task.state === "PREPARED")) {
      const ours = task.claim !== undefined && this.#ownTokens.has(task.claim.token);
      if (task.claim !== undefined && !ours && now <= task.claim.expiresAtMillis + this.#clockSkewMs) return "busy";
      // Take over an abandoned claim: same task, next attempt, a fresh token.
      const claimed: MaterializationTask = { ...task, attempt: task.attempt + 1, claim: this.#newClaim(now) };
      const replaced = await this.#states.replace(state, { ...record, task: claimed }, {}, signal);
      if (!replaced.ok) return this.#lost();
      this.stats.tasksResumed += 1;
      const sources = await this.#collectSources(head.streamId, claimed, signal);
      if (sources === undefined)
        return this.#abandon(
          head.streamId,
          { record: { ...record, task: claimed }, revision: replaced.revision },
          signal,
        );
      return this.#drive(
        head,
        { record: { ...record, task: claimed }, revision: replaced.revision },
        sources,
        signal,
        defer,
      );
    }
    const plan = await this.#plan(head, record, signal, defer);
    if (plan === undefined) return "idle";
    if (plan === "deferred") return "deferred";
    const attempt = task?.taskId === plan.taskId ? task.attempt + 1 : 1;
    const claimed: MaterializationTask = {
      taskId: plan.taskId,
      state: "CLAIMED",
      level: plan.level,
      offsetStart: plan.offsetStart,
      offsetEnd: plan.offsetEnd,
      sourceKind: plan.sourceKind,
      sourceCount: plan.sources.length,
      sourceDigest: plan.sourceDigest,
      attempt,
      claim: this.#newClaim(now),
      generation: 0,
      output: undefined,
    };
    const replaced = await this.#states.replace(state, { ...record, task: claimed }, {}, signal);
    if (!replaced.ok) return this.#lost();
    this.stats.tasksClaimed += 1;
    return this.#drive(
      head,
      { record: { ...record, task: claimed }, revision: replaced.revision },
      plan.sources,
      signal,
      defer,
    );
  }

  async #plan(
    head: StreamHead,
    record: StreamMaterialization,
    signal: AbortSignal,
    defer: boolean,
  ): Promise<MaterializationPlan | "deferred" | undefined> {
    const streamId = head.streamId;
    const start = Math.max(record.materializedEnd, head.trimOffset);
    const busy = defer && this.policy.busyLevelOneBytes > 0 && this.#foregroundBusy();
    const deferred = start < head.committedEndOffset && defer && this.#deferLevelOne(head, record, start, busy);
    if (deferred) this.stats.tasksDeferred += 1;
    if (start < head.committedEndOffset && !deferred) {
      const page = await this.#metadata.scan(this.#keyspace.indexPrefix(streamId), {
        startAt: this.#keyspace.indexScanStart(streamId, start + 1),
        limit: this.policy.maxSources + 1,
        signal,
      });
      const scanned: ScannedIndexEntry[] = page.items.map((item) => ({
        key: item.key,
        value: item.value,
        entry: this.#keyspace.decodeIndex(item),
      }));
      const levelOne = planLevelOne(streamId, start, head.committedEndOffset, scanned, this.policy);
      if (levelOne !== undefined) {
        this.#pendingSince.delete(streamId);
        return levelOne;
      }
    }
    if (busy) {
      this.stats.mergesDeferred += 1;
      return "deferred";
    }
    const page = await this.#metadata.scan(this.#keyspace.generationIndexPrefix(streamId), {
      startAt: this.#keyspace.generationIndexScanStart(streamId, record.mergedEnd + 1),
      limit: 512,
      signal,
    });
    const generations: ScannedGeneration[] = page.items.map((item) => ({
      key: item.key,
      value: item.value,
      entry: this.#keyspace.decodeGenerationIndex(item),
    }));
    return planMerge(streamId, record.mergedEnd, generations, this.policy) ?? (deferred ? "deferred" : undefined);
  }

  /** Whether a background pass leaves the level-1 increment from `start` for later (see `shouldDeferLevelOne`). */
  #deferLevelOne(head: StreamHead, record: StreamMaterialization, start: number, busy: boolean): boolean {
    const now = this.#clock();
    const seen = this.#pendingSince.get(head.streamId);
    const since = seen !== undefined && seen.from === start ? seen.since : now;
    if (seen === undefined || seen.from !== start) {
      if (this.#pendingSince.size >= 100_000) this.#pendingSince.clear();
      this.#pendingSince.set(head.streamId, { from: start, since });
    }
    const lag = measureLag(head, record);
    return shouldDeferLevelOne(
      { profile: head.profile, records: lag.records, bytes: lag.bytes, waitedMs: now - since, busy },
      this.policy,
      this.#lagBound,
    );
  }

  /** Re-reads the exact sources of `task` (undefined when they changed: the task must be abandoned). */
  async #collectSources(
    streamId: string,
    task: MaterializationTask,
    signal: AbortSignal,
  ): Promise<MaterializationSource[] | undefined> {
    const sources: MaterializationSource[] = [];
    if (task.sourceKind === "GENERATION_ZERO") {
      const page = await this.#metadata.scan(this.#keyspace.indexPrefix(streamId), {
        startAt: this.#keyspace.indexScanStart(streamId, task.offsetStart + 1),
        limit: task.sourceCount + 16,
        signal,
      });
      let cursor = task.offsetStart;
      for (const item of page.items) {
        const entry = this.#keyspace.decodeIndex(item);
        if (
          entry.generation !== 0 ||
          entry.offsetEnd <= cursor ||
          entry.offsetStart !== cursor ||
          entry.offsetEnd > task.offsetEnd
        )
          continue;
        sources.push(materializationSource(item.key, item.value, entry));
        cursor = entry.offsetEnd;
        if (cursor === task.offsetEnd) break;
      }
    } else {
      const page = await this.#metadata.scan(this.#keyspace.generationIndexPrefix(streamId), {
        startAt: this.#keyspace.generationIndexScanStart(streamId, task.offsetStart + 1),
        limit: 512,
        signal,
      });
      let cursor = task.offsetStart;
      const committed = page.items
        .map((item) => ({ item, entry: this.#keyspace.decodeGenerationIndex(item) }))
        .filter(
          ({ entry }) =>
            entry.state === "COMMITTED" && entry.level === task.level - 1 && entry.offsetEnd <= task.offsetEnd,
        )
        .sort((a, b) => a.entry.offsetStart - b.entry.offsetStart || b.entry.generation - a.entry.generation);
      for (const { item, entry } of committed) {
        if (entry.offsetStart !== cursor) continue;
        sources.push(materializationSource(item.key, item.value, entry));
        cursor = entry.offsetEnd;
      }
    }
    if (sources.length !== task.sourceCount || sourceDigest(sources) !== task.sourceDigest) return undefined;
    return sources;
  }

  /**
   * Builds (or re-verifies) the output, prepares and publishes; then paces (whatever the outcome). A background
   * task (`background`) that starts while the foreground is quiet gives way to traffic that comes back between its
   * steps (see `#giveWay`).
   */
  async #drive(
    head: StreamHead,
    claimed: VersionedMaterialization,
    sources: readonly MaterializationSource[],
    signal: AbortSignal,
    background: boolean,
  ): Promise<TaskOutcome> {
    const started = performance.now();
    const bytes = estimatedRunBytes(sources);
    this.stats.bytesMaterialized += bytes;
    const claim = (claimed.record.task as MaterializationTask).claim as NonNullable<MaterializationTask["claim"]>;
    // Only a task that started in a quiet moment gives way: one the policy started despite busy traffic (a backlog
    // that waited long enough) must go on.
    const givesWay = background && !this.#foregroundBusy();
    // The task's concurrent source reads share one wait (so the wait is counted once per task, not once per read).
    let waiting: Promise<void> | undefined;
    const giveWay = (): Promise<void> =>
      (waiting ??= this.#giveWay(claim, signal).finally(() => {
        waiting = undefined;
      }));
    const betweenSteps = givesWay ? giveWay : () => nextTurn();
    try {
      return await this.#build(head, claimed, sources, signal, betweenSteps);
    } finally {
      await this.#pace(bytes, started, signal);
    }
  }

  /**
   * Between two steps of a background task: yields the event loop, then waits (polling) while `foregroundBusy()`
   * says appends or reads keep the process busy, so a task that started in a quiet moment does not take CPU and
   * disk from traffic that came back. Invariant: it never waits past half the claim's lease after the claim was
   * taken, so the task still ends well before its claim could be taken over; abort ends the wait at once.
   */
  async #giveWay(claim: NonNullable<MaterializationTask["claim"]>, signal: AbortSignal): Promise<void> {
    await nextTurn();
    const latest = claim.expiresAtMillis - this.#claimTtlMs / 2;
    if (!this.#foregroundBusy() || this.#clock() >= latest) return;
    const started = performance.now();
    while (!signal.aborted && this.#clock() < latest && this.#foregroundBusy()) await sleep(FOREGROUND_POLL_MS, signal);
    this.stats.foregroundWaitMs += performance.now() - started;
  }

  /**
   * After a task of `bytes` that started at `started`: always yields the event loop; waits `taskPauseMs`; and,
   * with `maxBytesPerSecond`, until the shared byte budget allows the bytes (lanes share one budget).
   */
  async #pace(bytes: number, started: number, signal: AbortSignal): Promise<void> {
    let until = performance.now() + this.#taskPauseMs;
    if (this.#maxBytesPerSecond > 0) {
      this.#budgetAt = Math.max(this.#budgetAt, started) + (bytes * 1000) / this.#maxBytesPerSecond;
      until = Math.max(until, this.#budgetAt);
    }
    const waitMs = until - performance.now();
    if (waitMs <= 0 || signal.aborted) {
      await nextTurn();
      return;
    }
    this.stats.pacingMs += waitMs;
    await sleep(waitMs, signal);
  }

  async #build(
    head: StreamHead,
    claimed: VersionedMaterialization,
    sources: readonly MaterializationSource[],
    signal: AbortSignal,
    betweenSteps: () => Promise<void>,
  ): Promise<TaskOutcome> {
    const streamId = head.streamId;
    const task = claimed.record.task as MaterializationTask;
    const claim = task.claim as NonNullable<MaterializationTask["claim"]>;
    let entries;
    try {
      entries = await readAllSources(this.#readers, sources, signal, betweenSteps);
    } catch (error) {
      if (!(error instanceof SourceReadError) || !isCorruption(error.cause))
        throw error instanceof SourceReadError ? error.cause : error;
      // A corrupt generation source is quarantined (reads and later plans skip it); generation 0 has no fallback.
      const source = sources[error.sourceIndex] as MaterializationSource;
      if (task.sourceKind === "GENERATION") await this.#quarantine(source, signal);
      else this.#onError(error.cause, streamId);
      return this.#abandon(streamId, claimed, signal);
    }
    let state = claimed;
    let prepared: { readonly key: string; readonly entry: GenerationIndexEntry; readonly revision: number };
    if (task.state === "CLAIMED") {
      const encoded = await encodeGenerationObjectYielding(
        {
          cluster: this.#cluster,
          streamId,
          offsetStart: task.offsetStart,
          offsetEnd: task.offsetEnd,
          entries,
          workerId: this.workerId,
          processRunId: this.processRunId,
          claimToken: claim.token,
          createdAtMillis: this.#clock(),
          orphanGraceMs: this.#orphanGraceMs,
        },
        betweenSteps,
      );
      await betweenSteps();
      const [root] = await Promise.all([
        this.#roots.create(this.#metadata, encoded.root, signal),
        uploadGenerationObject(this.#store, encoded, signal),
      ]);
      const proof = await verifyUploadedGenerationObject(
        this.#store,
        encoded,
        streamId,
        task.offsetStart,
        entries,
        signal,
      );
      if (proof === "STORE_CHECKSUM") this.stats.outputsVerifiedByChecksum += 1;
      else this.stats.outputsVerifiedByReadBack += 1;
      await this.#hooks.afterOutputUpload?.(task);
      const generation = state.record.nextGeneration;
      const last = sources.at(-1) as MaterializationSource;
      const entry: GenerationIndexEntry = {
        streamId,
        offsetStart: task.offsetStart,
        offsetEnd: task.offsetEnd,
        generation,
        level: task.level,
        state: "PREPARED",
        publicationId: `${task.taskId}/${String(generation)}`,
        commitVersion: last.commitVersion,
        cumulativeSize: last.cumulativeSize,
        logicalBytes: encoded.logicalBytes,
        readTarget: encoded.target,
        payloadFormat: last.payloadFormat,
        entryRecordCounts: sources.flatMap((source) => source.entryRecordCounts),
      };
      const key = this.#keyspace.generationIndexKey(streamId, entry.offsetEnd, generation);
      const protection = this.#roots.protection(root, { type: "VISIBLE_GENERATION", streamId, ownerKey: key });
      const preparedTask: MaterializationTask = { ...task, state: "PREPARED", generation, output: encoded.target };
      const next: StreamMaterialization = { ...state.record, nextGeneration: generation + 1, task: preparedTask };
      const replaced = await this.#states.replace(
        state,
        next,
        {
          compares: [{ key, modRevision: 0 }, ...protection.compares],
          writes: [{ type: "put", key, value: this.#keyspace.encodeGenerationIndex(entry) }, ...protection.writes],
        },
        signal,
      );
      if (!replaced.ok) return this.#lost();
      state = { record: next, revision: replaced.revision };
      // One transaction wrote the record and the entry: the entry's revision is the transaction's (SPI invariant).
      prepared = { key, entry, revision: replaced.revision };
      await this.#hooks.afterPrepared?.(preparedTask);
    } else {
      // Resuming a PREPARED task: its entry must still be PREPARED and its output must still verify.
      const key = this.#keyspace.generationIndexKey(streamId, task.offsetEnd, task.generation);
      const stored = await this.#metadata.get(key, { signal });
      const entry = stored === undefined ? undefined : this.#keyspace.decodeGenerationIndex(stored);
      if (stored === undefined || entry === undefined || entry.state !== "PREPARED" || task.output === undefined)
        return this.#abandon(streamId, state, signal);
      try {
        await verifyGenerationObject(this.#store, task.output, streamId, task.offsetStart, entries, signal);
        this.stats.outputsVerifiedByReadBack += 1;
      } catch (error) {
        if (NereusError.is(error) && !error.retryable) return this.#abandon(streamId, state, signal);
        throw error;
      }
      prepared = { key, entry, revision: stored.modRevision };
    }
    return this.#publish(streamId, state, prepared, signal);
  }

  async #publish(
    streamId: string,
    state: VersionedMaterialization,
    prepared: { readonly key: string; readonly entry: GenerationIndexEntry; readonly revision: number },
    signal: AbortSignal,
  ): Promise<TaskOutcome> {
    const task = state.record.task as MaterializationTask;
    // Re-verify what the publication relies on: the stream still exists and the sources are exactly the planned ones.
    const headKv = await this.#metadata.get(this.#keyspace.headKey(streamId), { signal });
    const head = headKv === undefined ? undefined : this.#keyspace.decodeHead(headKv).head;
    if (
      head === undefined ||
      (head.state !== "ACTIVE" && head.state !== "SEALED") ||
      head.committedEndOffset < task.offsetEnd
    ) {
      return this.#abandon(streamId, state, signal);
    }
    if ((await this.#collectSources(streamId, task, signal)) === undefined)
      return this.#abandon(streamId, state, signal);
    await this.#hooks.beforePublish?.(task);
    const record = state.record;
    const contiguous = task.level === 1 && task.offsetStart <= Math.max(record.materializedEnd, head.trimOffset);
    const next: StreamMaterialization = {
      ...record,
      materializedEnd: contiguous ? Math.max(record.materializedEnd, task.offsetEnd) : record.materializedEnd,
      materializedCumulativeSize:
        contiguous && task.offsetEnd > record.materializedEnd
          ? prepared.entry.cumulativeSize
          : record.materializedCumulativeSize,
      mergedEnd: task.sourceKind === "GENERATION" ? Math.max(record.mergedEnd, task.offsetEnd) : record.mergedEnd,
      task: { ...task, state: "PUBLISHED", claim: undefined },
    };
    const committed: GenerationIndexEntry = { ...prepared.entry, state: "COMMITTED" };
    const replaced = await this.#states.replace(
      state,
      next,
      {
        compares: [{ key: prepared.key, modRevision: prepared.revision }],
        writes: [{ type: "put", key: prepared.key, value: this.#keyspace.encodeGenerationIndex(committed) }],
      },
      signal,
    );
    if (!replaced.ok) return this.#lost();
    this.stats.tasksPublished += 1;
    this.stats.publishedByLevel.set(task.level, (this.stats.publishedByLevel.get(task.level) ?? 0) + 1);
    this.coverage.update(streamId, {
      materializedEnd: next.materializedEnd,
      materializedCumulativeSize: next.materializedCumulativeSize,
    });
    return "published";
  }

  /** Ends `state`'s task without publishing: its PREPARED entry (if any) becomes ABORTED in the same transaction. */
  async #abandon(streamId: string, state: VersionedMaterialization, signal: AbortSignal): Promise<TaskOutcome> {
    const task = state.record.task as MaterializationTask;
    const compares: RevisionCompare[] = [];
    const writes: WriteOp[] = [];
    if (task.generation > 0) {
      const key = this.#keyspace.generationIndexKey(streamId, task.offsetEnd, task.generation);
      const stored = await this.#metadata.get(key, { signal });
      if (stored !== undefined) {
        const entry = this.#keyspace.decodeGenerationIndex(stored);
        if (entry.state === "PREPARED") {
          compares.push({ key, modRevision: stored.modRevision });
          writes.push({
            type: "put" as const,
            key,
            value: this.#keyspace.encodeGenerationIndex({ ...entry, state: "ABORTED" }),
          });
        }
      }
    }
    const replaced = await this.#states.replace(
      state,
      { ...state.record, task: { ...task, state: "ABANDONED", claim: undefined } },
      { compares, writes },
      signal,
    );
    if (!replaced.ok) return this.#lost();
    this.stats.tasksAbandoned += 1;
    return "abandoned";
  }

  async #quarantine(source: MaterializationSource, signal: AbortSignal): Promise<void> {
    const stored = await this.#metadata.get(source.key, { signal });
    if (stored === undefined) return;
    const entry = this.#keyspace.decodeGenerationIndex(stored);
    if (entry.state !== "COMMITTED") return;
    await this.#metadata.txn(
      {
        compares: [{ key: source.key, modRevision: stored.modRevision }],
        writes: [
          {
            type: "put",
            key: source.key,
            value: this.#keyspace.encodeGenerationIndex({ ...entry, state: "QUARANTINED" }),
          },
        ],
      },
      { signal },
    );
  }

  #lost(): TaskOutcome {
    this.stats.claimsLost += 1;
    return "lost";
  }

  #newClaim(now: number): NonNullable<MaterializationTask["claim"]> {
    const token = randomBytes(12).toString("hex");
    if (this.#ownTokens.size >= 10_000) this.#ownTokens.clear();
    this.#ownTokens.add(token);
    return { workerId: this.workerId, token, expiresAtMillis: now + this.#claimTtlMs };
  }
}

/** How often a background task that gives way re-asks whether the foreground is still busy. */
const FOREGROUND_POLL_MS = 50;

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}

/** Errors proving a source's bytes unusable (as opposed to a transient failure worth retrying next pass). */
function isCorruption(error: unknown): boolean {
  if (!NereusError.is(error)) return false;
  const codes: readonly string[] = [
    ErrorCode.OBJECT_CHECKSUM_MISMATCH,
    ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
    ErrorCode.DECODE_ERROR,
    ErrorCode.OBJECT_NOT_FOUND,
    ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
  ];
  return codes.includes(error.code);
}
