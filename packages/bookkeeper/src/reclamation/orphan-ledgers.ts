// The inventory pass of the ledger collector: what per-stream runs cannot find from a stream's commits.
//   - Roots left MARKED, DELETING or DELETED (a collector crashed mid-way): their streams are run again, which
//     resumes the journal entries (every step is idempotent).
//   - Sealed roots older than `orphanAgeMs` that no range protection names and no journal entry covers (a ledger
//     whose appends all failed, a ledger sealed empty after a lost takeover race): a RELEASED journal entry is
//     created under the root's stream (compare: entry absent, root unchanged), and the normal lifecycle follows.
//   - BookKeeper ledgers whose custom metadata names this cluster but that have no root, older than `orphanAgeMs`
//     (an allocation that crashed between creating the ledger and writing its root): a root and a journal entry are
//     created DELETING in one transaction that compares the root's absence. The allocator writes its root only if
//     absent, so a late allocator never uses the ledger; the run of the stream then deletes it.
import type { StoredRecord } from "@nereus/core/internal";
import type { VersionedLedgerMetadata } from "../metadata/ledger-metadata-store.js";
import { ledgerHash, ledgerRootsShardPrefix } from "../wal/records/bookkeeper-wal-keys.js";
import type { BookKeeperLedgerRoot } from "../wal/records/bookkeeper-wal-records.js";
import { ledgerRootCodec } from "../wal/records/ledger-root-codec.js";
import { isProtected } from "./advance-ledger-entry.js";
import { ledgerRootKeyOf } from "./ledger-identity.js";
import { createLedgerEntry, releasedLedgerEntry } from "./ledger-journal.js";
import type { LedgerReclamationContext } from "./ledger-reclamation-context.js";

const SHARDS = 256;
const SCAN_PAGE = 256;
const decoder = new TextDecoder();

/** What a sweep found and did. */
export interface LedgerSweepReport {
  /** Streams whose journals the sweep found work in (run after the sweep). */
  readonly streams: readonly string[];
  readonly rootsScanned: number;
  /** Sealed, unprotected ledgers the sweep journaled. */
  readonly orphanRootsJournaled: number;
  /** BookKeeper ledgers of this cluster without a root, old enough, handed to the collector for deletion. */
  readonly unrootedLedgersFound: number;
  /** Their payload bytes (from BookKeeper's metadata: closed length, 0 for an open ledger). */
  readonly unrootedBytesFound: number;
  readonly error?: unknown;
}

/** One inventory pass (see the module comment). Never throws: a failure ends the pass and is in the report. */
export async function sweepLedgers(context: LedgerReclamationContext, signal: AbortSignal): Promise<LedgerSweepReport> {
  const streams = new Set<string>();
  const known = new Set<bigint>();
  const tally = { rootsScanned: 0, orphanRootsJournaled: 0, unrootedLedgersFound: 0, unrootedBytesFound: 0 };
  try {
    for (let shard = 0; shard < SHARDS; shard++) {
      for await (const root of scanRoots(context, shard, signal)) {
        tally.rootsScanned += 1;
        if (root.record.clusterAlias !== context.clusterAlias) continue;
        known.add(root.record.ledgerId);
        if (await visitRoot(context, root, signal)) {
          streams.add(root.record.streamId);
          if (root.record.lifecycle === "SEALED") tally.orphanRootsJournaled += 1;
        }
      }
    }
    for await (const ledgerId of context.client.listLedgerIds({ signal })) {
      if (known.has(ledgerId)) continue;
      const adopted = await adoptUnrooted(context, ledgerId, signal);
      if (adopted === undefined) continue;
      streams.add(adopted.streamId);
      tally.unrootedLedgersFound += 1;
      tally.unrootedBytesFound += adopted.length;
    }
    return { streams: [...streams], ...tally };
  } catch (error) {
    return { streams: [...streams], ...tally, error };
  }
}

async function* scanRoots(
  context: LedgerReclamationContext,
  shard: number,
  signal: AbortSignal,
): AsyncGenerator<StoredRecord<BookKeeperLedgerRoot>> {
  const prefix = ledgerRootsShardPrefix(context.cluster, shard);
  let after: string | undefined;
  for (;;) {
    const page = await context.metadata.scan(prefix, {
      limit: SCAN_PAGE,
      ...(after === undefined ? {} : { startAfter: after }),
      signal,
    });
    for (const kv of page.items) {
      yield { key: kv.key, revision: kv.modRevision, record: ledgerRootCodec.decode(kv.value, kv.key) };
    }
    const last = page.items.at(-1);
    if (!page.more || last === undefined) return;
    after = last.key;
  }
}

/** True when `root`'s stream has journal work: a collection in progress, or an orphan just journaled. */
async function visitRoot(
  context: LedgerReclamationContext,
  stored: StoredRecord<BookKeeperLedgerRoot>,
  signal: AbortSignal,
): Promise<boolean> {
  const root = stored.record;
  if (root.lifecycle === "MARKED" || root.lifecycle === "DELETING" || root.lifecycle === "DELETED") return true;
  if (root.lifecycle !== "SEALED") return false;
  if (context.clock() < root.createdAtMillis + context.policy.orphanAgeMs) return false;
  if (await isProtected(context, root, signal)) return false;
  const entry = createLedgerEntry(
    context.cluster,
    releasedLedgerEntry(root.streamId, root.clusterAlias, root.ledgerId, root.ledgerHash, context.clock(), true),
  );
  const result = await context.metadata.txn(
    { compares: [entry.compare, { key: stored.key, modRevision: stored.revision }], writes: [entry.write] },
    { signal },
  );
  return result.succeeded;
}

/** Hands a rootless ledger of this cluster to its stream's collector; its stream and length, or undefined. */
async function adoptUnrooted(
  context: LedgerReclamationContext,
  ledgerId: bigint,
  signal: AbortSignal,
): Promise<{ readonly streamId: string; readonly length: number } | undefined> {
  const found = await context.client.getLedgerMetadata(ledgerId, { signal });
  if (found === undefined) return undefined;
  const root = rootOfUnrooted(context, ledgerId, found);
  if (root === undefined || context.clock() < found.ctimeMs + context.policy.orphanAgeMs) return undefined;
  const now = Math.max(1, context.clock());
  const entry = createLedgerEntry(context.cluster, {
    ...releasedLedgerEntry(root.streamId, context.clusterAlias, ledgerId, root.ledgerHash, now, true),
    state: "DELETING",
    markedAtMillis: now,
    deleteNotBeforeMillis: now,
    ledgerLength: root.sealedLength,
  });
  const rootKey = ledgerRootKeyOf(context, root);
  const result = await context.metadata.txn(
    {
      compares: [{ key: rootKey, modRevision: 0 }, entry.compare],
      writes: [{ type: "put", key: rootKey, value: ledgerRootCodec.encode(root) }, entry.write],
    },
    { signal },
  );
  return result.succeeded ? { streamId: root.streamId, length: root.sealedLength } : undefined;
}

/** A DELETING root for a rootless ledger whose custom metadata names this cluster, or undefined for any other. */
function rootOfUnrooted(
  context: LedgerReclamationContext,
  ledgerId: bigint,
  found: VersionedLedgerMetadata,
): BookKeeperLedgerRoot | undefined {
  const custom = found.metadata.customMetadata;
  const text = (name: string): string | undefined => {
    const value = custom[name];
    return value === undefined ? undefined : decoder.decode(value);
  };
  const streamId = text("nereus.stream");
  const allocationId = text("nereus.allocation");
  if (text("nereus.cluster") !== context.cluster || streamId === undefined || allocationId === undefined) {
    return undefined;
  }
  const writer = text("nereus.writer") ?? "";
  const at = writer.lastIndexOf("@");
  const writerEpoch = Number(writer.slice(at + 1));
  const metadata = found.metadata;
  return {
    clusterAlias: context.clusterAlias,
    ledgerId,
    ledgerHash: ledgerHash(context.clusterAlias, ledgerId),
    streamId,
    segmentSequence: Number(text("nereus.segment") ?? "0") || 0,
    allocationId: allocationId.length > 0 ? allocationId : "unknown",
    owner: {
      writerId: at > 0 ? writer.slice(0, at) : "unknown",
      writerEpoch: Number.isSafeInteger(writerEpoch) && writerEpoch >= 0 ? writerEpoch : 0,
    },
    ensembleSize: metadata.ensembleSize,
    writeQuorumSize: metadata.writeQuorumSize,
    ackQuorumSize: metadata.ackQuorumSize,
    digestType: metadata.digestType,
    lifecycle: "DELETING",
    lifecycleEpoch: 0,
    createdAtMillis: Math.max(0, found.ctimeMs),
    sealedEntryCount: metadata.state === "CLOSED" ? metadata.lastEntryId + 1 : 0,
    sealedLength: metadata.state === "CLOSED" ? metadata.length : 0,
  };
}
