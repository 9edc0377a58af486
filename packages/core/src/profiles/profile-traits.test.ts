import { describe, expect, test } from "vitest";
import { CANONICAL_STORAGE_PROFILES, type StorageProfile } from "../domain/storage-profile.js";
import { ErrorCode } from "../errors/error-code.js";
import type { NereusError } from "../errors/nereus-error.js";
import { profileTraits } from "./profile-traits.js";

describe("profileTraits", () => {
  test("table (docs/architecture.md §6)", () => {
    const rows = CANONICAL_STORAGE_PROFILES.map((profile) => {
      const t = profileTraits(profile);
      return [
        t.profile,
        t.primaryWal,
        t.defaultDurability,
        t.ackBoundary,
        t.asyncObjectMaterialization,
        t.syncObjectMaterialization,
      ];
    });
    expect(rows).toEqual([
      ["OBJECT_WAL_SYNC_OBJECT", "OBJECT", "WAL_DURABLE_AND_INDEX_COMMITTED", "GENERATION_ZERO_VISIBLE", false, false],
      ["OBJECT_WAL_ASYNC_OBJECT", "OBJECT", "WAL_DURABLE", "STABLE_HEAD", true, false],
      ["BOOKKEEPER_WAL_ONLY", "BOOKKEEPER", "WAL_DURABLE", "STABLE_HEAD", false, false],
      ["BOOKKEEPER_WAL_ASYNC_OBJECT", "BOOKKEEPER", "WAL_DURABLE", "STABLE_HEAD", true, false],
      [
        "BOOKKEEPER_WAL_SYNC_OBJECT",
        "BOOKKEEPER",
        "WAL_DURABLE_AND_INDEX_COMMITTED",
        "REQUIRED_OBJECT_GENERATION",
        false,
        true,
      ],
    ]);
  });

  test("traits are frozen", () => {
    expect(Object.isFrozen(profileTraits("BOOKKEEPER_WAL_ONLY"))).toBe(true);
  });

  test("the alias and unknown values are not canonical profiles", () => {
    for (const bad of ["OBJECT_WAL", "toString", "NOPE"]) {
      expect(() => profileTraits(bad as StorageProfile)).toThrow(
        expect.objectContaining({ code: ErrorCode.UNSUPPORTED_STORAGE_PROFILE }) as NereusError,
      );
    }
  });
});
