// Pipeline step 2 (capability): a stream's profile runs only when this runtime has everything it needs — a WAL
// writer for the primary WAL kind, a reader for the target type that writer produces, and a completion
// coordinator for the resolved ack boundary. Fail closed, before any physical I/O.
import type {
  AppendCompletionPolicy,
  AppendAckBoundary,
  DurabilityLevel,
  StorageProfile,
  StorageProfileTraits,
} from "../domain/storage-profile.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { profileTraits } from "./profile-traits.js";
import { resolveAckBoundary } from "./resolve-ack-boundary.js";
import type { CompletionCoordinator } from "../spi/completion.js";
import type { WalReader, WalWriter } from "../spi/wal.js";
import { TARGET_TYPE_OF_WAL, type ProviderRegistry } from "./provider-registry.js";

/** Everything one append of a stream needs, resolved once per append before it enters the lane. */
export interface ExecutionPlan {
  readonly profile: StorageProfile;
  readonly traits: StorageProfileTraits;
  readonly ackBoundary: AppendAckBoundary;
  readonly walWriter: WalWriter;
  readonly walReader: WalReader;
  readonly coordinator: CompletionCoordinator;
  /** The head CAS also writes the generation-0 index (the boundary needs it visible before success). */
  readonly writesGenerationZeroIndex: boolean;
}

/**
 * Resolves the plan for `profile` with the caller's durability/completion choices. Throws
 * `UNSUPPORTED_STORAGE_PROFILE` when a writer or reader is missing, `UNSUPPORTED_DURABILITY_LEVEL` when the
 * requested boundary has no coordinator or weakens the profile minimum. Pure lookup: no I/O.
 */
export function resolveExecutionPlan(
  registry: ProviderRegistry,
  profile: StorageProfile,
  durability?: DurabilityLevel,
  completionPolicy?: AppendCompletionPolicy,
): ExecutionPlan {
  const traits = profileTraits(profile);
  const walWriter = registry.writer(traits.primaryWal);
  if (walWriter === undefined) {
    throw unsupported(
      ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
      `${profile} needs a ${traits.primaryWal} WAL writer; none is installed`,
    );
  }
  const targetType = TARGET_TYPE_OF_WAL[traits.primaryWal];
  const walReader = registry.reader(targetType);
  if (walReader === undefined) {
    throw unsupported(
      ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
      `${profile} needs a reader for ${targetType} targets; none is installed`,
    );
  }
  const ackBoundary = resolveAckBoundary(traits, durability, completionPolicy);
  const coordinator = registry.coordinator(ackBoundary);
  if (coordinator === undefined) {
    const code =
      durability === undefined && completionPolicy === undefined
        ? ErrorCode.UNSUPPORTED_STORAGE_PROFILE
        : ErrorCode.UNSUPPORTED_DURABILITY_LEVEL;
    throw unsupported(code, `${profile} completes at ${ackBoundary}; no completion coordinator for it is installed`);
  }
  return {
    profile,
    traits,
    ackBoundary,
    walWriter,
    walReader,
    coordinator,
    writesGenerationZeroIndex: ackBoundary !== "STABLE_HEAD",
  };
}

function unsupported(code: ErrorCode, message: string): NereusError {
  return new NereusError(code, message, { retryable: false });
}
