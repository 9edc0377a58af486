// The main-thread side of the SQLite store's writer thread (writer/sqlite-writer-worker.ts): starts it,
// sends it operations, matches the answers of its rounds to the callers, delivers each round's watch events before
// the round's callers hear back, answers the test seam and reads the shared counters. It does not interpret
// outcomes (the store maps them to Nereus errors): every submitted operation settles with its round's
// `RoundSettlement`. Taking the writes off the event loop leaves the main thread the reads only: a SQLite commit
// (its page writes to the `-wal` file) and the datasync after it no longer cost the event loop anything but two
// messages. The messages both ways are those of writer/sqlite-writer-protocol.ts.
import type { Worker } from "node:worker_threads";
import { type LatencySnapshot, SharedLatencyHistogram, type WatchEvent, startWorkerModule } from "@nereus/core";
import {
  GATE_TIMEOUT_MS,
  SeamVerdict,
  WRITER_COUNTER_WORDS,
  WriterCounter,
  type WriterFailure,
  type WriterOperation,
  type WriterOutcome,
  type WriterReply,
  type WriterRequest,
  type WriterThreadData,
} from "./writer/sqlite-writer-protocol.js";

/** Test seam: runs before each datasync of the `-wal` file; a throw fails the sync like an I/O error. */
export type BeforeWalSync = () => Promise<void> | void;

/**
 * Durations the writer thread records per round (shared memory, no messages): `round` the transaction from BEGIN
 * to COMMIT without the time it waited for gates (the apply work and the commit's page writes), `gateWait` that
 * waiting, in rounds that carried gated txns (the segment write behind them was still in flight), `walSync` the
 * datasync of the `-wal` file after a round (durability "fsync" only).
 */
export interface SqliteWriterTimings {
  readonly round: LatencySnapshot;
  readonly gateWait: LatencySnapshot;
  readonly walSync: LatencySnapshot;
}

interface WriterTimings {
  readonly round: SharedLatencyHistogram;
  readonly gateWait: SharedLatencyHistogram;
  readonly walSync: SharedLatencyHistogram;
}

/** How the round that carried an operation ended, with that operation's own outcome. */
export interface RoundSettlement {
  /** The operation's outcome (absent when the round failed before the body reached it). */
  readonly outcome: WriterOutcome | undefined;
  /** BEGIN or COMMIT failed: nothing of the round applied, unless `bodyDone` (then COMMIT failed: unknown). */
  readonly commitError?: WriterFailure;
  readonly bodyDone: boolean;
  /** The round committed but its datasync failed (what it wrote may or may not survive). */
  readonly syncError?: WriterFailure;
  /** The thread refused the operation without applying it (an earlier datasync failed). */
  readonly refused?: WriterFailure;
  /** The thread died with the operation in flight (its outcome is unknown). */
  readonly lost?: WriterFailure;
}

export interface SqliteWriterThreadOptions {
  /** Database file (its schema must exist). */
  readonly path: string;
  /** Datasync the `-wal` file after every round (durability "fsync"). */
  readonly sync: boolean;
  /** How long a round waits for its txns' durability gates before refusing the ones still closed (ms; default GATE_TIMEOUT_MS). */
  readonly gateTimeoutMs?: number;
  readonly beforeWalSync?: BeforeWalSync;
  /** Called with each round's watch events, before that round's operations settle. */
  readonly onEvents: (events: readonly WatchEvent[]) => void;
}

/**
 * Invariants: operations apply in submission order; an operation settles only after its round committed and (with
 * `sync`) was datasynced, or failed; `barrier()` resolves once every operation submitted before it settled.
 */
export class SqliteWriterThread {
  readonly #worker: Worker;
  readonly #counters: Int32Array;
  readonly #options: SqliteWriterThreadOptions;
  readonly #pending = new Map<number, (settlement: RoundSettlement) => void>();
  #nextId = 0;
  #failure: WriterFailure | undefined;
  #seamError: unknown;
  /** Operations settle in submission order: every id up to this one has settled. */
  #settledThrough = 0;
  /** Barriers waiting for the operations up to their id. */
  readonly #barriers: Array<{ readonly through: number; readonly resolve: () => void }> = [];
  #closed: Promise<void> | undefined;
  #onClosed: (() => void) | undefined;
  readonly #timings: WriterTimings;

  private constructor(
    worker: Worker,
    counters: Int32Array,
    options: SqliteWriterThreadOptions,
    timings: WriterTimings,
  ) {
    this.#worker = worker;
    this.#counters = counters;
    this.#options = options;
    this.#timings = timings;
  }

  /** Starts the thread and waits until its connection is open. Throws the thread's start-up error. */
  static async start(options: SqliteWriterThreadOptions): Promise<SqliteWriterThread> {
    const counters = new Int32Array(new SharedArrayBuffer(WRITER_COUNTER_WORDS * Int32Array.BYTES_PER_ELEMENT));
    const timings: WriterTimings = {
      round: SharedLatencyHistogram.create(),
      gateWait: SharedLatencyHistogram.create(),
      walSync: SharedLatencyHistogram.create(),
    };
    const workerData: WriterThreadData = {
      path: options.path,
      sync: options.sync,
      gateTimeoutMs: options.gateTimeoutMs ?? GATE_TIMEOUT_MS,
      seam: options.beforeWalSync !== undefined,
      counters: counters.buffer as SharedArrayBuffer,
      timings: { round: timings.round.handle, gateWait: timings.gateWait.handle, walSync: timings.walSync.handle },
    };
    const worker = startWorkerModule(new URL("./writer/sqlite-writer-worker.js", import.meta.url), {
      workerData,
    });
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => {
        worker.off("message", onReady);
        reject(error);
      };
      const onReady = (message: WriterReply): void => {
        if (message.kind !== "ready") return;
        worker.off("error", onError);
        worker.off("message", onReady);
        resolve();
      };
      worker.on("error", onError);
      worker.on("message", onReady);
    });
    const thread = new SqliteWriterThread(worker, counters, options, timings);
    worker.on("message", (message: WriterReply) => thread.#onMessage(message));
    worker.on("error", (error: Error) => thread.#lose(`the SQLite writer thread failed: ${error.message}`));
    worker.on("exit", (code) => thread.#lose(`the SQLite writer thread exited (code ${String(code)})`));
    worker.unref();
    return thread;
  }

  /** The failure that poisoned the thread (a failed datasync, or the thread's death), if any. */
  get failure(): WriterFailure | undefined {
    return this.#failure;
  }

  /** The error the test seam threw for the failed sync, if that is what failed it. */
  get seamError(): unknown {
    return this.#seamError;
  }

  get groupCommits(): number {
    return Atomics.load(this.#counters, WriterCounter.groupCommits);
  }

  get txns(): number {
    return Atomics.load(this.#counters, WriterCounter.txns);
  }

  get walSyncs(): number {
    return Atomics.load(this.#counters, WriterCounter.walSyncs);
  }

  /** Rounds the thread started: bumped at the start of each, before anything of it can commit. */
  get rounds(): number {
    return Atomics.load(this.#counters, WriterCounter.rounds);
  }

  /** How long the thread's steps took so far: see {@link SqliteWriterTimings}. */
  timings(): SqliteWriterTimings {
    return {
      round: this.#timings.round.snapshot(),
      gateWait: this.#timings.gateWait.snapshot(),
      walSync: this.#timings.walSync.snapshot(),
    };
  }

  /** Sends one operation (`now`: the store's clock, for lease expiry) and resolves with its round's settlement. */
  submit(operation: WriterOperation, now: number): Promise<RoundSettlement> {
    const failure = this.#failure;
    if (this.#closed !== undefined || failure?.kind === "lost") {
      const message = failure?.kind === "lost" ? failure.message : "the SQLite writer thread is closed";
      return Promise.resolve({ outcome: undefined, bodyDone: false, refused: { kind: "error", message } });
    }
    const id = ++this.#nextId;
    return new Promise<RoundSettlement>((resolve) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, resolve);
      this.#send({ kind: "operations", operations: [{ ...operation, id, now }] });
    });
  }

  /** Resolves once every operation submitted before this call has settled (later ones are not waited for). */
  barrier(): Promise<void> {
    const through = this.#nextId;
    if (this.#settledThrough >= through) return Promise.resolve();
    return new Promise<void>((resolve) => this.#barriers.push({ through, resolve }));
  }

  /** Waits for the operations in flight, then stops the thread (closing its connection). Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      await this.barrier();
      if (this.#failure?.kind === "lost") return;
      const stopped = new Promise<void>((resolve) => (this.#onClosed = resolve));
      // Keeps the event loop alive until the thread answered (an idle thread is unref'd).
      this.#worker.ref();
      this.#send({ kind: "close" });
      await stopped;
      await this.#worker.terminate();
    })();
    return this.#closed;
  }

  #send(request: WriterRequest): void {
    this.#worker.postMessage(request);
  }

  #onMessage(message: WriterReply): void {
    if (message.kind === "seam") {
      void this.#answerSeam();
      return;
    }
    if (message.kind === "closed") {
      this.#onClosed?.();
      return;
    }
    if (message.kind !== "round") return;
    const round = message.round;
    if (round.syncError !== undefined) this.#failure ??= round.syncError;
    if (round.events !== undefined && round.events.length > 0) this.#options.onEvents(round.events);
    round.ids.forEach((id, index) => {
      this.#settle(id, {
        outcome: round.outcomes?.[index],
        bodyDone: round.bodyDone ?? false,
        ...(round.commitError === undefined ? {} : { commitError: round.commitError }),
        ...(round.syncError === undefined ? {} : { syncError: round.syncError }),
        ...(round.refused === undefined ? {} : { refused: round.refused }),
      });
    });
  }

  async #answerSeam(): Promise<void> {
    let verdict: number = SeamVerdict.goOn;
    try {
      await this.#options.beforeWalSync?.();
    } catch (error) {
      this.#seamError = error;
      verdict = SeamVerdict.failSync;
    }
    Atomics.store(this.#counters, WriterCounter.seam, verdict);
    Atomics.notify(this.#counters, WriterCounter.seam);
  }

  #settle(id: number, settlement: RoundSettlement): void {
    const resolve = this.#pending.get(id);
    if (resolve === undefined) return;
    this.#pending.delete(id);
    resolve(settlement);
    // Rounds answer in order, so settling `id` settles everything before it.
    if (id > this.#settledThrough) this.#settledThrough = id;
    while (this.#barriers.length > 0 && (this.#barriers[0]?.through ?? Infinity) <= this.#settledThrough)
      this.#barriers.shift()?.resolve();
    if (this.#pending.size === 0) this.#worker.unref();
  }

  #lose(message: string): void {
    if (this.#onClosed !== undefined && this.#pending.size === 0) return;
    const lost: WriterFailure = { kind: "lost", message };
    this.#failure ??= lost;
    for (const id of [...this.#pending.keys()]) this.#settle(id, { outcome: undefined, bodyDone: false, lost });
    this.#onClosed?.();
  }
}
