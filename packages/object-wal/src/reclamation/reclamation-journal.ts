// Reads a stream's reclamation journal and builds the writes that move one entry: every write of an entry
// compares the revision it was read at (or its absence), so two collectors of one stream never both apply a step.
import type { MetadataStore, RevisionCompare, WriteOp } from "@nereus/core";
import type { StoredRecord } from "@nereus/core/internal";
import { objectReclamationCodec } from "./object-reclamation-codec.js";
import { objectReclamationKey, reclamationJournalPrefix } from "./reclamation-keys.js";
import type { ObjectReclamation } from "./reclamation-records.js";

const SCAN_PAGE = 256;

/** Every journal entry of `streamId`, in key order. */
export async function loadJournal(
  metadata: MetadataStore,
  cluster: string,
  streamId: string,
  signal?: AbortSignal,
): Promise<StoredRecord<ObjectReclamation>[]> {
  const prefix = reclamationJournalPrefix(cluster, streamId);
  const entries: StoredRecord<ObjectReclamation>[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await metadata.scan(prefix, {
      limit: SCAN_PAGE,
      ...(after === undefined ? {} : { startAfter: after }),
      signal,
    });
    for (const kv of page.items) {
      entries.push({ key: kv.key, revision: kv.modRevision, record: objectReclamationCodec.decode(kv.value, kv.key) });
    }
    const last = page.items.at(-1);
    if (!page.more || last === undefined) return entries;
    after = last.key;
  }
}

/** The compare and write that create `entry` (its key must be absent). */
export function createEntry(cluster: string, entry: ObjectReclamation): { compare: RevisionCompare; write: WriteOp } {
  const key = objectReclamationKey(cluster, entry.streamId, entry.objectKeyHash);
  return {
    compare: { key, modRevision: 0 },
    write: { type: "put", key, value: objectReclamationCodec.encode(entry) },
  };
}

/** The compare and write that replace `stored` with `next`. */
export function replaceEntry(
  stored: StoredRecord<ObjectReclamation>,
  next: ObjectReclamation,
): { compare: RevisionCompare; write: WriteOp } {
  return {
    compare: { key: stored.key, modRevision: stored.revision },
    write: { type: "put", key: stored.key, value: objectReclamationCodec.encode(next) },
  };
}

/** The compare and write that delete `stored`. */
export function forgetEntry(stored: StoredRecord<ObjectReclamation>): { compare: RevisionCompare; write: WriteOp } {
  return { compare: { key: stored.key, modRevision: stored.revision }, write: { type: "delete", key: stored.key } };
}
