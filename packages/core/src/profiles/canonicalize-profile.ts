// Storage-profile names accepted at stream creation (docs/architecture.md §6): the five canonical profiles plus the OBJECT_WAL
// compatibility alias, which becomes OBJECT_WAL_SYNC_OBJECT. Only canonical names are ever persisted.
import { CANONICAL_STORAGE_PROFILES, type StorageProfile } from "../domain/storage-profile.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

const CANONICAL: ReadonlySet<string> = new Set(CANONICAL_STORAGE_PROFILES);
const ALIASES: ReadonlyMap<string, StorageProfile> = new Map([["OBJECT_WAL", "OBJECT_WAL_SYNC_OBJECT"]]);

/**
 * The canonical profile named by `name` (exact, case-sensitive). `OBJECT_WAL` ⇒ `OBJECT_WAL_SYNC_OBJECT`.
 * Any other name throws `NereusError(UNSUPPORTED_STORAGE_PROFILE)` listing the valid names.
 */
export function canonicalizeProfile(name: string): StorageProfile {
  if (CANONICAL.has(name)) return name as StorageProfile;
  const aliased = ALIASES.get(name);
  if (aliased !== undefined) return aliased;
  throw new NereusError(
    ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
    `unknown storage profile ${JSON.stringify(name)}; valid names: ${CANONICAL_STORAGE_PROFILES.join(", ")}, ` +
      `OBJECT_WAL (alias of OBJECT_WAL_SYNC_OBJECT)`,
    { retryable: false, details: { profile: name } },
  );
}
