// Reads a stream's ledger journal and builds the writes that create, replace or delete one entry: every write
// compares the revision the entry was read at (or its absence), so two collectors of one stream never both apply a
// step.
import type { MetadataStore, RevisionCompare, WriteOp } from "@nereus/core";
import type { StoredRecord } from "@nereus/core/internal";
import { ledgerReclamationCodec } from "./ledger-reclamation-codec.js";
import { ledgerJournalPrefix, ledgerReclamationKey } from "./ledger-reclamation-keys.js";
import type { LedgerReclamation } from "./ledger-reclamation-records.js";

const SCAN_PAGE = 256;

/** Every ledger journal entry of `streamId`, in key order. */
export async function loadLedgerJournal(
  metadata: MetadataStore,
  cluster: string,
  streamId: string,
  signal?: AbortSignal,
): Promise<StoredRecord<LedgerReclamation>[]> {
  const prefix = ledgerJournalPrefix(cluster, streamId);
  const entries: StoredRecord<LedgerReclamation>[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await metadata.scan(prefix, {
      limit: SCAN_PAGE,
      ...(after === undefined ? {} : { startAfter: after }),
      signal,
    });
    for (const kv of page.items) {
      entries.push({ key: kv.key, revision: kv.modRevision, record: ledgerReclamationCodec.decode(kv.value, kv.key) });
    }
    const last = page.items.at(-1);
    if (!page.more || last === undefined) return entries;
    after = last.key;
  }
}

/** The compare and write that create `entry` (its key must be absent). */
export function createLedgerEntry(
  cluster: string,
  entry: LedgerReclamation,
): { compare: RevisionCompare; write: WriteOp } {
  const key = ledgerReclamationKey(cluster, entry.streamId, entry.ledgerHash);
  return {
    compare: { key, modRevision: 0 },
    write: { type: "put", key, value: ledgerReclamationCodec.encode(entry) },
  };
}

/** The compare and write that replace `stored` with `next`. */
export function replaceLedgerEntry(
  stored: StoredRecord<LedgerReclamation>,
  next: LedgerReclamation,
): { compare: RevisionCompare; write: WriteOp } {
  return {
    compare: { key: stored.key, modRevision: stored.revision },
    write: { type: "put", key: stored.key, value: ledgerReclamationCodec.encode(next) },
  };
}

/** The compare and write that delete `stored`. */
export function forgetLedgerEntry(stored: StoredRecord<LedgerReclamation>): {
  compare: RevisionCompare;
  write: WriteOp;
} {
  return { compare: { key: stored.key, modRevision: stored.revision }, write: { type: "delete", key: stored.key } };
}

/** A RELEASED entry of `ledgerId` for `streamId`. */
export function releasedLedgerEntry(
  streamId: string,
  clusterAlias: string,
  ledgerId: bigint,
  ledgerHash: string,
  now: number,
  orphan: boolean,
): LedgerReclamation {
  return {
    streamId,
    clusterAlias,
    ledgerId,
    ledgerHash,
    state: "RELEASED",
    orphan,
    releasedAtMillis: now,
    markedAtMillis: 0,
    deleteNotBeforeMillis: 0,
    deletedAtMillis: 0,
    ledgerLength: 0,
  };
}
