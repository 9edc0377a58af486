// The release step of a stream's ledger collection: carries out the stream's deletion proof (core's `planRelease`,
// restricted to BOOKKEEPER_ENTRY_RANGE targets of this BookKeeper cluster). A trimmed commit loses its intent, marker
// and generation-0 entry; a retired commit (covered by COMMITTED generations) keeps them; both lose the range
// protection of their entry range, and the ledger enters the stream's journal (RELEASED) in the same transaction.
// Retired commits and leftovers compare what made them releasable (the covering generation entries, the leftover's
// revision), and every transaction compares the guard's keys (the materialization record: no task was claimed
// meanwhile), so a proof that went stale applies nothing. Commits go in batches; a batch that loses a compare is
// applied one commit at a time, so one stale commit does not hold back the others.
import type { BookKeeperEntryRangeTarget, CommitIntent, RevisionCompare, WriteOp } from "@nereus/core";
import { trimmedCommitDeletes, type ReleasePlan, type StoredRecord } from "@nereus/core/internal";
import { ledgerHash, rangeProtectionKey } from "../wal/records/bookkeeper-wal-keys.js";
import { BookKeeperWalWireIds } from "../wal/records/bookkeeper-wal-records.js";
import type { LedgerReclamationContext } from "./ledger-reclamation-context.js";
import { createLedgerEntry, releasedLedgerEntry } from "./ledger-journal.js";

/**
 * Commits per release transaction: a trimmed commit writes 4 deletes and may add a journal entry, and a transaction
 * holds at most 128 operations of each kind on etcd (its default), so 20 leave room for the compares of covers.
 */
const ITEMS_PER_TXN = 20;

/** What the release step needs besides the context. */
export interface LedgerReleaseInputs {
  readonly streamId: string;
  readonly plan: ReleasePlan;
  /** Compares every release transaction carries (the materialization guard). */
  readonly guard: readonly RevisionCompare[];
  /** Ledger hashes that already have a journal entry of this stream. */
  readonly journaled: ReadonlySet<string>;
  readonly signal?: AbortSignal;
}

/** What the release step did. */
export interface LedgerReleaseOutcome {
  readonly commitsTrimmed: number;
  readonly commitsRetired: number;
  readonly rangesReleased: number;
  readonly recordsDeleted: number;
  readonly conflicts: number;
}

interface ReleaseItem {
  readonly kind: "trimmed" | "retired" | "leftover";
  readonly compares: readonly RevisionCompare[];
  readonly writes: readonly WriteOp[];
  readonly target: BookKeeperEntryRangeTarget | undefined;
}

/** Applies `inputs.plan`; never deletes anything the plan did not prove releasable. */
export async function releaseLedgerRanges(
  context: LedgerReclamationContext,
  inputs: LedgerReleaseInputs,
): Promise<LedgerReleaseOutcome> {
  const items = buildItems(context, inputs);
  const journaled = new Set(inputs.journaled);
  const applied: ReleaseItem[] = [];
  let conflicts = 0;
  for (let start = 0; start < items.length; start += ITEMS_PER_TXN) {
    const batch = items.slice(start, start + ITEMS_PER_TXN);
    if (await applyBatch(context, inputs, batch, journaled)) {
      applied.push(...batch);
      continue;
    }
    for (const item of batch) {
      if (await applyBatch(context, inputs, [item], journaled)) applied.push(item);
      else conflicts += 1;
    }
  }
  const counted = (kind: ReleaseItem["kind"]): number => applied.filter((item) => item.kind === kind).length;
  return {
    commitsTrimmed: counted("trimmed"),
    commitsRetired: counted("retired"),
    rangesReleased: applied.filter((item) => item.target !== undefined).length,
    recordsDeleted: applied.reduce((sum, item) => sum + item.writes.length, 0),
    conflicts,
  };
}

/** One transaction of `batch` (plus the journal entries of ledgers not journaled yet); true when it applied. */
async function applyBatch(
  context: LedgerReclamationContext,
  inputs: LedgerReleaseInputs,
  batch: readonly ReleaseItem[],
  journaled: Set<string>,
): Promise<boolean> {
  const compares = new Map<string, RevisionCompare>();
  for (const compare of [...inputs.guard, ...batch.flatMap((item) => item.compares)])
    compares.set(compare.key, compare);
  const writes = new Map<string, WriteOp>();
  for (const write of batch.flatMap((item) => item.writes)) writes.set(write.key, write);
  const created = new Set<string>();
  const now = context.clock();
  for (const item of batch) {
    if (item.target === undefined) continue;
    const ledgerId = BigInt(item.target.ledgerId);
    const hash = ledgerHash(context.clusterAlias, ledgerId);
    if (journaled.has(hash) || created.has(hash)) continue;
    const entry = createLedgerEntry(
      context.cluster,
      releasedLedgerEntry(inputs.streamId, context.clusterAlias, ledgerId, hash, now, false),
    );
    compares.set(entry.compare.key, entry.compare);
    writes.set(entry.write.key, entry.write);
    created.add(hash);
  }
  const result = await context.metadata.txn(
    { compares: [...compares.values()], writes: [...writes.values()] },
    inputs.signal === undefined ? {} : { signal: inputs.signal },
  );
  if (!result.succeeded) return false;
  for (const hash of created) journaled.add(hash);
  await context.hooks.afterRelease?.(inputs.streamId);
  return true;
}

function buildItems(context: LedgerReclamationContext, inputs: LedgerReleaseInputs): ReleaseItem[] {
  const { plan } = inputs;
  const items: ReleaseItem[] = [];
  for (const stored of plan.trimmed) {
    const target = rangeOf(stored);
    items.push({
      kind: "trimmed",
      compares: [],
      writes: [...trimmedCommitDeletes(context.keyspace, stored.record), protectionDelete(context, target)],
      target,
    });
  }
  for (const released of plan.retired) {
    const target = rangeOf(released.stored);
    items.push({
      kind: "retired",
      compares: released.coveredBy.map((cover) => ({ key: cover.key, modRevision: cover.revision })),
      writes: [protectionDelete(context, target)],
      target,
    });
  }
  for (const leftover of plan.leftovers) {
    items.push({
      kind: "leftover",
      compares: [{ key: leftover.key, modRevision: leftover.revision }],
      writes: [{ type: "delete", key: leftover.key }],
      target: undefined,
    });
  }
  return items;
}

function rangeOf(stored: StoredRecord<CommitIntent>): BookKeeperEntryRangeTarget {
  return stored.record.readTarget as BookKeeperEntryRangeTarget;
}

/** The delete of the REACHABLE_APPEND protection of `target`'s range. */
function protectionDelete(context: LedgerReclamationContext, target: BookKeeperEntryRangeTarget): WriteOp {
  const hash = ledgerHash(context.clusterAlias, BigInt(target.ledgerId));
  const typeId = BookKeeperWalWireIds.rangeProtectionType.idOf("REACHABLE_APPEND") ?? 0;
  return { type: "delete", key: rangeProtectionKey(context.cluster, hash, target.firstEntryId, typeId) };
}
