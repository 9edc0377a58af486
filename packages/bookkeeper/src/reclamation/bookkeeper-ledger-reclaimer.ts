// The storage collector of the BookKeeper profiles (README, "Ledger reclamation"): one run per stream proves which
// entry ranges the stream no longer needs (core's `planRelease` over its BOOKKEEPER_ENTRY_RANGE commits: below the
// trim, or covered by COMMITTED generations), releases them (release-ledger-ranges.ts) and moves every ledger of the
// stream's journal through MARKED → DELETING → DELETED as far as time, protections and this process's read pins
// allow (advance-ledger-entry.ts). `sweep()` is the inventory pass: it resumes the journals of every ledger root
// left MARKED or DELETING (a crash), journals sealed ledgers nothing protects, and deletes BookKeeper ledgers of this
// cluster that never got a root (orphan-ledgers.ts). Every step is one transaction that compares what it relies on:
// a run may crash anywhere, run twice, or race another collector; nothing is deleted early or twice.
import { setTimeout as delay } from "node:timers/promises";
import { performance } from "node:perf_hooks";
import {
  ErrorCode,
  NereusError,
  ReclamationStats,
  type MetadataStore,
  type ReadPins,
  type ReadTarget,
  type RevisionCompare,
  type StreamHead,
} from "@nereus/core";
import {
  StreamKeyspace,
  loadStreamRecords,
  planRelease,
  type OffsetRange,
  type StoredRecord,
} from "@nereus/core/internal";
import type { BookKeeperClient } from "../client/bookkeeper-client.js";
import { ledgerRootCodec } from "../wal/records/ledger-root-codec.js";
import { VersionedRecords } from "../wal/records/versioned-records.js";
import { stepLedgerEntry } from "./advance-ledger-entry.js";
import { loadLedgerJournal } from "./ledger-journal.js";
import {
  DEFAULT_LEDGER_RECLAMATION_POLICY,
  type LedgerReclamationContext,
  type LedgerReclamationHooks,
  type LedgerReclamationPolicy,
} from "./ledger-reclamation-context.js";
import type { LedgerReclamation } from "./ledger-reclamation-records.js";
import { sweepLedgers, type LedgerSweepReport } from "./orphan-ledgers.js";
import { releaseLedgerRanges } from "./release-ledger-ranges.js";

/** Steps one entry may take in one run (RELEASED → MARKED → DELETING → DELETED → forgotten). */
const STEPS_PER_ENTRY = 4;

/** Where a collector writes its per-run line (the broker's logger has this shape). */
export interface LedgerReclamationLogger {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/**
 * What a materialization task in flight uses of a stream: ranges it reads (nothing overlapping them is released) and
 * the compares that prove no task was claimed since (carried by every release transaction). The composition root
 * provides it from the Object generations' materialization record; streams without generations have none.
 */
export type MaterializationGuard = (
  streamId: string,
  signal: AbortSignal,
) => Promise<{ readonly busy: readonly OffsetRange[]; readonly compares: readonly RevisionCompare[] }>;

export interface BookKeeperLedgerReclaimerOptions {
  readonly metadata: MetadataStore;
  readonly client: BookKeeperClient;
  readonly cluster: string;
  /** The BookKeeper cluster's alias in targets (only its ranges and ledgers are collected). */
  readonly clusterAlias: string;
  /** This process's writer identity: runs of streams another live writer owns are skipped. */
  readonly writerId: string;
  /** The read pins of this process's stream store (`StreamStore.readPins`). */
  readonly readPins: ReadPins;
  readonly materializationGuard?: MaterializationGuard;
  readonly policy?: Partial<LedgerReclamationPolicy>;
  readonly clock?: () => number;
  readonly hooks?: LedgerReclamationHooks;
  readonly logger?: LedgerReclamationLogger;
  /** Pause between passes of `start()` (default 60 s). */
  readonly intervalMs?: number;
}

/** What one run of one stream did. */
export interface LedgerReclamationRunReport {
  readonly streamId: string;
  /** Why the run did nothing: another live writer owns the stream, or it does not exist. */
  readonly skipped?: "not-owner" | "not-found";
  /** Offsets below this were released (the trim offset, or everything for a deleted stream). */
  readonly floor: number;
  readonly commitsTrimmed: number;
  readonly commitsRetired: number;
  readonly rangesReleased: number;
  readonly metadataRecordsDeleted: number;
  readonly ledgersDeleted: number;
  readonly bytesFreed: number;
  /** Ledgers of the stream's journal marked or being deleted after the run. */
  readonly pendingLedgers: number;
  readonly durationMs: number;
  /** The failure that stopped the run (the next run resumes). */
  readonly error?: unknown;
}

/** The BookKeeper ledger collector of one process. */
export class BookKeeperLedgerReclaimer implements AsyncDisposable {
  readonly stats = new ReclamationStats();
  readonly #context: LedgerReclamationContext;
  readonly #writerId: string;
  readonly #guard: MaterializationGuard | undefined;
  readonly #logger: LedgerReclamationLogger | undefined;
  readonly #intervalMs: number;
  readonly #running = new Map<string, Promise<LedgerReclamationRunReport>>();
  readonly #closing = new AbortController();
  #loop: Promise<void> | undefined;

  constructor(options: BookKeeperLedgerReclaimerOptions) {
    const policy = Object.freeze({ ...DEFAULT_LEDGER_RECLAMATION_POLICY, ...options.policy });
    for (const [name, value] of Object.entries(policy)) {
      if (!Number.isSafeInteger(value) || value < 0)
        throw new NereusError(ErrorCode.INVALID_ARGUMENT, `ledger reclamation ${name} must be a non-negative integer`);
    }
    if (typeof options.clusterAlias !== "string" || options.clusterAlias.length === 0)
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, "ledger reclamation needs a non-empty clusterAlias");
    this.#context = {
      metadata: options.metadata,
      client: options.client,
      cluster: options.cluster,
      clusterAlias: options.clusterAlias,
      keyspace: new StreamKeyspace(options.cluster),
      roots: new VersionedRecords(options.metadata, ledgerRootCodec),
      pins: options.readPins,
      clock: options.clock ?? Date.now,
      policy,
      stats: this.stats,
      hooks: options.hooks ?? {},
    };
    this.#writerId = options.writerId;
    this.#guard = options.materializationGuard;
    this.#logger = options.logger;
    this.#intervalMs = options.intervalMs ?? 60_000;
  }

  /** The time bounds in force. */
  get policy(): LedgerReclamationPolicy {
    return this.#context.policy;
  }

  /** Collects `streamId` once (joining a run of it already in flight). Never throws: failures are in the report. */
  runStream(streamId: string, signal?: AbortSignal): Promise<LedgerReclamationRunReport> {
    const running = this.#running.get(streamId);
    if (running !== undefined) return running;
    const combined = signal === undefined ? this.#closing.signal : AbortSignal.any([signal, this.#closing.signal]);
    const run = this.#run(streamId, combined).finally(() => this.#running.delete(streamId));
    this.#running.set(streamId, run);
    return run;
  }

  /**
   * The inventory pass: resumes every journal a crash left MARKED or DELETING, journals sealed ledgers that nothing
   * protects or journals, deletes ledgers of this cluster that never got a root (all older than `orphanAgeMs`), then
   * runs every stream it touched. Never throws: failures are in the report.
   */
  async sweep(signal?: AbortSignal): Promise<LedgerSweepReport & { readonly runs: LedgerReclamationRunReport[] }> {
    const combined = signal === undefined ? this.#closing.signal : AbortSignal.any([signal, this.#closing.signal]);
    const found = await sweepLedgers(this.#context, combined);
    const runs: LedgerReclamationRunReport[] = [];
    for (const streamId of found.streams) runs.push(await this.runStream(streamId, signal));
    this.#logger?.[found.error === undefined ? "info" : "warn"]("BookKeeper ledger sweep", {
      ...found,
      streams: found.streams.length,
      error: found.error === undefined ? undefined : describe(found.error),
    });
    return { ...found, runs };
  }

  /** Starts sweeps every `intervalMs` until `close()`. Idempotent. */
  start(): void {
    if (this.#loop !== undefined || this.#closing.signal.aborted) return;
    this.#loop = (async () => {
      while (!this.#closing.signal.aborted) {
        await this.sweep().catch(() => undefined);
        await delay(this.#intervalMs, undefined, { signal: this.#closing.signal }).catch(() => undefined);
      }
    })();
  }

  /** Stops the sweeps and aborts runs in flight (they resume from metadata next time). Idempotent. */
  async close(): Promise<void> {
    this.#closing.abort(new NereusError(ErrorCode.STORAGE_CLOSED, "ledger reclaimer closed", { retryable: false }));
    await this.#loop;
    await Promise.allSettled([...this.#running.values()]);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #run(streamId: string, signal: AbortSignal): Promise<LedgerReclamationRunReport> {
    const started = performance.now();
    this.stats.runs += 1;
    const tally = new RunTally(streamId);
    try {
      await this.#collect(streamId, tally, signal);
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.STREAM_NOT_FOUND)) {
        tally.skipped = "not-found";
        await this.#advanceJournal(streamId, tally, signal).catch((cause: unknown) => {
          this.stats.failures += 1;
          tally.error = cause;
        });
      } else {
        this.stats.failures += 1;
        tally.error = error;
      }
    }
    const report = tally.report(started);
    this.#log(report);
    return report;
  }

  async #collect(streamId: string, tally: RunTally, signal: AbortSignal): Promise<void> {
    const context = this.#context;
    const records = await loadStreamRecords(context.metadata, context.keyspace, streamId, signal);
    if (!this.#drivesHere(records.head)) {
      tally.skipped = "not-owner";
      return;
    }
    const guard = (await this.#guard?.(streamId, signal)) ?? { busy: [], compares: [] };
    const journal = await loadLedgerJournal(context.metadata, context.cluster, streamId, signal);
    const alias = context.clusterAlias;
    const handles = (target: ReadTarget): boolean =>
      target.type === "BOOKKEEPER_ENTRY_RANGE" && target.clusterAlias === alias;
    const plan = planRelease({ ...records, busy: guard.busy, handles });
    tally.floor = plan.floor;
    const released = await releaseLedgerRanges(context, {
      streamId,
      plan,
      guard: guard.compares,
      journaled: new Set(journal.map((stored) => stored.record.ledgerHash)),
      signal,
    });
    context.stats.targetsReleased += released.rangesReleased;
    context.stats.metadataRecordsDeleted += released.recordsDeleted;
    context.stats.conflicts += released.conflicts;
    tally.commitsTrimmed = released.commitsTrimmed;
    tally.commitsRetired = released.commitsRetired;
    tally.rangesReleased = released.rangesReleased;
    tally.recordsDeleted = released.recordsDeleted;
    await this.#advanceJournal(streamId, tally, signal);
  }

  /** Moves every entry of `streamId`'s ledger journal as far as it goes now. */
  async #advanceJournal(streamId: string, tally: RunTally, signal: AbortSignal): Promise<void> {
    const context = this.#context;
    const journal = await loadLedgerJournal(context.metadata, context.cluster, streamId, signal);
    const after: LedgerReclamation[] = [];
    try {
      for (const stored of journal) {
        const last = await this.#advance(stored, tally, signal);
        if (last !== undefined) after.push(last);
      }
    } finally {
      const pending = after.filter((entry) => entry.state === "MARKED" || entry.state === "DELETING");
      tally.pendingLedgers = pending.length;
      context.stats.setPending(
        streamId,
        pending.length,
        pending.reduce((sum, entry) => sum + entry.ledgerLength, 0),
      );
    }
  }

  /** Moves one journal entry as far as it goes now; its last state, or undefined once forgotten. */
  async #advance(
    first: StoredRecord<LedgerReclamation>,
    tally: RunTally,
    signal: AbortSignal,
  ): Promise<LedgerReclamation | undefined> {
    let stored = first;
    for (let step = 0; step < STEPS_PER_ENTRY; step++) {
      const result = await stepLedgerEntry(this.#context, stored, signal);
      if (result.kind === "forgotten") {
        tally.recordsDeleted += result.recordsDeleted;
        return undefined;
      }
      if (result.kind === "waiting") break;
      stored = result.stored;
      if (stored.record.state === "DELETED") {
        tally.ledgersDeleted += 1;
        tally.bytesFreed += stored.record.ledgerLength;
      }
    }
    return stored.record;
  }

  /** Whether this process drives `head`'s stream: no other live writer holds its session, or it is being deleted. */
  #drivesHere(head: StreamHead): boolean {
    if (head.state === "DELETING" || head.state === "DELETED") return true;
    const session = head.session;
    return (
      session === undefined ||
      session.writerId === this.#writerId ||
      session.expiresAtMillis + this.#context.policy.clockSkewMs < this.#context.clock()
    );
  }

  #log(report: LedgerReclamationRunReport): void {
    if (this.#logger === undefined) return;
    const fields = { ...report, error: report.error === undefined ? undefined : describe(report.error) };
    if (report.error !== undefined) this.#logger.warn("BookKeeper ledger reclamation run failed", fields);
    else this.#logger.info("BookKeeper ledger reclamation run", fields);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The figures of one run, filled in as it goes. */
class RunTally {
  readonly streamId: string;
  skipped: LedgerReclamationRunReport["skipped"];
  floor = 0;
  commitsTrimmed = 0;
  commitsRetired = 0;
  rangesReleased = 0;
  recordsDeleted = 0;
  ledgersDeleted = 0;
  bytesFreed = 0;
  pendingLedgers = 0;
  error: unknown;

  constructor(streamId: string) {
    this.streamId = streamId;
  }

  report(started: number): LedgerReclamationRunReport {
    return {
      streamId: this.streamId,
      ...(this.skipped === undefined ? {} : { skipped: this.skipped }),
      floor: this.floor,
      commitsTrimmed: this.commitsTrimmed,
      commitsRetired: this.commitsRetired,
      rangesReleased: this.rangesReleased,
      metadataRecordsDeleted: this.recordsDeleted,
      ledgersDeleted: this.ledgersDeleted,
      bytesFreed: this.bytesFreed,
      pendingLedgers: this.pendingLedgers,
      durationMs: Math.round(performance.now() - started),
      ...(this.error === undefined ? {} : { error: this.error }),
    };
  }
}
