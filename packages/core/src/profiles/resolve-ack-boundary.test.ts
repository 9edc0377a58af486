import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  type AppendAckBoundary,
  type AppendCompletionPolicy,
  CANONICAL_STORAGE_PROFILES,
  type DurabilityLevel,
  type StorageProfile,
} from "../domain/storage-profile.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { profileTraits } from "./profile-traits.js";
import { resolveAckBoundary } from "./resolve-ack-boundary.js";

const DURABILITIES = [undefined, "WAL_DURABLE", "WAL_DURABLE_AND_INDEX_COMMITTED"] as const;
const POLICIES = [
  undefined,
  "PROFILE_DEFAULT",
  "STABLE_HEAD",
  "GENERATION_ZERO_INDEX",
  "REQUIRED_OBJECT_GENERATION",
] as const;

// SH = STABLE_HEAD, G0 = GENERATION_ZERO_VISIBLE, RO = REQUIRED_OBJECT_GENERATION,
// !D = UNSUPPORTED_DURABILITY_LEVEL, !A = INVALID_ARGUMENT.
// Rows: durability (none, WAL_DURABLE, WAL_DURABLE_AND_INDEX_COMMITTED).
// Columns: policy (none, PROFILE_DEFAULT, STABLE_HEAD, GENERATION_ZERO_INDEX, REQUIRED_OBJECT_GENERATION).
const EXPECTED: Readonly<Record<StorageProfile, readonly string[]>> = {
  OBJECT_WAL_SYNC_OBJECT: ["G0 G0 !A G0 !D", "!D !D !D !D !D", "G0 G0 !A G0 !D"],
  OBJECT_WAL_ASYNC_OBJECT: ["SH SH SH G0 RO", "SH SH SH G0 RO", "G0 G0 G0 G0 RO"],
  BOOKKEEPER_WAL_ONLY: ["SH SH SH G0 !D", "SH SH SH G0 !D", "G0 G0 G0 G0 !D"],
  BOOKKEEPER_WAL_ASYNC_OBJECT: ["SH SH SH G0 RO", "SH SH SH G0 RO", "G0 G0 G0 G0 RO"],
  BOOKKEEPER_WAL_SYNC_OBJECT: ["RO RO !A !A RO", "!D !D !D !D !D", "RO RO !A !A RO"],
};

const SHORT: Readonly<Record<AppendAckBoundary, string>> = {
  STABLE_HEAD: "SH",
  GENERATION_ZERO_VISIBLE: "G0",
  REQUIRED_OBJECT_GENERATION: "RO",
};

function outcome(profile: StorageProfile, durability?: DurabilityLevel, policy?: AppendCompletionPolicy): string {
  try {
    return SHORT[resolveAckBoundary(profileTraits(profile), durability, policy)];
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.UNSUPPORTED_DURABILITY_LEVEL)) return "!D";
    if (NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)) return "!A";
    throw error;
  }
}

describe("resolveAckBoundary", () => {
  test.each(CANONICAL_STORAGE_PROFILES)("table for %s", (profile) => {
    const actual = DURABILITIES.map((durability) =>
      POLICIES.map((policy) => outcome(profile, durability, policy)).join(" "),
    );
    expect(actual).toEqual(EXPECTED[profile]);
  });

  test("errors explain the profile minimum", () => {
    expect(() => resolveAckBoundary(profileTraits("BOOKKEEPER_WAL_SYNC_OBJECT"), "WAL_DURABLE")).toThrow(
      "durability WAL_DURABLE is weaker than the minimum WAL_DURABLE_AND_INDEX_COMMITTED of profile BOOKKEEPER_WAL_SYNC_OBJECT",
    );
    expect(() => resolveAckBoundary(profileTraits("OBJECT_WAL_SYNC_OBJECT"), undefined, "STABLE_HEAD")).toThrow(
      "completion policy STABLE_HEAD is weaker than the GENERATION_ZERO_VISIBLE boundary of profile OBJECT_WAL_SYNC_OBJECT",
    );
  });

  test("unknown values from untyped callers are INVALID_ARGUMENT", () => {
    const traits = profileTraits("BOOKKEEPER_WAL_ONLY");
    const invalid = expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT }) as NereusError;
    expect(() => resolveAckBoundary(traits, "FSYNC" as DurabilityLevel)).toThrow(invalid);
    expect(() => resolveAckBoundary(traits, undefined, "ASAP" as AppendCompletionPolicy)).toThrow(invalid);
    expect(() => resolveAckBoundary(traits, "toString" as DurabilityLevel)).toThrow(invalid);
  });

  test("property: a resolved boundary is never weaker than the profile's", () => {
    const rank = { STABLE_HEAD: 0, GENERATION_ZERO_VISIBLE: 1, REQUIRED_OBJECT_GENERATION: 2 } as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...CANONICAL_STORAGE_PROFILES),
        fc.constantFrom(...DURABILITIES),
        fc.constantFrom(...POLICIES),
        (profile, durability, policy) => {
          const traits = profileTraits(profile);
          try {
            const boundary = resolveAckBoundary(traits, durability, policy);
            expect(rank[boundary]).toBeGreaterThanOrEqual(rank[traits.ackBoundary]);
            if (durability === "WAL_DURABLE_AND_INDEX_COMMITTED") expect(rank[boundary]).toBeGreaterThanOrEqual(1);
          } catch (error) {
            expect(NereusError.is(error)).toBe(true);
          }
        },
      ),
    );
  });
});
