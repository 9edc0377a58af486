// Which storage profiles get Object generations from this package (docs/architecture.md §6):
//   OBJECT_WAL_SYNC_OBJECT / OBJECT_WAL_ASYNC_OBJECT      — the Object WAL's own profiles (gen-0 sources are WAL slices);
//   BOOKKEEPER_WAL_ASYNC_OBJECT / BOOKKEEPER_WAL_SYNC_OBJECT — gen-0 sources are exact committed BookKeeper entry
//     ranges, read through core's WalReader SPI by whatever reader serves BOOKKEEPER_ENTRY_RANGE targets (this
//     package never imports @nereus/bookkeeper). They are materialized only when such a reader is installed.
// Lag admission applies to the profiles whose traits say "async object materialization" (both *_ASYNC_OBJECT).
import { type ReadTargetType, type StorageProfile } from "@nereus/core";
import { STORAGE_PROFILE_TRAITS } from "@nereus/core/internal";

export const OBJECT_WAL_PROFILES: ReadonlySet<StorageProfile> = new Set<StorageProfile>([
  "OBJECT_WAL_SYNC_OBJECT",
  "OBJECT_WAL_ASYNC_OBJECT",
]);
export const BOOKKEEPER_OBJECT_PROFILES: ReadonlySet<StorageProfile> = new Set<StorageProfile>([
  "BOOKKEEPER_WAL_ASYNC_OBJECT",
  "BOOKKEEPER_WAL_SYNC_OBJECT",
]);

/** Profiles whose appends are rejected before any primary-WAL I/O while the materialization lag is over the bound. */
export const LAG_BOUNDED_PROFILES: ReadonlySet<StorageProfile> = new Set<StorageProfile>(
  (Object.keys(STORAGE_PROFILE_TRAITS) as StorageProfile[]).filter(
    (profile) => STORAGE_PROFILE_TRAITS[profile].asyncObjectMaterialization,
  ),
);

/**
 * The profiles a runtime materializes by default: the Object WAL profiles, plus the BookKeeper object profiles
 * when `sourceTargetTypes` (the target types of the installed source readers) include BOOKKEEPER_ENTRY_RANGE.
 */
export function defaultMaterializedProfiles(sourceTargetTypes: readonly ReadTargetType[]): ReadonlySet<StorageProfile> {
  return sourceTargetTypes.includes("BOOKKEEPER_ENTRY_RANGE")
    ? new Set([...OBJECT_WAL_PROFILES, ...BOOKKEEPER_OBJECT_PROFILES])
    : OBJECT_WAL_PROFILES;
}
