import { describe, expect, it } from "vitest";
import { GenerationZeroVisibleCoordinator } from "../completion/generation-zero-visible-coordinator.js";
import { StableHeadCoordinator } from "../completion/stable-head-coordinator.js";
import { CANONICAL_STORAGE_PROFILES } from "../domain/storage-profile.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { MemoryWalProvider } from "../testing/memory-wal-provider.js";
import { ProviderRegistry } from "./provider-registry.js";
import { resolveExecutionPlan } from "./resolve-execution-plan.js";

const objectWal = new MemoryWalProvider({ walKind: "OBJECT" });
const bookkeeperWal = new MemoryWalProvider({ walKind: "BOOKKEEPER" });
const requiredObjectGeneration = { boundary: "REQUIRED_OBJECT_GENERATION" as const, complete: async () => undefined };
const everything = new ProviderRegistry({
  walWriters: [objectWal, bookkeeperWal],
  walReaders: [objectWal, bookkeeperWal],
  completionCoordinators: [
    new StableHeadCoordinator(),
    new GenerationZeroVisibleCoordinator(),
    requiredObjectGeneration,
  ],
});
const codeOf = (action: () => unknown): string | undefined => {
  try {
    action();
  } catch (error) {
    return NereusError.is(error) ? error.code : "other";
  }
  return undefined;
};

describe("resolveExecutionPlan", () => {
  it("resolves every canonical profile when all providers are installed", () => {
    const boundaries = CANONICAL_STORAGE_PROFILES.map((profile) => {
      const plan = resolveExecutionPlan(everything, profile);
      expect(plan.walWriter.walKind).toBe(plan.traits.primaryWal);
      expect(plan.writesGenerationZeroIndex).toBe(plan.ackBoundary !== "STABLE_HEAD");
      return [profile, plan.ackBoundary];
    });
    expect(Object.fromEntries(boundaries)).toEqual({
      OBJECT_WAL_SYNC_OBJECT: "GENERATION_ZERO_VISIBLE",
      OBJECT_WAL_ASYNC_OBJECT: "STABLE_HEAD",
      BOOKKEEPER_WAL_ONLY: "STABLE_HEAD",
      BOOKKEEPER_WAL_ASYNC_OBJECT: "STABLE_HEAD",
      BOOKKEEPER_WAL_SYNC_OBJECT: "REQUIRED_OBJECT_GENERATION",
    });
  });

  it("names the missing writer, reader or coordinator", () => {
    const noBookKeeper = new ProviderRegistry({
      walWriters: [objectWal],
      walReaders: [objectWal],
      completionCoordinators: [new StableHeadCoordinator()],
    });
    expect(codeOf(() => resolveExecutionPlan(noBookKeeper, "BOOKKEEPER_WAL_ONLY"))).toBe(
      ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
    );
    const noReader = new ProviderRegistry({
      walWriters: [bookkeeperWal],
      walReaders: [],
      completionCoordinators: [new StableHeadCoordinator()],
    });
    expect(() => resolveExecutionPlan(noReader, "BOOKKEEPER_WAL_ONLY")).toThrow(/reader for BOOKKEEPER_ENTRY_RANGE/);
    expect(codeOf(() => resolveExecutionPlan(noBookKeeper, "OBJECT_WAL_SYNC_OBJECT"))).toBe(
      ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
    );
    expect(
      codeOf(() => resolveExecutionPlan(noBookKeeper, "OBJECT_WAL_ASYNC_OBJECT", "WAL_DURABLE_AND_INDEX_COMMITTED")),
    ).toBe(ErrorCode.UNSUPPORTED_DURABILITY_LEVEL);
  });

  it("refuses duplicate providers at wiring time", () => {
    expect(
      codeOf(
        () =>
          new ProviderRegistry({
            walWriters: [objectWal, new MemoryWalProvider()],
            walReaders: [],
            completionCoordinators: [],
          }),
      ),
    ).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(
      codeOf(
        () =>
          new ProviderRegistry({
            walWriters: [],
            walReaders: [],
            completionCoordinators: [new StableHeadCoordinator(), new StableHeadCoordinator()],
          }),
      ),
    ).toBe(ErrorCode.INVALID_ARGUMENT);
  });
});
