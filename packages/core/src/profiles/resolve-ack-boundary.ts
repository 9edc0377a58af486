// Resolves the producer completion boundary of one append from the profile minimum and the caller's optional
// durability level and completion policy (docs/architecture.md §6: durability level and completion policy). Callers may ask for
// more than the profile minimum, never less. Pure; capability (is a coordinator installed?) is checked elsewhere.
import type {
  AppendAckBoundary,
  AppendCompletionPolicy,
  DurabilityLevel,
  StorageProfileTraits,
} from "../domain/storage-profile.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

const BOUNDARY_RANK: Readonly<Record<AppendAckBoundary, number>> = {
  STABLE_HEAD: 0,
  GENERATION_ZERO_VISIBLE: 1,
  REQUIRED_OBJECT_GENERATION: 2,
};
const DURABILITY_RANK: Readonly<Record<DurabilityLevel, number>> = {
  WAL_DURABLE: 0,
  WAL_DURABLE_AND_INDEX_COMMITTED: 1,
};
const DURABILITY_BOUNDARY: Readonly<Record<DurabilityLevel, AppendAckBoundary>> = {
  WAL_DURABLE: "STABLE_HEAD",
  WAL_DURABLE_AND_INDEX_COMMITTED: "GENERATION_ZERO_VISIBLE",
};
const POLICY_BOUNDARY: Readonly<Record<Exclude<AppendCompletionPolicy, "PROFILE_DEFAULT">, AppendAckBoundary>> = {
  STABLE_HEAD: "STABLE_HEAD",
  GENERATION_ZERO_INDEX: "GENERATION_ZERO_VISIBLE",
  REQUIRED_OBJECT_GENERATION: "REQUIRED_OBJECT_GENERATION",
};

function stronger(a: AppendAckBoundary, b: AppendAckBoundary): AppendAckBoundary {
  return BOUNDARY_RANK[a] >= BOUNDARY_RANK[b] ? a : b;
}

/**
 * The ack boundary of one append: the strongest of the profile's `ackBoundary`, the boundary implied by
 * `durability` (WAL_DURABLE_AND_INDEX_COMMITTED ⇒ GENERATION_ZERO_VISIBLE) and the explicit `completionPolicy`
 * (undefined / PROFILE_DEFAULT ⇒ the profile's).
 *
 * Throws, before any I/O:
 * - `UNSUPPORTED_DURABILITY_LEVEL` when `durability` is weaker than the profile's `defaultDurability`, or when
 *   REQUIRED_OBJECT_GENERATION is asked of a profile that produces no Object generation;
 * - `INVALID_ARGUMENT` when an explicit `completionPolicy` is weaker than the profile's boundary, or a value is
 *   not a known durability level / policy.
 */
export function resolveAckBoundary(
  traits: StorageProfileTraits,
  durability?: DurabilityLevel,
  completionPolicy?: AppendCompletionPolicy,
): AppendAckBoundary {
  let boundary = traits.ackBoundary;
  if (durability !== undefined) {
    if (!Object.hasOwn(DURABILITY_RANK, durability)) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, `unknown durability level ${JSON.stringify(durability)}`);
    }
    if (DURABILITY_RANK[durability] < DURABILITY_RANK[traits.defaultDurability]) {
      throw new NereusError(
        ErrorCode.UNSUPPORTED_DURABILITY_LEVEL,
        `durability ${durability} is weaker than the minimum ${traits.defaultDurability} of profile ${traits.profile}`,
        { retryable: false, details: { profile: traits.profile, durability } },
      );
    }
    boundary = stronger(boundary, DURABILITY_BOUNDARY[durability]);
  }
  if (completionPolicy !== undefined && completionPolicy !== "PROFILE_DEFAULT") {
    if (!Object.hasOwn(POLICY_BOUNDARY, completionPolicy)) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `unknown completion policy ${JSON.stringify(completionPolicy)}`,
      );
    }
    const requested = POLICY_BOUNDARY[completionPolicy];
    if (BOUNDARY_RANK[requested] < BOUNDARY_RANK[traits.ackBoundary]) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `completion policy ${completionPolicy} is weaker than the ${traits.ackBoundary} boundary of profile ${traits.profile}`,
        { retryable: false, details: { profile: traits.profile, completionPolicy } },
      );
    }
    if (
      requested === "REQUIRED_OBJECT_GENERATION" &&
      !traits.syncObjectMaterialization &&
      !traits.asyncObjectMaterialization
    ) {
      throw new NereusError(
        ErrorCode.UNSUPPORTED_DURABILITY_LEVEL,
        `profile ${traits.profile} produces no required Object generation to wait for`,
        { retryable: false, details: { profile: traits.profile, completionPolicy } },
      );
    }
    boundary = stronger(boundary, requested);
  }
  return boundary;
}
