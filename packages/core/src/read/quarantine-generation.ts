// Read path, fallback step: a higher generation whose target proved corrupt (checksum, structure, missing object)
// is moved COMMITTED → QUARANTINED by a CAS on the exact revision the read resolved, so no later read selects it;
// the read then falls back to a lower generation of the same view. Best effort: a lost CAS (someone changed the
// entry first) or a metadata failure never fails the read, which falls back either way.
import type { GenerationCandidate } from "./scan-generation-candidates.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { StreamKeyspace } from "../records/stream-keyspace.js";

/** Quarantines `candidate`; resolves true when this call moved it. Never throws. */
export async function quarantineGeneration(
  metadata: MetadataStore,
  keyspace: StreamKeyspace,
  candidate: GenerationCandidate,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    const value = keyspace.encodeGenerationIndex({ ...candidate.entry, state: "QUARANTINED" });
    const result = await metadata.txn(
      {
        compares: [{ key: candidate.key, modRevision: candidate.revision }],
        writes: [{ type: "put", key: candidate.key, value }],
      },
      { signal },
    );
    return result.succeeded;
  } catch {
    return false;
  }
}
