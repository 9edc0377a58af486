// Moves one ledger journal entry (and the ledger's root with it, in the same transaction) as far as the proof allows:
//   RELEASED → MARKED    the root is SEALED (no writer can add to the ledger and no range of it can be protected any
//                        more), no range protection of the ledger is left and the ledger is old enough. A root still
//                        ACTIVE or SEALING waits (its writer seals it on rollover or takeover); a protected sealed
//                        ledger is still needed by a retained range — the entry is forgotten and the release of that
//                        range journals it again; any other root (gone, another journal's, QUARANTINED) is left alone.
//   MARKED   → DELETING  the grace period passed, still no protection (one found vetoes: root back to SEALED, entry
//                        forgotten), and no read of this process pins the ledger (it is condemned from then on).
//   DELETING → DELETED   BookKeeper's metadata of the ledger is deleted (the bookies garbage-collect its entries) and
//                        a read confirms it absent; a lost response is simply deleted again by the next step.
//   DELETED  → (gone)    after the tombstone period, root and entry are deleted together.
// Every transaction compares the root's and the entry's revisions: a replayed or concurrent step applies at most
// once, and a lost response is resolved by the next run reading both again.
import { ErrorCode, NereusError, type RevisionCompare, type WriteOp } from "@nereus/core";
import type { StoredRecord } from "@nereus/core/internal";
import { ledgerRangesPrefix } from "../wal/records/bookkeeper-wal-keys.js";
import type { BookKeeperLedgerRoot, LedgerRootLifecycle } from "../wal/records/bookkeeper-wal-records.js";
import { ledgerRootCodec } from "../wal/records/ledger-root-codec.js";
import type { Versioned } from "../wal/records/versioned-records.js";
import { forgetLedgerEntry, replaceLedgerEntry } from "./ledger-journal.js";
import type { LedgerReclamationContext } from "./ledger-reclamation-context.js";
import type { LedgerReclamation } from "./ledger-reclamation-records.js";
import { moveLedgerRoot } from "./ledger-root-lifecycle.js";
import { ledgerPinId, ledgerRootKeyOf } from "./ledger-identity.js";

/** Where an entry stands after a step: moved (the new stored entry), forgotten, or waiting for time or a pin. */
export type LedgerStepResult =
  | { readonly kind: "moved"; readonly stored: StoredRecord<LedgerReclamation> }
  | { readonly kind: "forgotten"; readonly recordsDeleted: number }
  | { readonly kind: "waiting" };

type VersionedRoot = Versioned<BookKeeperLedgerRoot>;

/** One step of `stored` (see the module comment). Throws on a store failure; the entry stays where it was. */
export async function stepLedgerEntry(
  context: LedgerReclamationContext,
  stored: StoredRecord<LedgerReclamation>,
  signal?: AbortSignal,
): Promise<LedgerStepResult> {
  switch (stored.record.state) {
    case "RELEASED":
      return markStep(context, stored, signal);
    case "MARKED":
      return deletingStep(context, stored, signal);
    case "DELETING":
      return deleteStep(context, stored, signal);
    case "DELETED":
      return forgetStep(context, stored, signal);
  }
}

async function markStep(
  context: LedgerReclamationContext,
  stored: StoredRecord<LedgerReclamation>,
  signal: AbortSignal | undefined,
): Promise<LedgerStepResult> {
  const entry = stored.record;
  const root = await context.roots.load(ledgerRootKeyOf(context, entry), signal);
  if (root?.value.lifecycle === "ACTIVE" || root?.value.lifecycle === "SEALING") return { kind: "waiting" };
  if (root?.value.lifecycle !== "SEALED" || (await isProtected(context, entry, signal))) {
    return forget(context, stored, undefined, signal);
  }
  const now = context.clock();
  const { minLedgerAgeMs, clockSkewMs, graceMs } = context.policy;
  if (now < root.value.createdAtMillis + minLedgerAgeMs + clockSkewMs) return { kind: "waiting" };
  const next: LedgerReclamation = {
    ...entry,
    state: "MARKED",
    markedAtMillis: Math.max(1, now),
    deleteNotBeforeMillis: Math.max(1, now) + graceMs + clockSkewMs,
    ledgerLength: root.value.sealedLength,
  };
  return move(context, stored, next, root, "MARKED", signal);
}

async function deletingStep(
  context: LedgerReclamationContext,
  stored: StoredRecord<LedgerReclamation>,
  signal: AbortSignal | undefined,
): Promise<LedgerStepResult> {
  const entry = stored.record;
  if (context.clock() < entry.deleteNotBeforeMillis) return { kind: "waiting" };
  const root = await rootIn(context, entry, "MARKED", signal);
  if (await isProtected(context, entry, signal)) {
    context.stats.vetoes += 1;
    return forget(context, stored, { root, to: "SEALED" }, signal);
  }
  const id = ledgerPinId(entry);
  if (!context.pins.condemn(id)) return { kind: "waiting" };
  try {
    const moved = await move(context, stored, { ...entry, state: "DELETING" }, root, "DELETING", signal);
    if (moved.kind !== "moved") context.pins.absolve(id);
    return moved;
  } catch (error) {
    context.pins.absolve(id);
    throw error;
  }
}

async function deleteStep(
  context: LedgerReclamationContext,
  stored: StoredRecord<LedgerReclamation>,
  signal: AbortSignal | undefined,
): Promise<LedgerStepResult> {
  const entry = stored.record;
  const id = ledgerPinId(entry);
  if (!context.pins.condemn(id)) return { kind: "waiting" };
  const root = await rootIn(context, entry, "DELETING", signal);
  const call = signal === undefined ? {} : { signal };
  context.stats.deletesSent += 1;
  await context.client.deleteLedger(entry.ledgerId, call);
  if ((await context.client.getLedgerMetadata(entry.ledgerId, call)) !== undefined) {
    throw new NereusError(
      ErrorCode.PRIMARY_WAL_WRITE_FAILED,
      `ledger ${String(entry.ledgerId)} still exists after its delete; it is deleted again by the next run`,
      { retryable: true },
    );
  }
  await context.hooks.afterLedgerDelete?.(entry.ledgerId);
  const next: LedgerReclamation = { ...entry, state: "DELETED", deletedAtMillis: Math.max(1, context.clock()) };
  return move(context, stored, next, root, "DELETED", signal, () => {
    context.pins.absolve(id);
    context.stats.freed(entry.orphan ? "ORPHAN_LEDGER" : "BOOKKEEPER_LEDGER", entry.ledgerLength);
  });
}

async function forgetStep(
  context: LedgerReclamationContext,
  stored: StoredRecord<LedgerReclamation>,
  signal: AbortSignal | undefined,
): Promise<LedgerStepResult> {
  const entry = stored.record;
  if (context.clock() < entry.deletedAtMillis + context.policy.tombstoneRetentionMs) return { kind: "waiting" };
  const rootKey = ledgerRootKeyOf(context, entry);
  const root = await context.roots.load(rootKey, signal);
  if (root !== undefined && root.value.lifecycle !== "DELETED") throw unexpectedRoot(entry, root, "DELETED");
  const forgotten = forgetLedgerEntry(stored);
  const compares: RevisionCompare[] = [forgotten.compare];
  const writes: WriteOp[] = [forgotten.write];
  if (root !== undefined) {
    compares.push({ key: rootKey, modRevision: root.revision });
    writes.push({ type: "delete", key: rootKey });
  }
  const result = await context.metadata.txn({ compares, writes }, signal === undefined ? {} : { signal });
  if (!result.succeeded) return conflict(context);
  context.stats.metadataRecordsDeleted += writes.length;
  await context.hooks.afterStep?.(entry, true);
  return { kind: "forgotten", recordsDeleted: writes.length };
}

/** Replaces the entry with `next` and moves `root` to `to`, in one transaction; `applied` runs once it applied. */
async function move(
  context: LedgerReclamationContext,
  stored: StoredRecord<LedgerReclamation>,
  next: LedgerReclamation,
  root: VersionedRoot,
  to: LedgerRootLifecycle,
  signal: AbortSignal | undefined,
  applied?: () => void,
): Promise<LedgerStepResult> {
  const rootKey = ledgerRootKeyOf(context, next);
  const replaced = replaceLedgerEntry(stored, next);
  const result = await context.metadata.txn(
    {
      compares: [{ key: rootKey, modRevision: root.revision }, replaced.compare],
      writes: [
        { type: "put", key: rootKey, value: ledgerRootCodec.encode(moveLedgerRoot(root.value, to)) },
        replaced.write,
      ],
    },
    signal === undefined ? {} : { signal },
  );
  if (!result.succeeded) return conflict(context);
  applied?.();
  await context.hooks.afterStep?.(next, false);
  return { kind: "moved", stored: { key: stored.key, revision: result.revision, record: next } };
}

/** Deletes the entry, moving `root` back too when given (a veto), in one transaction. */
async function forget(
  context: LedgerReclamationContext,
  stored: StoredRecord<LedgerReclamation>,
  rootMove: { readonly root: VersionedRoot; readonly to: LedgerRootLifecycle } | undefined,
  signal: AbortSignal | undefined,
): Promise<LedgerStepResult> {
  const forgotten = forgetLedgerEntry(stored);
  const compares: RevisionCompare[] = [forgotten.compare];
  const writes: WriteOp[] = [forgotten.write];
  if (rootMove !== undefined) {
    const rootKey = ledgerRootKeyOf(context, stored.record);
    compares.push({ key: rootKey, modRevision: rootMove.root.revision });
    writes.push({
      type: "put",
      key: rootKey,
      value: ledgerRootCodec.encode(moveLedgerRoot(rootMove.root.value, rootMove.to)),
    });
  }
  const result = await context.metadata.txn({ compares, writes }, signal === undefined ? {} : { signal });
  if (!result.succeeded) return conflict(context);
  context.stats.metadataRecordsDeleted += 1;
  await context.hooks.afterStep?.(stored.record, true);
  return { kind: "forgotten", recordsDeleted: 1 };
}

/** True when any range protection (of any type) names the entry's ledger. */
export async function isProtected(
  context: LedgerReclamationContext,
  entry: Pick<LedgerReclamation, "ledgerHash">,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const page = await context.metadata.scan(ledgerRangesPrefix(context.cluster, entry.ledgerHash), {
    limit: 1,
    signal,
  });
  return page.items.length > 0;
}

/** The entry's root, which must be in `lifecycle` (only this journal entry moves it from MARKED on). */
async function rootIn(
  context: LedgerReclamationContext,
  entry: LedgerReclamation,
  lifecycle: LedgerRootLifecycle,
  signal: AbortSignal | undefined,
): Promise<VersionedRoot> {
  const root = await context.roots.load(ledgerRootKeyOf(context, entry), signal);
  if (root?.value.lifecycle !== lifecycle) throw unexpectedRoot(entry, root, lifecycle);
  return root;
}

function unexpectedRoot(
  entry: LedgerReclamation,
  root: VersionedRoot | undefined,
  expected: LedgerRootLifecycle,
): NereusError {
  return new NereusError(
    ErrorCode.METADATA_INVARIANT_VIOLATION,
    `journal entry of ledger ${String(entry.ledgerId)} is ${entry.state} but its root is ${root?.value.lifecycle ?? "missing"} (expected ${expected})`,
    { retryable: false },
  );
}

function conflict(context: LedgerReclamationContext): LedgerStepResult {
  context.stats.conflicts += 1;
  return { kind: "waiting" };
}
