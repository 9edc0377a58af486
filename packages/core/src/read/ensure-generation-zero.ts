// Materializes the derived generation-0 records (offset index entry + replay marker) of committed intents with
// put-if-absent-or-equal semantics (docs/architecture.md §3.3): an existing record with the same bytes is kept; one with
// different bytes is a METADATA_INVARIANT_VIOLATION and is never overwritten. Callers pass only intents they
// proved reachable from the head; this module does not check reachability.
import { bytesEqual } from "../bytes/compare-bytes.js";
import type { CommitIntent } from "../domain/commit-records.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { StreamKeyspace } from "../records/stream-keyspace.js";
import { deriveGenerationZero } from "./derive-generation-zero.js";

/** Records per transaction (etcd allows 128 operations; each record is one compare and one put). */
const RECORDS_PER_TXN = 64;
const ATTEMPTS = 3;

/**
 * Ensures the generation-0 index entry and replay marker of every intent exist with exactly the derived bytes.
 * Costs one `getMany` plus one `txn` per 64 missing records (nothing when all exist).
 */
export async function ensureGenerationZero(
  metadata: MetadataStore,
  keyspace: StreamKeyspace,
  intents: readonly CommitIntent[],
  signal?: AbortSignal,
): Promise<void> {
  const wanted = new Map<string, Uint8Array>();
  for (const intent of intents) {
    const { index, marker } = deriveGenerationZero(intent);
    wanted.set(keyspace.indexKey(intent.streamId, index.offsetEnd, 0), keyspace.encodeIndex(index));
    wanted.set(keyspace.markerKey(intent.streamId, intent.commitId), keyspace.encodeMarker(marker));
  }
  for (let round = 0; round < ATTEMPTS && wanted.size > 0; round++) {
    const existing = await metadata.getMany([...wanted.keys()], { signal });
    for (const [key, stored] of existing) {
      const bytes = wanted.get(key);
      if (bytes !== undefined && !bytesEqual(bytes, stored.value)) {
        throw new NereusError(
          ErrorCode.METADATA_INVARIANT_VIOLATION,
          `derived record ${key} exists with different content; refusing to overwrite it`,
          { retryable: false },
        );
      }
      wanted.delete(key);
    }
    const missing = [...wanted];
    let lost = false;
    for (let start = 0; start < missing.length; start += RECORDS_PER_TXN) {
      const chunk = missing.slice(start, start + RECORDS_PER_TXN);
      const result = await metadata.txn(
        {
          compares: chunk.map(([key]) => ({ key, modRevision: 0 })),
          writes: chunk.map(([key, value]) => ({ type: "put" as const, key, value })),
        },
        { signal },
      );
      if (result.succeeded) for (const [key] of chunk) wanted.delete(key);
      else lost = true;
    }
    if (!lost) return;
  }
  if (wanted.size > 0) {
    throw new NereusError(
      ErrorCode.METADATA_CONDITION_FAILED,
      "derived generation-0 records kept changing while being written",
    );
  }
}
