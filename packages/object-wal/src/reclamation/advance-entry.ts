// Moves one journal entry (and the object's root with it, in the same transaction) as far as the proof allows now:
//   RELEASED → MARKED    the root is ACTIVE and no protection of any stream is left, and the object is old enough
//                        (else: another stream still protects it and will journal it when it lets go — this entry
//                        is forgotten; or the root is not ACTIVE: another journal owns it — forgotten).
//   MARKED   → DELETING  the grace period passed, still no protection (one that was created before the mark and
//                        is found now vetoes: root back to ACTIVE, entry forgotten), and no read of this process
//                        pins the object (it is condemned: no read of this process will start on it any more).
//   DELETING → DELETED   the object store deleted the object and a HEAD confirms it absent (a lost DELETE response
//                        is simply sent again by the next step: deleting twice is harmless, nothing else moves).
//   DELETED  → (gone)    after the tombstone period, root and entry are deleted together.
// Every transaction compares the root's and the entry's revisions: a replayed or concurrent step applies at most
// once, and a lost response is resolved by the next run reading both again.
import { ErrorCode, NereusError, objectPhysicalId, type RevisionCompare, type WriteOp } from "@nereus/core";
import type { StoredRecord } from "@nereus/core/internal";
import { objectProtectionsPrefix } from "../roots/physical-object-keys.js";
import type { PhysicalObjectLifecycle } from "../roots/physical-object-records.js";
import { physicalObjectRootCodec } from "../roots/physical-object-root-codec.js";
import type { VersionedRoot } from "../roots/physical-object-roots.js";
import type { ReclamationContext } from "./reclamation-context.js";
import { forgetEntry, replaceEntry } from "./reclamation-journal.js";
import type { ObjectReclamation } from "./reclamation-records.js";
import { moveRoot } from "./root-lifecycle.js";

/** Where an entry stands after a step: moved (the new stored entry), forgotten, or waiting for time or a pin. */
export type StepResult =
  | { readonly kind: "moved"; readonly stored: StoredRecord<ObjectReclamation> }
  | { readonly kind: "forgotten"; readonly recordsDeleted: number }
  | { readonly kind: "waiting" };

/** One step of `stored` (see the module comment). Throws on a store failure; the entry stays where it was. */
export async function stepEntry(
  context: ReclamationContext,
  stored: StoredRecord<ObjectReclamation>,
  signal?: AbortSignal,
): Promise<StepResult> {
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
  context: ReclamationContext,
  stored: StoredRecord<ObjectReclamation>,
  signal: AbortSignal | undefined,
): Promise<StepResult> {
  const entry = stored.record;
  const root = await context.roots.load(context.metadata, entry.objectKey, signal);
  if (root?.root.lifecycle !== "ACTIVE" || (await isProtected(context, entry, signal))) {
    return forget(context, stored, undefined, signal);
  }
  const now = context.clock();
  if (now < root.root.createdAtMillis + context.policy.minObjectAgeMs + context.policy.clockSkewMs) {
    return { kind: "waiting" };
  }
  const next: ObjectReclamation = {
    ...entry,
    state: "MARKED",
    markedAtMillis: now,
    deleteNotBeforeMillis: now + context.policy.graceMs + context.policy.clockSkewMs,
    objectLength: root.root.objectLength,
  };
  return move(context, stored, next, root, "MARKED", signal);
}

async function deletingStep(
  context: ReclamationContext,
  stored: StoredRecord<ObjectReclamation>,
  signal: AbortSignal | undefined,
): Promise<StepResult> {
  const entry = stored.record;
  if (context.clock() < entry.deleteNotBeforeMillis) return { kind: "waiting" };
  const root = await rootIn(context, entry, "MARKED", signal);
  if (await isProtected(context, entry, signal)) {
    context.stats.vetoes += 1;
    return forget(context, stored, { root, to: "ACTIVE" }, signal);
  }
  const id = objectPhysicalId(entry.objectKey);
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
  context: ReclamationContext,
  stored: StoredRecord<ObjectReclamation>,
  signal: AbortSignal | undefined,
): Promise<StepResult> {
  const entry = stored.record;
  const id = objectPhysicalId(entry.objectKey);
  if (!context.pins.condemn(id)) return { kind: "waiting" };
  const root = await rootIn(context, entry, "DELETING", signal);
  context.stats.deletesSent += 1;
  await context.objects.deleteMany([entry.objectKey], { signal });
  if ((await context.objects.head(entry.objectKey, { signal })) !== undefined) {
    throw new NereusError(
      ErrorCode.OBJECT_UPLOAD_FAILED,
      `object ${entry.objectKey} is still present after its delete; it is deleted again by the next run`,
      { retryable: true },
    );
  }
  await context.hooks.afterObjectDelete?.(entry.objectKey);
  return move(
    context,
    stored,
    { ...entry, state: "DELETED", deletedAtMillis: Math.max(1, context.clock()) },
    root,
    "DELETED",
    signal,
    () => {
      context.pins.absolve(id);
      context.stats.freed(entry.kind, entry.objectLength);
    },
  );
}

async function forgetStep(
  context: ReclamationContext,
  stored: StoredRecord<ObjectReclamation>,
  signal: AbortSignal | undefined,
): Promise<StepResult> {
  const entry = stored.record;
  if (context.clock() < entry.deletedAtMillis + context.policy.tombstoneRetentionMs) return { kind: "waiting" };
  const root = await context.roots.load(context.metadata, entry.objectKey, signal);
  if (root !== undefined && root.root.lifecycle !== "DELETED") throw unexpectedRoot(entry, root, "DELETED");
  const writes: WriteOp[] = [];
  const compares: RevisionCompare[] = [];
  if (root !== undefined) {
    compares.push({ key: context.roots.rootKey(entry.objectKey), modRevision: root.revision });
    writes.push({ type: "delete" as const, key: context.roots.rootKey(entry.objectKey) });
  }
  const forgotten = forgetEntry(stored);
  const result = await context.metadata.txn(
    { compares: [...compares, forgotten.compare], writes: [...writes, forgotten.write] },
    { signal },
  );
  if (!result.succeeded) return conflict(context);
  context.stats.metadataRecordsDeleted += writes.length + 1;
  await context.hooks.afterStep?.(entry, true);
  return { kind: "forgotten", recordsDeleted: writes.length + 1 };
}

/** Replaces the entry with `next` and moves `root` to `to`, in one transaction; `applied` runs once it applied. */
async function move(
  context: ReclamationContext,
  stored: StoredRecord<ObjectReclamation>,
  next: ObjectReclamation,
  root: VersionedRoot,
  to: PhysicalObjectLifecycle,
  signal: AbortSignal | undefined,
  applied?: () => void,
): Promise<StepResult> {
  const rootKey = context.roots.rootKey(next.objectKey);
  const replaced = replaceEntry(stored, next);
  const result = await context.metadata.txn(
    {
      compares: [{ key: rootKey, modRevision: root.revision }, replaced.compare],
      writes: [
        { type: "put", key: rootKey, value: physicalObjectRootCodec.encode(moveRoot(root.root, to)) },
        replaced.write,
      ],
    },
    { signal },
  );
  if (!result.succeeded) return conflict(context);
  applied?.();
  await context.hooks.afterStep?.(next, false);
  return { kind: "moved", stored: { key: stored.key, revision: result.revision, record: next } };
}

/** Deletes the entry, moving `root` back too when given (a veto), in one transaction. */
async function forget(
  context: ReclamationContext,
  stored: StoredRecord<ObjectReclamation>,
  rootMove: { readonly root: VersionedRoot; readonly to: PhysicalObjectLifecycle } | undefined,
  signal: AbortSignal | undefined,
): Promise<StepResult> {
  const forgotten = forgetEntry(stored);
  const compares = [forgotten.compare];
  const writes: WriteOp[] = [forgotten.write];
  if (rootMove !== undefined) {
    const rootKey = context.roots.rootKey(stored.record.objectKey);
    compares.push({ key: rootKey, modRevision: rootMove.root.revision });
    writes.push({
      type: "put",
      key: rootKey,
      value: physicalObjectRootCodec.encode(moveRoot(rootMove.root.root, rootMove.to)),
    });
  }
  const result = await context.metadata.txn({ compares, writes }, { signal });
  if (!result.succeeded) return conflict(context);
  context.stats.metadataRecordsDeleted += 1;
  await context.hooks.afterStep?.(stored.record, true);
  return { kind: "forgotten", recordsDeleted: 1 };
}

/** True when any protection (of any stream, any type) names the entry's object. */
async function isProtected(
  context: ReclamationContext,
  entry: ObjectReclamation,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const page = await context.metadata.scan(objectProtectionsPrefix(context.cluster, entry.objectKeyHash), {
    limit: 1,
    signal,
  });
  return page.items.length > 0;
}

/** The entry's root, which must be in `lifecycle` (only this journal entry moves it from MARKED on). */
async function rootIn(
  context: ReclamationContext,
  entry: ObjectReclamation,
  lifecycle: PhysicalObjectLifecycle,
  signal: AbortSignal | undefined,
): Promise<VersionedRoot> {
  const root = await context.roots.load(context.metadata, entry.objectKey, signal);
  if (root === undefined || root.root.lifecycle !== lifecycle) throw unexpectedRoot(entry, root, lifecycle);
  return root;
}

function unexpectedRoot(
  entry: ObjectReclamation,
  root: VersionedRoot | undefined,
  expected: PhysicalObjectLifecycle,
): NereusError {
  return new NereusError(
    ErrorCode.METADATA_INVARIANT_VIOLATION,
    `journal entry of ${entry.objectKey} is ${entry.state} but its root is ${root?.root.lifecycle ?? "missing"} (expected ${expected})`,
    { retryable: false },
  );
}

function conflict(context: ReclamationContext): StepResult {
  context.stats.conflicts += 1;
  return { kind: "waiting" };
}
