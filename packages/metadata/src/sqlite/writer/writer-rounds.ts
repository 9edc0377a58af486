// The rounds of the SQLite writer thread (see sqlite-writer-worker.ts for how operations are queued into rounds).
// One round runs its operations in order in ONE `BEGIN IMMEDIATE` transaction — each operation, and each txn of a
// txns operation, in its own savepoint — commits, datasyncs the `-wal` file (durability "fsync") and comes to one
// answer: per operation its outcome, plus the watch events of what committed. A failed datasync poisons the
// writer: every later round is refused without being applied. A round with gated txns runs its body first (inside
// the open transaction, invisible to readers), then waits until every gate opened or failed (up to the gate
// timeout), and only then commits: the apply work overlaps the write the gate stands for. If a gate failed (or
// timed out), the whole round rolls back and runs again with that txn refused (kind "gate") — a later txn of the
// round may have compared on what the refused one wrote — and the others go on. Owns the connection.
import fs from "node:fs";
import { SharedLatencyHistogram, type WatchEvent } from "@nereus/core";
import type Database from "better-sqlite3";
import { applyTxn, dropLease, expireLeases, readMeta } from "./apply-writer-changes.js";
import {
  SeamVerdict,
  WriterCounter,
  type RoundReply,
  type SubmittedOperation,
  type WriterFailure,
  type WriterOutcome,
  type WriterThreadData,
  type WriterTxn,
} from "./sqlite-writer-protocol.js";
import { prepareWriterStatements, type WriterStatements } from "./sqlite-writer-statements.js";
import { waitForGate } from "./writer-gates.js";
import { WriterRefusal, describeWriterFailure } from "./writer-refusal.js";

/** Thrown inside a round's transaction when a gate failed after the body ran: rolls the round back. */
const GATE_FAILED = Symbol("gate failed");

/** See the module comment. Invariants: rounds apply in the order they are run; nothing applies after a failed datasync. */
export class WriterRounds {
  readonly #db: Database.Database;
  readonly #statements: WriterStatements;
  readonly #data: WriterThreadData;
  readonly #counters: Int32Array;
  readonly #timings: {
    readonly round: SharedLatencyHistogram;
    readonly gateWait: SharedLatencyHistogram;
    readonly walSync: SharedLatencyHistogram;
  };
  readonly #walFd: number | undefined;
  /** Asks the main thread for the test seam's verdict (it answers in counter `seam`). */
  readonly #askSeam: () => void;
  /** The datasync failure that poisoned the writer. */
  #failed: WriterFailure | undefined;
  /** Watch events of the current round's changes so far. */
  #events: WatchEvent[] = [];
  /** Txns of the current round refused because their gate failed (set before the round runs again). */
  #refusals: Map<WriterTxn, WriterFailure> | undefined;
  /** Time the current round spent waiting for gates. */
  #gateWaitNanos = 0n;
  /** One savepoint per call: a throw rolls back only what the call did. */
  readonly #inSavepoint: Database.Transaction<(run: () => unknown) => unknown>;
  /**
   * The whole round in one SQLite transaction (savepoints inside); leases expire first, as of the newest clock
   * reading. With `waitForGates`, the gates are waited for after the body and before COMMIT; a failed one sets the
   * refusals and throws GATE_FAILED (nothing of the round commits).
   */
  readonly #runRound: Database.Transaction<
    (operations: readonly SubmittedOperation[], outcomes: WriterOutcome[], waitForGates: boolean) => void
  >;

  /** Takes over `db` (open, with the store's schema) as the store's only writing connection. */
  constructor(db: Database.Database, data: WriterThreadData, askSeam: () => void) {
    this.#db = db;
    this.#data = data;
    this.#askSeam = askSeam;
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    this.#statements = prepareWriterStatements(db);
    this.#counters = new Int32Array(data.counters);
    this.#timings = {
      round: SharedLatencyHistogram.attach(data.timings.round),
      gateWait: SharedLatencyHistogram.attach(data.timings.gateWait),
      walSync: SharedLatencyHistogram.attach(data.timings.walSync),
    };
    this.#walFd = data.sync ? fs.openSync(`${data.path}-wal`, "r") : undefined;
    this.#inSavepoint = db.transaction((run: () => unknown) => run());
    this.#runRound = db.transaction(
      (operations: readonly SubmittedOperation[], outcomes: WriterOutcome[], waitForGates: boolean) => {
        // Before anything of the round can commit: a read cache filled under the previous count is dropped by every
        // read that could see this round (sqlite-read-cache.ts).
        Atomics.add(this.#counters, WriterCounter.rounds, 1);
        let now = 0;
        for (const operation of operations) if (operation.now > now) now = operation.now;
        expireLeases(this.#statements, this.#events, now);
        for (const operation of operations) outcomes.push(this.#runOperation(operation));
        if (!waitForGates) return;
        const failedGates = this.#gateRefusals(operations);
        if (failedGates === undefined) return;
        this.#refusals = failedGates;
        throw GATE_FAILED;
      },
    );
  }

  /** Runs one round of `operations` (in order) and returns its answer. */
  run(operations: readonly SubmittedOperation[]): RoundReply {
    if (this.#failed !== undefined) return { refused: this.#failed, ids: operations.map((operation) => operation.id) };
    this.#events = [];
    this.#refusals = undefined;
    let outcomes: WriterOutcome[] = [];
    const txns = operations.reduce(
      (count, operation) => count + (operation.kind === "txns" ? operation.txns.length : 0),
      0,
    );
    let commitError: WriterFailure | undefined;
    const gated = operations.some(
      (operation) => operation.kind === "txns" && operation.txns.some((request) => request.gate !== undefined),
    );
    this.#gateWaitNanos = 0n;
    const started = process.hrtime.bigint();
    try {
      try {
        this.#runRound.immediate(operations, outcomes, true);
      } catch (error) {
        if (error !== GATE_FAILED) throw error;
        // Rolled back: again, with the txns whose gates failed refused (their gates have all settled by now).
        this.#events = [];
        outcomes = [];
        this.#runRound.immediate(operations, outcomes, false);
      }
      if (txns > 0) {
        Atomics.add(this.#counters, WriterCounter.groupCommits, 1);
        Atomics.add(this.#counters, WriterCounter.txns, txns);
      }
    } catch (error) {
      commitError = describeWriterFailure(error);
      this.#events = [];
    }
    const roundNanos = process.hrtime.bigint() - started - this.#gateWaitNanos;
    this.#timings.round.observeNanos(roundNanos < 0n ? 0n : roundNanos);
    if (gated) this.#timings.gateWait.observeNanos(this.#gateWaitNanos);
    // Every outcome is recorded only once the body ran to its end: then a failure came from COMMIT.
    const bodyDone = outcomes.length === operations.length;
    const syncError = commitError === undefined ? this.#syncWal() : undefined;
    return {
      ids: operations.map((operation) => operation.id),
      outcomes,
      events: this.#events,
      commitError,
      bodyDone,
      syncError,
    };
  }

  /** Closes the connection (and the `-wal` file descriptor). */
  close(): void {
    this.#db.close();
    if (this.#walFd !== undefined) fs.closeSync(this.#walFd);
  }

  #runOperation(operation: SubmittedOperation): WriterOutcome {
    const statements = this.#statements;
    switch (operation.kind) {
      case "txns": {
        const outcomes: WriterOutcome[] = [];
        for (const request of operation.txns) {
          const refusal = this.#refusals?.get(request);
          outcomes.push(
            refusal !== undefined
              ? { error: refusal }
              : this.#guarded(() => applyTxn(statements, this.#events, request)),
          );
        }
        return { value: outcomes };
      }
      case "grant":
        return this.#guarded(() => {
          const id = readMeta(statements, "next_lease_id") as number;
          statements.updateMeta.run(id + 1, "next_lease_id");
          statements.insertLease.run(String(id), operation.ttlMs, operation.now + operation.ttlMs);
          return String(id);
        });
      case "keepAlive":
        return this.#guarded(() => {
          const lease = statements.selectLease.get(operation.leaseId);
          if (lease === undefined || lease.expires_at <= operation.now)
            throw new WriterRefusal({ kind: "lease-not-found", leaseId: operation.leaseId });
          statements.renewLease.run(operation.now + lease.ttl_ms, operation.leaseId);
        });
      case "revoke":
        return this.#guarded(() => dropLease(statements, this.#events, operation.leaseId));
      case "expire":
        return this.#guarded(() => expireLeases(statements, this.#events, operation.now));
      default:
        return {
          error: {
            kind: "error",
            message: `unknown operation ${String((operation as { readonly kind: unknown }).kind)}`,
          },
        };
    }
  }

  /** Runs `run` in a savepoint: its value, or what it threw (its changes and events dropped). */
  #guarded(run: () => unknown): WriterOutcome {
    const eventsBefore = this.#events.length;
    try {
      return { value: this.#inSavepoint(run) };
    } catch (error) {
      this.#events.length = eventsBefore;
      return { error: describeWriterFailure(error) };
    }
  }

  /** Waits for the gates of a round's txns; returns the refusal of each gated txn that may not be applied. */
  #gateRefusals(operations: readonly SubmittedOperation[]): Map<WriterTxn, WriterFailure> | undefined {
    let refusals: Map<WriterTxn, WriterFailure> | undefined;
    const waitStarted = process.hrtime.bigint();
    const deadline = Date.now() + this.#data.gateTimeoutMs;
    for (const operation of operations) {
      if (operation.kind !== "txns") continue;
      for (const request of operation.txns) {
        if (request.gate === undefined) continue;
        const reason = waitForGate(request.gate, deadline, this.#data.gateTimeoutMs);
        if (reason === undefined) continue;
        refusals ??= new Map();
        refusals.set(request, { kind: "gate", message: reason });
      }
    }
    this.#gateWaitNanos += process.hrtime.bigint() - waitStarted;
    return refusals;
  }

  /** Datasyncs the `-wal` file (asking the test seam first, when on); a failure poisons the writer and is returned. */
  #syncWal(): WriterFailure | undefined {
    if (this.#walFd === undefined) return undefined;
    try {
      if (this.#data.seam && !this.#seamSaysGoOn())
        throw Object.assign(new Error("the WAL sync test seam failed the sync"), { code: "ESEAM" });
      const started = process.hrtime.bigint();
      fs.fdatasyncSync(this.#walFd);
      this.#timings.walSync.observeNanos(process.hrtime.bigint() - started);
      Atomics.add(this.#counters, WriterCounter.walSyncs, 1);
      return undefined;
    } catch (error) {
      this.#failed = describeWriterFailure(error);
      return this.#failed;
    }
  }

  #seamSaysGoOn(): boolean {
    Atomics.store(this.#counters, WriterCounter.seam, SeamVerdict.pending);
    this.#askSeam();
    Atomics.wait(this.#counters, WriterCounter.seam, SeamVerdict.pending);
    return Atomics.load(this.#counters, WriterCounter.seam) === SeamVerdict.goOn;
  }
}
