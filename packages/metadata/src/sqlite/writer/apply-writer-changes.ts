// The changes a writer-thread round makes inside its transaction: a txn (compares, then writes at one new
// revision), and lease expiry and revocation (which delete the lease's keys at one new revision). Each change
// appends the watch events of what it wrote to `events`; the caller runs it in a savepoint and drops those events
// when it throws. Synchronous: it runs on the writer thread, inside an open SQLite transaction.
import { isValueCompare, type WatchEvent } from "@nereus/core";
import type { WriterTxn } from "./sqlite-writer-protocol.js";
import type { KvRow, WriterStatements } from "./sqlite-writer-statements.js";
import { WriterRefusal } from "./writer-refusal.js";

/** A txn's result as the thread sends it: the new (or unchanged) revision, or the keys read back on failure. */
export type AppliedTxn =
  | { readonly succeeded: true; readonly revision: number }
  | { readonly succeeded: false; readonly current: readonly KvRow[] };

/** A meta counter's value (`revision`, `next_lease_id`); throws when its row is missing. */
export function readMeta(statements: WriterStatements, name: string): unknown {
  const row = statements.selectMeta.get(name);
  if (row === undefined) throw new Error(`meta row ${name} is missing`);
  return row.value;
}

/** The store's current revision; a value that is not a non-negative safe integer refuses with kind "invariant". */
function currentRevision(statements: WriterStatements): number {
  const value = readMeta(statements, "revision");
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new WriterRefusal({ kind: "invariant", message: `stored revision ${String(value)} is invalid` });
  }
  return value;
}

/** Deletes lease `id` and its keys (one new revision, when it had keys); nothing when it does not exist. */
export function dropLease(statements: WriterStatements, events: WatchEvent[], id: string): void {
  if (statements.deleteLease.run(id).changes === 0) return;
  const keys = statements.selectLeaseKeys.all(id);
  if (keys.length === 0) return;
  const next = currentRevision(statements) + 1;
  statements.deleteLeaseKeys.run(id);
  statements.updateMeta.run(next, "revision");
  for (const row of keys) events.push({ type: "delete", key: row.key, modRevision: next });
}

/** Drops every lease that expired at `now` (oldest first). */
export function expireLeases(statements: WriterStatements, events: WatchEvent[], now: number): void {
  for (const row of statements.selectExpiredIds.all(now)) dropLease(statements, events, row.id);
}

/**
 * Applies `request`: when every compare holds, its writes at one new revision (none when nothing changed); else
 * the current rows of its `readOnFailure` keys. A put under a missing lease refuses with kind "lease-not-found".
 */
export function applyTxn(statements: WriterStatements, events: WatchEvent[], request: WriterTxn): AppliedTxn {
  for (const compare of request.compares) {
    let holds: boolean;
    if (isValueCompare(compare)) {
      const row = statements.selectValue.get(compare.key);
      holds =
        row !== undefined &&
        Buffer.compare(
          row.value,
          Buffer.from(compare.value.buffer, compare.value.byteOffset, compare.value.byteLength),
        ) === 0;
    } else {
      const row = statements.selectRevision.get(compare.key);
      holds = (row === undefined ? 0 : row.mod_revision) === compare.modRevision;
    }
    if (!holds) {
      const current: KvRow[] = [];
      for (const key of request.readOnFailure ?? []) {
        const found = statements.selectKey.get(key);
        if (found !== undefined) current.push(found);
      }
      return { succeeded: false, current };
    }
  }
  for (const write of request.writes) {
    if (
      write.type === "put" &&
      write.leaseId !== undefined &&
      statements.selectLease.get(write.leaseId) === undefined
    ) {
      throw new WriterRefusal({ kind: "lease-not-found", leaseId: write.leaseId });
    }
  }
  const current = currentRevision(statements);
  const next = current + 1;
  let changed = false;
  for (const write of request.writes) {
    if (write.type === "put") {
      const value = Buffer.from(write.value.buffer, write.value.byteOffset, write.value.byteLength);
      statements.upsert.run(write.key, value, next, next, write.leaseId ?? null);
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
