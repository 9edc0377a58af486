// The storage collector of the Object WAL profiles (packages/core/README.md, "Storage reclamation"): one run per
// stream proves what the stream no longer needs (core's `planRelease`), releases it (release-stream.ts) and moves
// every object of the stream's journal through MARKED → DELETING → DELETED as far as time, protections and this
// process's read pins allow (advance-entry.ts). Every step is one transaction that compares what it relies on, so
// a run may crash anywhere, run twice, or race another collector: nothing is deleted early or twice, and the next
// run resumes from metadata. Runs are meant to be driven by the stream's owner (the process holding its append
// session); a run of a stream another live writer owns is skipped. Each run logs one line with what it freed and
// updates `stats`. BookKeeper ledgers are not collected here (their targets keep all their records).
import { setTimeout as delay } from "node:timers/promises";
import { performance } from "node:perf_hooks";
import {
  ErrorCode,
  NereusError,
  ReclamationStats,
  type MetadataStore,
  type ObjectStore,
  type ReadPins,
  type ReadTarget,
  type StreamHead,
} from "@nereus/core";
import {
  StreamKeyspace,
  loadStreamRecords,
  planRelease,
  type OffsetRange,
  type StoredRecord,
} from "@nereus/core/internal";
import {
  MaterializationStateStore,
  type VersionedMaterialization,
} from "../generations/materialization-state-store.js";
import { StreamRegistry } from "../generations/stream-registry.js";
import { PhysicalObjectRoots } from "../roots/physical-object-roots.js";
import { stepEntry } from "./advance-entry.js";
import {
  DEFAULT_RECLAMATION_POLICY,
  type ReclamationContext,
  type ReclamationHooks,
  type ReclamationPolicy,
} from "./reclamation-context.js";
import { loadJournal } from "./reclamation-journal.js";
import type { ObjectReclamation } from "./reclamation-records.js";
import { releaseStream } from "./release-stream.js";

/** Steps one entry may take in one run (RELEASED → MARKED → DELETING → DELETED → forgotten). */
const STEPS_PER_ENTRY = 4;

/** Where a collector writes its per-run line (the broker's logger has this shape). */
export interface ReclamationLogger {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

export interface StreamReclaimerOptions {
  readonly metadata: MetadataStore;
  readonly objectStore: ObjectStore;
  readonly cluster: string;
  /** This process's writer identity: runs of streams another live writer owns are skipped. */
  readonly writerId: string;
  /** The read pins of this process's stream store (`StreamStore.readPins`, or the ones given to it). */
  readonly readPins: ReadPins;
  readonly policy?: Partial<ReclamationPolicy>;
  readonly clock?: () => number;
  readonly hooks?: ReclamationHooks;
  readonly logger?: ReclamationLogger;
  /** Pause between passes of `start()` (default 30 s). */
  readonly intervalMs?: number;
}

/** What one run of one stream did. */
export interface ReclamationRunReport {
  readonly streamId: string;
  /**
   * Why the run did nothing: another live writer owns the stream, it does not exist, or neither its head nor its
   * materialization record changed since a run of this collector found nothing to do.
   */
  readonly skipped?: "not-owner" | "not-found" | "unchanged";
  /** Offsets below this were released (the trim offset, or everything for a deleted stream). */
  readonly floor: number;
  readonly commitsTrimmed: number;
  readonly commitsRetired: number;
  readonly generationsReleased: number;
  readonly targetsReleased: number;
  /** Metadata records this run deleted (released records and protections, forgotten journal entries and roots). */
  readonly metadataRecordsDeleted: number;
  readonly objectsDeleted: number;
  readonly bytesFreed: number;
  /** Objects of the stream's journal marked or being deleted after the run. */
  readonly pendingObjects: number;
  readonly durationMs: number;
  /** The failure that stopped the run (the next run resumes). */
  readonly error?: unknown;
}

export class StreamReclaimer implements AsyncDisposable {
  readonly stats = new ReclamationStats();
  readonly #context: ReclamationContext;
  readonly #writerId: string;
  readonly #registry: StreamRegistry;
  readonly #logger: ReclamationLogger | undefined;
  readonly #intervalMs: number;
  /** Stream → revisions of its head and materialization record when a run found nothing to do (a hint). */
  readonly #idle = new Map<string, string>();
  /** Runs in flight by stream (a second caller joins the first). */
  readonly #running = new Map<string, Promise<ReclamationRunReport>>();
  readonly #closing = new AbortController();
  #loop: Promise<void> | undefined;

  constructor(options: StreamReclaimerOptions) {
    const policy = Object.freeze({ ...DEFAULT_RECLAMATION_POLICY, ...options.policy });
    for (const [name, value] of Object.entries(policy)) {
      if (!Number.isSafeInteger(value) || value < 0)
        throw new NereusError(ErrorCode.INVALID_ARGUMENT, `reclamation ${name} must be a non-negative integer`);
    }
    const clock = options.clock ?? Date.now;
    this.#context = {
      metadata: options.metadata,
      objects: options.objectStore,
      cluster: options.cluster,
      keyspace: new StreamKeyspace(options.cluster),
      roots: new PhysicalObjectRoots(options.cluster),
      states: new MaterializationStateStore(options.metadata, options.cluster),
      pins: options.readPins,
      clock,
      policy,
      stats: this.stats,
      hooks: options.hooks ?? {},
    };
    this.#writerId = options.writerId;
    this.#registry = new StreamRegistry(options.metadata, options.cluster, clock);
    this.#logger = options.logger;
    this.#intervalMs = options.intervalMs ?? 30_000;
  }

  /** The time bounds in force. */
  get policy(): ReclamationPolicy {
    return this.#context.policy;
  }

  /** Collects `streamId` once (joining a run of it already in flight). Never throws: failures are in the report. */
  runStream(streamId: string, signal?: AbortSignal): Promise<ReclamationRunReport> {
    const running = this.#running.get(streamId);
    if (running !== undefined) return running;
    const combined = signal === undefined ? this.#closing.signal : AbortSignal.any([signal, this.#closing.signal]);
    const run = this.#run(streamId, combined).finally(() => this.#running.delete(streamId));
    this.#running.set(streamId, run);
    return run;
  }

  /** Collects every registered stream this process drives, one after another. */
  async runRegistered(signal?: AbortSignal): Promise<ReclamationRunReport[]> {
    const reports: ReclamationRunReport[] = [];
    for await (const registration of this.#registry.scan(signal ?? this.#closing.signal)) {
      reports.push(await this.runStream(registration.streamId, signal));
    }
    return reports;
  }

  /** Starts passes over the registered streams every `intervalMs` until `close()`. Idempotent. */
  start(): void {
    if (this.#loop !== undefined || this.#closing.signal.aborted) return;
    this.#loop = (async () => {
      while (!this.#closing.signal.aborted) {
        await this.runRegistered().catch(() => undefined);
        await delay(this.#intervalMs, undefined, { signal: this.#closing.signal }).catch(() => undefined);
      }
    })();
  }

  /** Stops the passes and aborts runs in flight (they resume from metadata next time). Idempotent. */
  async close(): Promise<void> {
    this.#closing.abort(new NereusError(ErrorCode.STORAGE_CLOSED, "reclaimer closed", { retryable: false }));
    await this.#loop;
    await Promise.allSettled([...this.#running.values()]);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #run(streamId: string, signal: AbortSignal): Promise<ReclamationRunReport> {
    const started = performance.now();
    const stats = this.stats;
    stats.runs += 1;
    const tally = new RunTally(streamId);
    try {
      await this.#collect(streamId, tally, signal);
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.STREAM_NOT_FOUND)) tally.skipped = "not-found";
      else {
        stats.failures += 1;
        tally.error = error;
      }
    }
    const report = tally.report(started);
    this.#log(report);
    return report;
  }

  async #collect(streamId: string, tally: RunTally, signal: AbortSignal): Promise<void> {
    const context = this.#context;
    const memo = await this.#memo(streamId, signal);
    if (this.#idle.get(streamId) === memo) {
      tally.skipped = "unchanged";
      return;
    }
    this.#idle.delete(streamId);
    const records = await loadStreamRecords(context.metadata, context.keyspace, streamId, signal);
    if (!this.#drivesHere(records.head)) {
      tally.skipped = "not-owner";
      return;
    }
    const materialization = await context.states.load(streamId, signal);
    let journal = await loadJournal(context.metadata, context.cluster, streamId, signal);
    const plan = planRelease({ ...records, busy: busyRanges(materialization), handles });
    tally.floor = plan.floor;
    const released = await releaseStream(context, {
      streamId,
      plan,
      materialization: { key: context.states.key(streamId), modRevision: materialization.revision },
      journaled: new Set(journal.map((stored) => stored.record.objectKeyHash)),
      signal,
    });
    context.stats.targetsReleased += released.targetsReleased;
    context.stats.metadataRecordsDeleted += released.recordsDeleted;
    context.stats.conflicts += released.conflicts;
    tally.commitsTrimmed = released.commitsTrimmed;
    tally.commitsRetired = released.commitsRetired;
    tally.generationsReleased = released.generationsReleased;
    tally.targetsReleased = released.targetsReleased;
    tally.recordsDeleted = released.recordsDeleted;
    if (released.recordsDeleted > 0) journal = await loadJournal(context.metadata, context.cluster, streamId, signal);
    const after: ObjectReclamation[] = [];
    try {
      for (const stored of journal) {
        const last = await this.#advance(stored, tally, signal);
        if (last !== undefined) after.push(last);
      }
    } finally {
      const pending = after.filter((entry) => entry.state === "MARKED" || entry.state === "DELETING");
      tally.pendingObjects = pending.length;
      context.stats.setPending(
        streamId,
        pending.length,
        pending.reduce((sum, entry) => sum + entry.objectLength, 0),
      );
    }
    // Nothing to do and nothing waiting: until the head or the materialization record changes, neither can change.
    if (after.length === 0 && journal.length === 0 && released.conflicts === 0 && released.recordsDeleted === 0) {
      if (this.#idle.size >= 100_000) this.#idle.clear();
      this.#idle.set(streamId, memo);
    }
  }

  /** The revisions of `streamId`'s head and materialization record ("unchanged" runs compare them). */
  async #memo(streamId: string, signal: AbortSignal): Promise<string> {
    const context = this.#context;
    const headKey = context.keyspace.headKey(streamId);
    const stateKey = context.states.key(streamId);
    const found = await context.metadata.getMany([headKey, stateKey], { signal });
    return `${String(found.get(headKey)?.modRevision ?? 0)}/${String(found.get(stateKey)?.modRevision ?? 0)}`;
  }

  /** Moves one journal entry as far as it goes now; its last state, or undefined once forgotten. */
  async #advance(
    first: StoredRecord<ObjectReclamation>,
    tally: RunTally,
    signal: AbortSignal,
  ): Promise<ObjectReclamation | undefined> {
    let stored = first;
    for (let step = 0; step < STEPS_PER_ENTRY; step++) {
      const result = await stepEntry(this.#context, stored, signal);
      if (result.kind === "forgotten") {
        tally.recordsDeleted += result.recordsDeleted;
        return undefined;
      }
      if (result.kind === "waiting") break;
      stored = result.stored;
      if (stored.record.state === "DELETED") {
        tally.objectsDeleted += 1;
        tally.bytesFreed += stored.record.objectLength;
      }
    }
    return stored.record;
  }

  /** Whether this process drives `head`'s stream: no other live writer holds its session, or it is being deleted. */
  #drivesHere(head: StreamHead): boolean {
    if (head.state === "DELETING" || head.state === "DELETED") return true;
    const session = head.session;
    const now = this.#context.clock();
    return (
      session === undefined ||
      session.writerId === this.#writerId ||
      session.expiresAtMillis + this.#context.policy.clockSkewMs < now
    );
  }

  #log(report: ReclamationRunReport): void {
    if (this.#logger === undefined) return;
    const fields = { ...report, error: report.error === undefined ? undefined : describe(report.error) };
    if (report.error !== undefined) this.#logger.warn("storage reclamation run failed", fields);
    else this.#logger.info("storage reclamation run", fields);
  }
}

/** Ranges a materialization task in flight reads or writes. */
function busyRanges(state: VersionedMaterialization): OffsetRange[] {
  const task = state.record.task;
  if (task === undefined || (task.state !== "CLAIMED" && task.state !== "PREPARED")) return [];
  return [{ offsetStart: task.offsetStart, offsetEnd: task.offsetEnd }];
}

/** The targets this collector owns: Object WAL slices and generation objects. */
function handles(target: ReadTarget): boolean {
  return (
    target.type === "OBJECT_SLICE" &&
    (target.objectType === "MULTI_STREAM_WAL_OBJECT" || target.objectType === "STREAM_GENERATION_OBJECT")
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The figures of one run, filled in as it goes. */
class RunTally {
  readonly streamId: string;
  skipped: ReclamationRunReport["skipped"];
  floor = 0;
  commitsTrimmed = 0;
  commitsRetired = 0;
  generationsReleased = 0;
  targetsReleased = 0;
  recordsDeleted = 0;
  objectsDeleted = 0;
  bytesFreed = 0;
  pendingObjects = 0;
  error: unknown;

  constructor(streamId: string) {
    this.streamId = streamId;
  }

  report(started: number): ReclamationRunReport {
    return {
      streamId: this.streamId,
      ...(this.skipped === undefined ? {} : { skipped: this.skipped }),
      floor: this.floor,
      commitsTrimmed: this.commitsTrimmed,
      commitsRetired: this.commitsRetired,
      generationsReleased: this.generationsReleased,
      targetsReleased: this.targetsReleased,
      metadataRecordsDeleted: this.recordsDeleted,
      objectsDeleted: this.objectsDeleted,
      bytesFreed: this.bytesFreed,
      pendingObjects: this.pendingObjects,
      durationMs: Math.round(performance.now() - started),
      ...(this.error === undefined ? {} : { error: this.error }),
    };
  }
}
