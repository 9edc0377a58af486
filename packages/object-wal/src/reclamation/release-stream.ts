// The release step of a stream's collection: carries out the stream's deletion proof (core's `planRelease`) in
// transactions of at most etcd's operation limit. Each released target loses this stream's protection, and the
// object enters the stream's journal (RELEASED) in the same transaction, so no crash can lose track of an object
// whose protection is gone; trimmed commits and released generation entries lose their records in the same
// transaction too. Every transaction compares what the proof relied on: the stream's materialization record (no
// task was claimed meanwhile), each covering generation entry (still COMMITTED as read), each deleted generation
// entry and leftover (unchanged). A transaction that loses a compare applies nothing; the next run plans again.
// Targets whose protection is already gone are not released again (only their records are deleted).
import { MAX_TXN_OPERATIONS, trimmedCommitDeletes, type Released, type ReleasePlan } from "@nereus/core/internal";
import type {
  CommitIntent,
  GenerationIndexEntry,
  ObjectSliceTarget,
  ReadTarget,
  RevisionCompare,
  WriteOp,
} from "@nereus/core";
import { objectKeyHash, objectProtectionKey } from "../roots/physical-object-keys.js";
import { PhysicalObjectWireIds, type ObjectProtectionType } from "../roots/physical-object-records.js";
import { protectionReferenceId } from "../roots/physical-object-roots.js";
import type { ReclamationContext } from "./reclamation-context.js";
import { createEntry } from "./reclamation-journal.js";
import type { ObjectReclamation } from "./reclamation-records.js";

/** Room left in a transaction's compares and writes for the per-transaction compare. */
const TXN_BUDGET = MAX_TXN_OPERATIONS - 8;
const GET_MANY_BATCH = 128;

/** One release: what its transaction part compares and writes, and the protection it removes (if any). */
interface ReleaseItem {
  readonly kind: "trimmed" | "retired" | "generation" | "leftover";
  readonly compares: RevisionCompare[];
  readonly writes: WriteOp[];
  /** The protection this release removes, with the journal entry the removal writes. */
  readonly protection: { readonly key: string; readonly target: ObjectSliceTarget } | undefined;
}

/** What one release step did. */
export interface ReleaseOutcome {
  /** Trimmed commits whose records this step deleted. */
  readonly commitsTrimmed: number;
  /** Commits above the trim whose target this step released. */
  readonly commitsRetired: number;
  /** Generation entries this step deleted (with their targets). */
  readonly generationsReleased: number;
  /** Targets whose protection this step removed. */
  readonly targetsReleased: number;
  /** Metadata records deleted (records and protections). */
  readonly recordsDeleted: number;
  /** Transactions that lost a compare (left for the next run). */
  readonly conflicts: number;
}

export interface ReleaseInputs {
  readonly streamId: string;
  readonly plan: ReleasePlan;
  /** The stream's materialization record key and the revision the proof read it at (0: absent). */
  readonly materialization: RevisionCompare;
  /** Hashes of objects already in this stream's journal (their protection by this stream is gone). */
  readonly journaled: ReadonlySet<string>;
  readonly signal?: AbortSignal;
}

/** Carries out `plan`. Throws on a metadata failure (nothing is half-applied: each transaction is atomic). */
export async function releaseStream(context: ReclamationContext, inputs: ReleaseInputs): Promise<ReleaseOutcome> {
  const items = buildItems(context, inputs);
  const existing = await existingProtections(context, items, inputs.signal);
  const now = context.clock();
  const batches: ReleaseItem[][] = [];
  let batch: ReleaseItem[] = [];
  let compares = 0;
  let writes = 0;
  const journaled = new Set(inputs.journaled);
  for (const item of items) {
    const protection = item.protection !== undefined && existing.has(item.protection.key) ? item.protection : undefined;
    const part: ReleaseItem = { kind: item.kind, compares: [...item.compares], writes: [...item.writes], protection };
    if (protection !== undefined) {
      part.writes.push({ type: "delete", key: protection.key });
      const hash = objectKeyHash(protection.target.objectKey);
      if (!journaled.has(hash)) {
        journaled.add(hash);
        const created = createEntry(context.cluster, releasedEntry(inputs.streamId, protection.target, now));
        part.compares.push(created.compare);
        part.writes.push(created.write);
      }
    }
    if (part.writes.length === 0) continue;
    if (compares + part.compares.length > TXN_BUDGET || writes + part.writes.length > TXN_BUDGET) {
      batches.push(batch);
      batch = [];
      compares = 0;
      writes = 0;
    }
    batch.push(part);
    compares += part.compares.length;
    writes += part.writes.length;
  }
  if (batch.length > 0) batches.push(batch);
  const applied: ReleaseItem[] = [];
  let conflicts = 0;
  for (const parts of batches) {
    const result = await context.metadata.txn(
      {
        compares: dedupe([inputs.materialization, ...parts.flatMap((part) => part.compares)]),
        writes: uniqueWrites(parts.flatMap((part) => part.writes)),
      },
      { signal: inputs.signal },
    );
    if (!result.succeeded) {
      conflicts += 1;
      break;
    }
    applied.push(...parts);
    await context.hooks.afterRelease?.(inputs.streamId);
  }
  const counted = (kind: ReleaseItem["kind"]): number => applied.filter((part) => part.kind === kind).length;
  return {
    commitsTrimmed: counted("trimmed"),
    commitsRetired: counted("retired"),
    generationsReleased: counted("generation"),
    targetsReleased: applied.filter((part) => part.protection !== undefined).length,
    recordsDeleted: applied.reduce(
      (sum, part) => sum + part.writes.filter((write) => write.type === "delete").length,
      0,
    ),
    conflicts,
  };
}

function buildItems(context: ReclamationContext, inputs: ReleaseInputs): ReleaseItem[] {
  const { keyspace } = context;
  const { streamId, plan } = inputs;
  const items: ReleaseItem[] = [];
  for (const stored of plan.trimmed) {
    const intent = stored.record;
    items.push({
      kind: "trimmed",
      compares: [],
      writes: trimmedCommitDeletes(keyspace, intent),
      protection: protectionOf(
        context,
        streamId,
        "REACHABLE_APPEND",
        keyspace.intentKey(streamId, intent.commitId),
        intent.readTarget,
      ),
    });
  }
  for (const released of plan.retired) items.push(retiredItem(context, streamId, released));
  for (const released of plan.generations) {
    const { stored } = released;
    items.push({
      kind: "generation",
      compares: [{ key: stored.key, modRevision: stored.revision }, ...coverCompares(released)],
      writes: [{ type: "delete", key: stored.key }],
      protection: protectionOf(context, streamId, "VISIBLE_GENERATION", stored.key, stored.record.readTarget),
    });
  }
  for (const leftover of plan.leftovers) {
    items.push({
      kind: "leftover",
      compares: [{ key: leftover.key, modRevision: leftover.revision }],
      writes: [{ type: "delete", key: leftover.key }],
      protection: undefined,
    });
  }
  return items;
}

function retiredItem(context: ReclamationContext, streamId: string, released: Released<CommitIntent>): ReleaseItem {
  const intent = released.stored.record;
  return {
    kind: "retired",
    compares: coverCompares(released),
    writes: [],
    protection: protectionOf(
      context,
      streamId,
      "REACHABLE_APPEND",
      context.keyspace.intentKey(streamId, intent.commitId),
      intent.readTarget,
    ),
  };
}

function coverCompares(released: Released<CommitIntent> | Released<GenerationIndexEntry>): RevisionCompare[] {
  return released.coveredBy.map((cover) => ({ key: cover.key, modRevision: cover.revision }));
}

function protectionOf(
  context: ReclamationContext,
  streamId: string,
  type: ObjectProtectionType,
  ownerKey: string,
  target: ReadTarget,
): ReleaseItem["protection"] {
  if (target.type !== "OBJECT_SLICE") return undefined;
  const hash = objectKeyHash(target.objectKey);
  const typeId = PhysicalObjectWireIds.protectionType.idOf(type) ?? 0;
  const key = objectProtectionKey(context.cluster, hash, typeId, protectionReferenceId(type, streamId, ownerKey, hash));
  return { key, target };
}

/** The protection keys of `items` that exist. */
async function existingProtections(
  context: ReclamationContext,
  items: readonly ReleaseItem[],
  signal: AbortSignal | undefined,
): Promise<Set<string>> {
  const keys = [...new Set(items.flatMap((item) => (item.protection === undefined ? [] : [item.protection.key])))];
  const existing = new Set<string>();
  for (let start = 0; start < keys.length; start += GET_MANY_BATCH) {
    const found = await context.metadata.getMany(keys.slice(start, start + GET_MANY_BATCH), { signal });
    for (const key of found.keys()) existing.add(key);
  }
  return existing;
}

function releasedEntry(streamId: string, target: ObjectSliceTarget, now: number): ObjectReclamation {
  return {
    streamId,
    objectKey: target.objectKey,
    objectKeyHash: objectKeyHash(target.objectKey),
    kind: target.objectType === "STREAM_GENERATION_OBJECT" ? "STREAM_GENERATION" : "OBJECT_WAL",
    state: "RELEASED",
    releasedAtMillis: now,
    markedAtMillis: 0,
    deleteNotBeforeMillis: 0,
    deletedAtMillis: 0,
    objectLength: 0,
  };
}

/** `writes` without a second write of one key (a transaction may write each key once). */
function uniqueWrites(writes: readonly WriteOp[]): WriteOp[] {
  const seen = new Set<string>();
  return writes.filter((write) => !seen.has(write.key) && seen.add(write.key) !== undefined);
}

function dedupe(compares: readonly RevisionCompare[]): RevisionCompare[] {
  const byKey = new Map<string, RevisionCompare>();
  for (const compare of compares) byKey.set(compare.key, compare);
  return [...byKey.values()];
}
