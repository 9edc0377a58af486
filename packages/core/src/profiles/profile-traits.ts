// The static facts of each canonical storage profile, as one explicit table (docs/architecture.md §6).
import type { StorageProfile, StorageProfileTraits } from "../domain/storage-profile.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** Traits by canonical profile. Durable semantics: a change here changes producer-visible guarantees. */
export const STORAGE_PROFILE_TRAITS: Readonly<Record<StorageProfile, StorageProfileTraits>> = Object.freeze({
  OBJECT_WAL_SYNC_OBJECT: Object.freeze({
    profile: "OBJECT_WAL_SYNC_OBJECT",
    primaryWal: "OBJECT",
    defaultDurability: "WAL_DURABLE_AND_INDEX_COMMITTED",
    ackBoundary: "GENERATION_ZERO_VISIBLE",
    asyncObjectMaterialization: false,
    syncObjectMaterialization: false,
  }),
  OBJECT_WAL_ASYNC_OBJECT: Object.freeze({
    profile: "OBJECT_WAL_ASYNC_OBJECT",
    primaryWal: "OBJECT",
    defaultDurability: "WAL_DURABLE",
    ackBoundary: "STABLE_HEAD",
    asyncObjectMaterialization: true,
    syncObjectMaterialization: false,
  }),
  BOOKKEEPER_WAL_ONLY: Object.freeze({
    profile: "BOOKKEEPER_WAL_ONLY",
    primaryWal: "BOOKKEEPER",
    defaultDurability: "WAL_DURABLE",
    ackBoundary: "STABLE_HEAD",
    asyncObjectMaterialization: false,
    syncObjectMaterialization: false,
  }),
  BOOKKEEPER_WAL_ASYNC_OBJECT: Object.freeze({
    profile: "BOOKKEEPER_WAL_ASYNC_OBJECT",
    primaryWal: "BOOKKEEPER",
    defaultDurability: "WAL_DURABLE",
    ackBoundary: "STABLE_HEAD",
    asyncObjectMaterialization: true,
    syncObjectMaterialization: false,
  }),
  BOOKKEEPER_WAL_SYNC_OBJECT: Object.freeze({
    profile: "BOOKKEEPER_WAL_SYNC_OBJECT",
    primaryWal: "BOOKKEEPER",
    defaultDurability: "WAL_DURABLE_AND_INDEX_COMMITTED",
    ackBoundary: "REQUIRED_OBJECT_GENERATION",
    asyncObjectMaterialization: false,
    syncObjectMaterialization: true,
  }),
});

/**
 * The traits of a canonical profile. A non-canonical value (including the `OBJECT_WAL` alias, which must be
 * canonicalized at create time) throws `NereusError(UNSUPPORTED_STORAGE_PROFILE)`.
 */
export function profileTraits(profile: StorageProfile): StorageProfileTraits {
  if (typeof profile === "string" && Object.hasOwn(STORAGE_PROFILE_TRAITS, profile))
    return STORAGE_PROFILE_TRAITS[profile];
  throw new NereusError(
    ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
    `${JSON.stringify(profile)} is not a canonical storage profile (canonicalize names with canonicalizeProfile)`,
    { retryable: false, details: { profile } },
  );
}
