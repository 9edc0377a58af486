// The background materialization worker (digest §3.7, §3.9). Each pass discovers work from metadata only — the
// stream registry, each stream's head and its StreamMaterialization record — so a crash loses nothing: a restarted
// (or another) worker finds the same work. Per stream it (1) closes generation-0 index gaps left by async appends,
// then (2) runs at most one materialization task at a time: a level-1 generation from the generation-0 slices past
// the materialized end (spread over many multi-stream WAL objects), or a merge of level-1 generations into level 2.
//
// A task is claimed by a CAS on the record (random claim token, expiry); every later transition compares the
// record's revision, so a worker whose claim expired and was taken over can no longer prepare or publish. The
// output object (content-addressed key + claim token; root created first) is uploaded and read back and compared
// entry by entry with the sources before anything names it. Publication:
//   PREPARE  — one txn: record (claim) → task PREPARED with a freshly allocated generation; generation index entry
//              written PREPARED (key absent); VISIBLE_GENERATION protection of the output, comparing its root.
//   verify   — head still there, sources unchanged (exact digest), output still verifies.
//   PUBLISH  — one txn: record (exact revision) → task PUBLISHED + coverage advanced; index entry PREPARED →
//              COMMITTED at its exact revision. This is the publication point; only COMMITTED entries are read.
// A worker that finds a PREPARED task whose claim expired reclaims it and resumes at verify (or aborts: entry
// ABORTED, task ABANDONED, when the output no longer verifies). Offsets, entry bytes and AppendResult never change.
import { randomBytes } from "node:crypto";
import {
  ErrorCode,
  NereusError,
  StreamKeyspace,
  type GenerationIndexEntry,
  type MetadataStore,
  type ObjectStore,
  type RevisionCompare,
  type WriteOp,
  type StorageProfile,
  type StreamHead,
} from "@nereus/core";
import { CoverageCache } from "../profiles/materialization-lag-admission.js";
import { StreamRegistry } from "../profiles/stream-registry.js";
import { PhysicalObjectRoots } from "../roots/physical-object-roots.js";
import { newProcessRunId } from "../writer/wal-object-naming.js";
import { advanceGenerationZeroIndex } from "./advance-generation-zero-index.js";
import { SourceReadError, encodeGenerationObject, readAllSources, uploadGenerationObject, verifyGenerationObject, type SourceReaders } from "./generation-object.js";
import type { MaterializationTask, StreamMaterialization, StreamRegistration } from "./materialization-records.js";
import { MaterializationStateStore, type VersionedMaterialization } from "./materialization-state-store.js";
import {
  DEFAULT_MATERIALIZATION_POLICY,
  planLevelOne,
  planMerge,
  sourceDigest,
  type MaterializationPlan,
  type MaterializationPolicy,
  type MaterializationSource,
  type ScannedGeneration,
  type ScannedIndexEntry,
} from "./plan-materialization.js";

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

/** "idle": nothing to do; "busy": another worker holds the stream's task. */
type TaskOutcome = "published" | "abandoned" | "lost" | "busy" | "idle";

const memoOf = (headRevision: number, stateRevision: number): string => `${String(headRevision)}/${String(stateRevision)}`;

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
    this.#profiles = options.materializeProfiles ?? new Set<StorageProfile>(["OBJECT_WAL_SYNC_OBJECT", "OBJECT_WAL_ASYNC_OBJECT"]);
    this.#claimTtlMs = options.claimTtlMs ?? 30_000;
    this.#clockSkewMs = options.clockSkewMs ?? 1_000;
    this.#intervalMs = options.intervalMs ?? 200;
    this.#concurrency = options.concurrency ?? 4;
    this.#tasksPerStream = options.tasksPerStream ?? 4;
    this.#repairBudget = options.repairBudget ?? 256;
    this.#orphanGraceMs = options.orphanGraceMs ?? 24 * 60 * 60 * 1000;
    this.#hooks = options.hooks ?? {};
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Runs one pass over every registered stream. Never throws for a stream's failure (counted, reported). */
  async runOnce(signal?: AbortSignal): Promise<MaterializationPassResult> {
    const combined = signal === undefined ? this.#closing.signal : AbortSignal.any([signal, this.#closing.signal]);
    this.stats.passes += 1;
    const before = this.stats.tasksPublished;
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
          await this.#visit(registration, views.get(registration.streamId), combined);
        }
      });
      await Promise.all(lanes);
    };
    for await (const registration of this.#registry.scan(combined)) {
      streams += 1;
      batch.push(registration);
      if (batch.length >= 64) await flush();
    }
    if (batch.length > 0) await flush();
    return { streams, published: this.stats.tasksPublished - before };
  }

  /** Processes one stream now (tests, tools): gen-0 repair and up to `tasksPerStream` tasks. */
  async runStream(streamId: string, signal?: AbortSignal): Promise<void> {
    const view = await this.#loadView(streamId, signal);
    if (view === undefined) return;
    await this.#process(streamId, view, signal ?? this.#closing.signal);
  }

  /** Starts passes every `intervalMs` until `close()`. Idempotent. */
  start(): void {
    if (this.#loop !== undefined || this.#closed !== undefined) return;
    this.#loop = (async () => {
      while (!this.#closing.signal.aborted) {
        try {
          await this.runOnce();
        } catch (error) {
          if (this.#closing.signal.aborted) return;
          this.stats.errors += 1;
          this.#onError(error, "");
        }
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

  /** Ends the wait between passes (new work is likely). */
  poke(): void {
    this.#wake?.();
  }

  /** Idempotent: stops the loop and aborts in-flight work (claims expire; another worker resumes them). */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#closing.abort(new NereusError(ErrorCode.STORAGE_CLOSED, "materialization worker closed", { retryable: false }));
      this.#wake?.();
      await this.#loop?.catch(() => undefined);
    })();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #visit(registration: StreamRegistration, view: StreamView | undefined, signal: AbortSignal): Promise<void> {
    if (view === undefined || !this.#profiles.has(registration.profile)) return;
    this.stats.streamsVisited += 1;
    if (this.#idle.get(registration.streamId) === memoOf(view.headRevision, view.state.revision)) {
      this.stats.streamsUnchanged += 1;
      return;
    }
    try {
      await this.#process(registration.streamId, view, signal);
    } catch (error) {
      if (signal.aborted) return;
      this.stats.errors += 1;
      this.#onError(error, registration.streamId);
    }
  }

  async #loadViews(registrations: readonly StreamRegistration[], signal: AbortSignal): Promise<Map<string, StreamView>> {
    const keys = registrations.flatMap((registration) => [this.#keyspace.headKey(registration.streamId), this.#states.key(registration.streamId)]);
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

  async #process(streamId: string, first: StreamView, signal: AbortSignal): Promise<void> {
    if (this.#active.has(streamId)) return;
    this.#active.add(streamId);
    try {
      await this.#processExclusively(streamId, first, signal);
    } finally {
      this.#active.delete(streamId);
    }
  }

  async #processExclusively(streamId: string, first: StreamView, signal: AbortSignal): Promise<void> {
    let view: StreamView | undefined = first;
    for (let tasks = 0; view !== undefined && tasks <= this.#tasksPerStream; tasks++) {
      const { head } = view;
      if (head.state !== "ACTIVE" && head.state !== "SEALED") return;
      let state = view.state;
      // 1. Generation-0 index gaps (async appends acknowledge before the index exists).
      if (state.record.generationZeroIndexedEnd < head.committedEndOffset) {
        const advanced = await advanceGenerationZeroIndex({
          metadata: this.#metadata,
          keyspace: this.#keyspace,
          head,
          from: state.record.generationZeroIndexedEnd,
          repairBudget: this.#repairBudget,
          signal,
        });
        this.stats.generationZeroGapsRepaired += advanced.repairedGaps;
        const replaced = await this.#states.replace(state, { ...state.record, generationZeroIndexedEnd: advanced.indexedEnd }, {}, signal);
        if (!replaced.ok) {
          this.stats.claimsLost += 1;
          view = await this.#loadView(streamId, signal);
          continue;
        }
        state = { record: { ...state.record, generationZeroIndexedEnd: advanced.indexedEnd }, revision: replaced.revision };
      }
      // 2. One task.
      const outcome = await this.#runTask(head, state, signal);
      if (outcome === "idle") this.#idle.set(streamId, memoOf(view.headRevision, state.revision));
      if (outcome === "idle" || outcome === "busy") return;
      view = await this.#loadView(streamId, signal);
    }
  }

  /** Claims or resumes a task and drives it to an end. "busy": nothing to do or someone else holds the task. */
  async #runTask(head: StreamHead, state: VersionedMaterialization, signal: AbortSignal): Promise<TaskOutcome> {
    const record = state.record;
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
      if (sources === undefined) return this.#abandon(head.streamId, { record: { ...record, task: claimed }, revision: replaced.revision }, signal);
      return this.#drive(head, { record: { ...record, task: claimed }, revision: replaced.revision }, sources, signal);
    }
    const plan = await this.#plan(head, record, signal);
    if (plan === undefined) return "idle";
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
    return this.#drive(head, { record: { ...record, task: claimed }, revision: replaced.revision }, plan.sources, signal);
  }

  async #plan(head: StreamHead, record: StreamMaterialization, signal: AbortSignal): Promise<MaterializationPlan | undefined> {
    const streamId = head.streamId;
    const start = Math.max(record.materializedEnd, head.trimOffset);
    if (start < head.committedEndOffset) {
      const page = await this.#metadata.scan(this.#keyspace.indexPrefix(streamId), {
        startAt: this.#keyspace.indexScanStart(streamId, start + 1),
        limit: this.policy.maxSources + 1,
        signal,
      });
      const scanned: ScannedIndexEntry[] = page.items.map((item) => ({ key: item.key, value: item.value, entry: this.#keyspace.decodeIndex(item) }));
      const levelOne = planLevelOne(streamId, start, head.committedEndOffset, scanned, this.policy);
      if (levelOne !== undefined) return levelOne;
    }
    const page = await this.#metadata.scan(this.#keyspace.generationIndexPrefix(streamId), {
      startAt: this.#keyspace.generationIndexScanStart(streamId, record.mergedEnd + 1),
      limit: 512,
      signal,
    });
    const generations: ScannedGeneration[] = page.items.map((item) => ({ key: item.key, value: item.value, entry: this.#keyspace.decodeGenerationIndex(item) }));
    return planMerge(streamId, record.mergedEnd, generations, this.policy);
  }

  /** Re-reads the exact sources of `task` (undefined when they changed: the task must be abandoned). */
  async #collectSources(streamId: string, task: MaterializationTask, signal: AbortSignal): Promise<MaterializationSource[] | undefined> {
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
        if (entry.generation !== 0 || entry.offsetEnd <= cursor || entry.offsetStart !== cursor || entry.offsetEnd > task.offsetEnd) continue;
        sources.push({ key: item.key, value: item.value, ...sourceFacts(entry) });
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
        .filter(({ entry }) => entry.state === "COMMITTED" && entry.level === task.level - 1 && entry.offsetEnd <= task.offsetEnd)
        .sort((a, b) => a.entry.offsetStart - b.entry.offsetStart || b.entry.generation - a.entry.generation);
      for (const { item, entry } of committed) {
        if (entry.offsetStart !== cursor) continue;
        sources.push({ key: item.key, value: item.value, ...sourceFacts(entry) });
        cursor = entry.offsetEnd;
      }
    }
    if (sources.length !== task.sourceCount || sourceDigest(sources) !== task.sourceDigest) return undefined;
    return sources;
  }

  /** Builds (or re-verifies) the output, prepares and publishes. */
  async #drive(head: StreamHead, claimed: VersionedMaterialization, sources: readonly MaterializationSource[], signal: AbortSignal): Promise<TaskOutcome> {
    const streamId = head.streamId;
    const task = claimed.record.task as MaterializationTask;
    const claim = task.claim as NonNullable<MaterializationTask["claim"]>;
    let entries;
    try {
      entries = await readAllSources(this.#readers, sources, signal);
    } catch (error) {
      if (!(error instanceof SourceReadError) || !isCorruption(error.cause)) throw error instanceof SourceReadError ? error.cause : error;
      // A corrupt generation source is quarantined (reads and later plans skip it); generation 0 has no fallback.
      const source = sources[error.sourceIndex] as MaterializationSource;
      if (task.sourceKind === "GENERATION") await this.#quarantine(source, signal);
      else this.#onError(error.cause, streamId);
      return this.#abandon(streamId, claimed, signal);
    }
    let state = claimed;
    let prepared: { readonly key: string; readonly entry: GenerationIndexEntry; readonly revision: number };
    if (task.state === "CLAIMED") {
      const encoded = encodeGenerationObject({
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
      });
      const [root] = await Promise.all([this.#roots.create(this.#metadata, encoded.root, signal), uploadGenerationObject(this.#store, encoded, signal)]);
      await verifyGenerationObject(this.#store, encoded.target, streamId, task.offsetStart, entries, signal);
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
      const stored = await this.#metadata.get(key, { signal });
      if (stored === undefined) return this.#lost();
      prepared = { key, entry, revision: stored.modRevision };
      await this.#hooks.afterPrepared?.(preparedTask);
    } else {
      // Resuming a PREPARED task: its entry must still be PREPARED and its output must still verify.
      const key = this.#keyspace.generationIndexKey(streamId, task.offsetEnd, task.generation);
      const stored = await this.#metadata.get(key, { signal });
      const entry = stored === undefined ? undefined : this.#keyspace.decodeGenerationIndex(stored);
      if (stored === undefined || entry === undefined || entry.state !== "PREPARED" || task.output === undefined) return this.#abandon(streamId, state, signal);
      try {
        await verifyGenerationObject(this.#store, task.output, streamId, task.offsetStart, entries, signal);
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
    if (head === undefined || (head.state !== "ACTIVE" && head.state !== "SEALED") || head.committedEndOffset < task.offsetEnd) {
      return this.#abandon(streamId, state, signal);
    }
    if ((await this.#collectSources(streamId, task, signal)) === undefined) return this.#abandon(streamId, state, signal);
    await this.#hooks.beforePublish?.(task);
    const record = state.record;
    const contiguous = task.level === 1 && task.offsetStart <= Math.max(record.materializedEnd, head.trimOffset);
    const next: StreamMaterialization = {
      ...record,
      materializedEnd: contiguous ? Math.max(record.materializedEnd, task.offsetEnd) : record.materializedEnd,
      materializedCumulativeSize: contiguous && task.offsetEnd > record.materializedEnd ? prepared.entry.cumulativeSize : record.materializedCumulativeSize,
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
    this.coverage.update(streamId, { materializedEnd: next.materializedEnd, materializedCumulativeSize: next.materializedCumulativeSize });
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
          writes.push({ type: "put" as const, key, value: this.#keyspace.encodeGenerationIndex({ ...entry, state: "ABORTED" }) });
        }
      }
    }
    const replaced = await this.#states.replace(state, { ...state.record, task: { ...task, state: "ABANDONED", claim: undefined } }, { compares, writes }, signal);
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
        writes: [{ type: "put", key: source.key, value: this.#keyspace.encodeGenerationIndex({ ...entry, state: "QUARANTINED" }) }],
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

function sourceFacts(entry: {
  readonly offsetStart: number;
  readonly offsetEnd: number;
  readonly readTarget: MaterializationSource["readTarget"];
  readonly entryRecordCounts: readonly number[];
  readonly payloadFormat: MaterializationSource["payloadFormat"];
  readonly commitVersion: number;
  readonly cumulativeSize: number;
}): Omit<MaterializationSource, "key" | "value"> {
  return {
    offsetStart: entry.offsetStart,
    offsetEnd: entry.offsetEnd,
    readTarget: entry.readTarget,
    entryRecordCounts: entry.entryRecordCounts,
    payloadFormat: entry.payloadFormat,
    commitVersion: entry.commitVersion,
    cumulativeSize: entry.cumulativeSize,
  };
}
