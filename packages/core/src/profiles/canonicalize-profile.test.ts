import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CANONICAL_STORAGE_PROFILES } from "../domain/storage-profile.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { canonicalizeProfile } from "./canonicalize-profile.js";

describe("canonicalizeProfile", () => {
  test("canonical names map to themselves; OBJECT_WAL is the sync-object alias", () => {
    expect(CANONICAL_STORAGE_PROFILES.map(canonicalizeProfile)).toEqual([...CANONICAL_STORAGE_PROFILES]);
    expect(canonicalizeProfile("OBJECT_WAL")).toBe("OBJECT_WAL_SYNC_OBJECT");
  });

  test("unknown names fail with UNSUPPORTED_STORAGE_PROFILE listing the valid names", () => {
    for (const bad of ["object_wal", "OBJECT_WAL_SYNC", "", " BOOKKEEPER_WAL_ONLY", "constructor", "__proto__"]) {
      let caught: unknown;
      try {
        canonicalizeProfile(bad);
      } catch (error) {
        caught = error;
      }
      expect(NereusError.hasCode(caught, ErrorCode.UNSUPPORTED_STORAGE_PROFILE), bad).toBe(true);
      const message = (caught as NereusError).message;
      for (const name of [...CANONICAL_STORAGE_PROFILES, "OBJECT_WAL"]) expect(message).toContain(name);
      expect((caught as NereusError).retryable).toBe(false);
    }
  });

  test("property: idempotent on its results", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CANONICAL_STORAGE_PROFILES, "OBJECT_WAL"), (name) => {
        const canonical = canonicalizeProfile(name);
        expect(canonicalizeProfile(canonical)).toBe(canonical);
        expect(CANONICAL_STORAGE_PROFILES).toContain(canonical);
      }),
    );
  });
});
