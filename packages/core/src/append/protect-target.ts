// Pipeline step 5: ask the provider for the protection of the persisted target (root/protection records bound to
// the deterministic commit id). Nothing is written here: the protection's compares and writes ride in the head
// transaction, so the head can never name an unprotected target and no protection outlives a lost CAS unbound.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { PersistedWrite, TargetProtection, WalWriter } from "../spi/wal.js";

/** Most protection operations one head transaction may carry (etcd caps a txn at 128 operations). */
const MAX_PROTECTION_OPERATIONS = 64;

/** Returns the provider's protection, checked to fit in the head transaction. */
export async function protectTarget(
  writer: WalWriter,
  persisted: PersistedWrite,
  commitId: string,
  metadata: MetadataStore,
  signal: AbortSignal,
): Promise<TargetProtection> {
  const protection = await writer.protect(persisted, commitId, metadata, { signal });
  if (protection.compares.length + protection.writes.length > MAX_PROTECTION_OPERATIONS) {
    throw new NereusError(
      ErrorCode.METADATA_LIMIT_EXCEEDED,
      `WAL protection needs ${String(protection.compares.length + protection.writes.length)} operations; at most ${String(MAX_PROTECTION_OPERATIONS)} fit in the head transaction`,
      { retryable: false },
    );
  }
  return protection;
}
