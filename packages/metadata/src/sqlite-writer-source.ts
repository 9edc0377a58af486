// The source of the SQLite store's writer thread (plain JavaScript run with `eval`, so it works the same from
// sources and from dist; better-sqlite3 is loaded from the path the main thread resolved). The thread owns the
// store's only writing connection. Each round it takes the operations queued on its port (those sent while it was
// busy syncing included; see the gates below), runs them in order in ONE `BEGIN IMMEDIATE` transaction — each
// operation, and each txn of a txns operation, in its own savepoint — commits, datasyncs the `-wal` file
// (durability "fsync") and answers the round in one message: per operation its outcome, plus the watch events of
// what committed. A failed datasync poisons the thread: every later operation is refused without being applied.
// Counters shared with the main thread (an Int32Array over a SharedArrayBuffer): [0] group commits that carried
// txns, [1] txns, [2] datasyncs. With the test seam on, the thread asks the main thread before each datasync
// (message `seam`) and waits on word [3] of the same array: 1 = go on, 2 = fail the sync. A txn may carry a shared
// durability gate (TxnRequest.after): a round takes the queued operations up to the first one (after its first)
// whose gates have not settled yet — that one starts the next round, so a write still in flight never delays the
// commit of txns queued ahead of it. The round runs its body first (inside the open transaction, invisible to
// readers), then waits (Atomics.wait, up to the store's gate timeout, GATE_TIMEOUT_MS by default) until every
// gate of the round opened or failed, and only then commits: the apply work overlaps the write the gate stands for.
// If a gate failed (or timed out), the whole round rolls back and runs again with that txn refused (outcome kind
// "gate") — a later txn of the round may have compared on what the refused one wrote — and the others go on.

import { OBSERVE_LATENCY_SOURCE } from "@nereus/core";

/** Indexes of the shared counters. */
export const WriterCounter = { groupCommits: 0, txns: 1, walSyncs: 2, seam: 3, rounds: 4 } as const;

/** Words in the shared counters array. */
export const WRITER_COUNTER_WORDS = 5;

/** How long a round waits for the durability gates of its txns before refusing the txns still gated (default). */
export const GATE_TIMEOUT_MS = 30_000;

export const WRITER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData, receiveMessageOnPort } = require("node:worker_threads");
const fs = require("node:fs");
const Database = require(workerData.modulePath);
const counters = new Int32Array(workerData.counters);
const timings = workerData.timings;
const gateTimeoutMs = workerData.gateTimeoutMs;
${OBSERVE_LATENCY_SOURCE}
const db = new Database(workerData.path);
db.pragma("busy_timeout = 5000");
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
const columns = "key, value, mod_revision, create_revision";
const statements = {
  selectMeta: db.prepare("SELECT value FROM meta WHERE name = ?"),
  updateMeta: db.prepare("UPDATE meta SET value = ? WHERE name = ?"),
  selectKey: db.prepare("SELECT " + columns + " FROM kv WHERE key = ?"),
  selectRevision: db.prepare("SELECT mod_revision FROM kv WHERE key = ?"),
  selectValue: db.prepare("SELECT value FROM kv WHERE key = ?"),
  upsert: db.prepare(
    "INSERT INTO kv (key, value, mod_revision, create_revision, lease_id) VALUES (?, ?, ?, ?, ?) " +
      "ON CONFLICT (key) DO UPDATE SET value = excluded.value, mod_revision = excluded.mod_revision, lease_id = excluded.lease_id",
  ),
  deleteKey: db.prepare("DELETE FROM kv WHERE key = ?"),
  insertLease: db.prepare("INSERT INTO leases (id, ttl_ms, expires_at) VALUES (?, ?, ?)"),
  selectLease: db.prepare("SELECT ttl_ms, expires_at FROM leases WHERE id = ?"),
  renewLease: db.prepare("UPDATE leases SET expires_at = ? WHERE id = ?"),
  deleteLease: db.prepare("DELETE FROM leases WHERE id = ?"),
  selectExpiredIds: db.prepare("SELECT id FROM leases WHERE expires_at <= ? ORDER BY expires_at, id"),
  selectLeaseKeys: db.prepare("SELECT key FROM kv WHERE lease_id = ?"),
  deleteLeaseKeys: db.prepare("DELETE FROM kv WHERE lease_id = ?"),
};
const walFd = workerData.sync ? fs.openSync(workerData.path + "-wal", "r") : undefined;
let failed;
let events = [];

class Refusal extends Error {
  constructor(kind, detail) {
    super(kind);
    this.refusal = { kind, ...detail };
  }
}

function describe(error) {
  if (error instanceof Refusal) return error.refusal;
  return {
    kind: "error",
    message: error instanceof Error ? error.message : String(error),
    code: typeof (error && error.code) === "string" ? error.code : undefined,
    name: error instanceof Error ? error.name : undefined,
  };
}

function revision() {
  const value = statements.selectMeta.get("revision").value;
  if (!Number.isSafeInteger(value) || value < 0) throw new Refusal("invariant", { message: "stored revision " + value + " is invalid" });
  return value;
}

function dropLease(id) {
  if (statements.deleteLease.run(id).changes === 0) return;
  const keys = statements.selectLeaseKeys.all(id);
  if (keys.length === 0) return;
  const next = revision() + 1;
  statements.deleteLeaseKeys.run(id);
  statements.updateMeta.run(next, "revision");
  for (const row of keys) events.push({ type: "delete", key: row.key, modRevision: next });
}

function expireLeases(now) {
  for (const row of statements.selectExpiredIds.all(now)) dropLease(row.id);
}

function applyTxn(request) {
  for (const compare of request.compares) {
    let holds;
    if (compare.value !== undefined) {
      const row = statements.selectValue.get(compare.key);
      holds = row !== undefined && Buffer.compare(row.value, Buffer.from(compare.value.buffer, compare.value.byteOffset, compare.value.byteLength)) === 0;
    } else {
      const row = statements.selectRevision.get(compare.key);
      holds = (row === undefined ? 0 : row.mod_revision) === compare.modRevision;
    }
    if (!holds) {
      const current = [];
      for (const key of request.readOnFailure || []) {
        const found = statements.selectKey.get(key);
        if (found !== undefined) current.push(found);
      }
      return { succeeded: false, current };
    }
  }
  for (const write of request.writes) {
    if (write.type === "put" && write.leaseId !== undefined && statements.selectLease.get(write.leaseId) === undefined) {
      throw new Refusal("lease-not-found", { leaseId: write.leaseId });
    }
  }
  const current = revision();
  const next = current + 1;
  let changed = false;
  for (const write of request.writes) {
    if (write.type === "put") {
      const value = Buffer.from(write.value.buffer, write.value.byteOffset, write.value.byteLength);
      statements.upsert.run(write.key, value, next, next, write.leaseId === undefined ? null : write.leaseId);
      events.push({ type: "put", key: write.key, modRevision: next });
      changed = true;
    } else if (statements.deleteKey.run(write.key).changes > 0) {
      events.push({ type: "delete", key: write.key, modRevision: next });
      changed = true;
    }
  }
  if (!changed) return { succeeded: true, revision: current };
  statements.updateMeta.run(next, "revision");
  return { succeeded: true, revision: next };
}

// One savepoint per call: a throw rolls back only what the call did (and drops its events).
const inSavepoint = db.transaction((run) => run());

function guarded(run) {
  const eventsBefore = events.length;
  try {
    return { value: inSavepoint(run) };
  } catch (error) {
    events.length = eventsBefore;
    return { error: describe(error) };
  }
}

// Why the gate of a txn did not open (undefined: it opened). Gate words: [0] durable sequence, [1] failed, [2] changes.
function waitGate(gate, deadline) {
  const view = new BigInt64Array(gate.words);
  const target = BigInt(gate.sequence);
  for (;;) {
    const changes = Atomics.load(view, 2);
    if (Atomics.load(view, 0) >= target) return undefined;
    if (Atomics.load(view, 1) !== 0n) return "the write failed";
    const left = deadline - Date.now();
    if (left <= 0) return "the write was not durable within " + gateTimeoutMs + " ms";
    Atomics.wait(view, 2, changes, left);
  }
}

// Whether every gate of operation has settled (opened or failed) right now; never waits.
function gatesSettled(operation) {
  if (operation.kind !== "txns") return true;
  for (const request of operation.txns) {
    if (request.gate === undefined) continue;
    const view = new BigInt64Array(request.gate.words);
    if (Atomics.load(view, 0) < BigInt(request.gate.sequence) && Atomics.load(view, 1) === 0n) return false;
  }
  return true;
}

// How many operations at the head of queue the next round takes: the first one (its gates are waited for in
// the round) and those after it whose gates have settled already, up to the first that would have to wait. A txn
// whose write is still in flight then never holds back the commit of the txns ahead of it.
function readyCount(queue) {
  let count = 1;
  while (count < queue.length && gatesSettled(queue[count])) count += 1;
  return count;
}

// Waits for the gates of a round's txns; returns the refusal of each gated txn that may not be applied.
function gateRefusals(operations) {
  let refusals;
  const waitStarted = process.hrtime.bigint();
  const deadline = Date.now() + gateTimeoutMs;
  for (const operation of operations) {
    if (operation.kind !== "txns") continue;
    for (const request of operation.txns) {
      if (request.gate === undefined) continue;
      const reason = waitGate(request.gate, deadline);
      if (reason === undefined) continue;
      refusals ??= new Map();
      refusals.set(request, { kind: "gate", message: reason });
    }
  }
  gateWaitNanos += process.hrtime.bigint() - waitStarted;
  return refusals;
}

let refusals;
// Time the current round spent in gateRefusals (waiting for the writes its txns stand behind).
let gateWaitNanos = 0n;

function runOperation(operation) {
  switch (operation.kind) {
    case "txns": {
      const outcomes = [];
      for (const request of operation.txns) {
        const refusal = refusals === undefined ? undefined : refusals.get(request);
        if (refusal !== undefined) {
          outcomes.push({ error: refusal });
          continue;
        }
        const outcome = guarded(() => applyTxn(request));
        outcomes.push(outcome);
      }
      return { value: outcomes };
    }
    case "grant":
      return guarded(() => {
        const id = statements.selectMeta.get("next_lease_id").value;
        statements.updateMeta.run(id + 1, "next_lease_id");
        statements.insertLease.run(String(id), operation.ttlMs, operation.now + operation.ttlMs);
        return String(id);
      });
    case "keepAlive":
      return guarded(() => {
        const lease = statements.selectLease.get(operation.leaseId);
        if (lease === undefined || lease.expires_at <= operation.now) throw new Refusal("lease-not-found", { leaseId: operation.leaseId });
        statements.renewLease.run(operation.now + lease.ttl_ms, operation.leaseId);
      });
    case "revoke":
      return guarded(() => dropLease(operation.leaseId));
    case "expire":
      return guarded(() => expireLeases(operation.now));
    default:
      return { error: { kind: "error", message: "unknown operation " + String(operation.kind) } };
  }
}

// Thrown inside a round's transaction when a gate failed after the body ran: rolls the round back.
const GATE_FAILED = Symbol("gate failed");

// The whole round in one SQLite transaction (savepoints inside); leases expire first, as of the newest clock reading.
// With waitForGates, the gates are waited for after the body and before COMMIT; a failed one sets refusals and
// throws GATE_FAILED (nothing of the round commits).
const runRound = db.transaction((operations, outcomes, waitForGates) => {
  // Before anything of the round can commit: a read cache filled under the previous count is dropped by every read
  // that could see this round (sqlite-read-cache.ts).
  Atomics.add(counters, ${WriterCounter.rounds}, 1);
  let now = 0;
  for (const operation of operations) if (operation.now > now) now = operation.now;
  expireLeases(now);
  for (const operation of operations) outcomes.push(runOperation(operation));
  if (!waitForGates) return;
  const failedGates = gateRefusals(operations);
  if (failedGates === undefined) return;
  refusals = failedGates;
  throw GATE_FAILED;
});

function askSeam() {
  Atomics.store(counters, ${WriterCounter.seam}, 0);
  parentPort.postMessage({ seam: true });
  Atomics.wait(counters, ${WriterCounter.seam}, 0);
  return Atomics.load(counters, ${WriterCounter.seam}) === 1;
}

function syncWal() {
  if (walFd === undefined) return undefined;
  try {
    if (workerData.seam && !askSeam()) throw Object.assign(new Error("the WAL sync test seam failed the sync"), { code: "ESEAM" });
    const started = process.hrtime.bigint();
    fs.fdatasyncSync(walFd);
    observeLatency(timings.walSync, process.hrtime.bigint() - started);
    Atomics.add(counters, ${WriterCounter.walSyncs}, 1);
    return undefined;
  } catch (error) {
    failed = describe(error);
    return failed;
  }
}

function round(operations) {
  if (failed !== undefined) {
    parentPort.postMessage({ round: { refused: failed, ids: operations.map((operation) => operation.id) } });
    return;
  }
  events = [];
  refusals = undefined;
  let outcomes = [];
  const txns = operations.reduce((count, operation) => count + (operation.kind === "txns" ? operation.txns.length : 0), 0);
  let commitError;
  const gated = operations.some((operation) => operation.kind === "txns" && operation.txns.some((request) => request.gate !== undefined));
  gateWaitNanos = 0n;
  const started = process.hrtime.bigint();
  try {
    try {
      runRound.immediate(operations, outcomes, true);
    } catch (error) {
      if (error !== GATE_FAILED) throw error;
      // Rolled back: again, with the txns whose gates failed refused (their gates have all settled by now).
      events = [];
      outcomes = [];
      runRound.immediate(operations, outcomes, false);
    }
    if (txns > 0) {
      Atomics.add(counters, ${WriterCounter.groupCommits}, 1);
      Atomics.add(counters, ${WriterCounter.txns}, txns);
    }
  } catch (error) {
    commitError = describe(error);
    events = [];
  }
  const roundNanos = process.hrtime.bigint() - started - gateWaitNanos;
  observeLatency(timings.round, roundNanos < 0n ? 0n : roundNanos);
  if (gated) observeLatency(timings.gateWait, gateWaitNanos);
  // Every outcome is recorded only once the body ran to its end: then a failure came from COMMIT.
  const bodyDone = outcomes.length === operations.length;
  const syncError = commitError === undefined ? syncWal() : undefined;
  parentPort.postMessage({
    round: { ids: operations.map((operation) => operation.id), outcomes, events, commitError, bodyDone, syncError },
  });
}

function close() {
  try {
    db.close();
    if (walFd !== undefined) fs.closeSync(walFd);
  } finally {
    parentPort.postMessage({ closed: true });
  }
}

// Operations received and not run yet, in submission order; rounds take them from the front.
const queue = [];
let closing = false;

// Moves every message waiting on the port into queue (nothing after a close); first: one the port delivered already.
function receiveWaiting(first) {
  if (closing) return;
  const waiting = first === undefined ? receiveMessageOnPort(parentPort) : undefined;
  for (let message = waiting === undefined ? first : waiting.message; message !== undefined; ) {
    if (message.close) closing = true;
    else for (const operation of message.operations) queue.push(operation);
    if (closing) break;
    const next = receiveMessageOnPort(parentPort);
    message = next === undefined ? undefined : next.message;
  }
}

parentPort.on("message", (first) => {
  // Everything queued behind the first message joins the next round (group commit), up to the first operation
  // whose gate has not opened yet: that one starts the round after.
  receiveWaiting(first);
  while (queue.length > 0) {
    round(queue.splice(0, readyCount(queue)));
    receiveWaiting(undefined);
  }
  if (closing) close();
});
parentPort.postMessage({ ready: true });
`;
