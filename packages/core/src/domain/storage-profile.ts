// Storage profiles (docs/architecture.md §6): primary WAL + objectization mode + producer completion boundary, per stream,
// immutable after create. `OBJECT_WAL` is an alias canonicalized to `OBJECT_WAL_SYNC_OBJECT` at create time.

/** The five canonical profiles; the only values ever persisted in a stream head. */
export const CANONICAL_STORAGE_PROFILES = [
  "OBJECT_WAL_SYNC_OBJECT",
  "OBJECT_WAL_ASYNC_OBJECT",
  "BOOKKEEPER_WAL_ONLY",
  "BOOKKEEPER_WAL_ASYNC_OBJECT",
  "BOOKKEEPER_WAL_SYNC_OBJECT",
] as const;

export type StorageProfile = (typeof CANONICAL_STORAGE_PROFILES)[number];

/** What a caller may name when creating a stream: a canonical profile or the compatibility alias. */
export type StorageProfileName = StorageProfile | "OBJECT_WAL";

/** Which primary WAL family a profile writes. */
export type PrimaryWalKind = "OBJECT" | "BOOKKEEPER";

/** How far generation 0 must be confirmed before producer success. */
export type DurabilityLevel = "WAL_DURABLE" | "WAL_DURABLE_AND_INDEX_COMMITTED";

/** Whether the producer additionally waits for a higher Object generation (independent of durability). */
export type AppendCompletionPolicy =
  "PROFILE_DEFAULT" | "STABLE_HEAD" | "GENERATION_ZERO_INDEX" | "REQUIRED_OBJECT_GENERATION";

/** The resolved producer boundary of one append. */
export type AppendAckBoundary = "STABLE_HEAD" | "GENERATION_ZERO_VISIBLE" | "REQUIRED_OBJECT_GENERATION";

/** Static facts of a canonical profile. */
export interface StorageProfileTraits {
  readonly profile: StorageProfile;
  readonly primaryWal: PrimaryWalKind;
  readonly defaultDurability: DurabilityLevel;
  readonly ackBoundary: AppendAckBoundary;
  /** Object generations are produced in the background (lag admission applies). */
  readonly asyncObjectMaterialization: boolean;
  /** A verified Object generation is required before producer success. */
  readonly syncObjectMaterialization: boolean;
}
