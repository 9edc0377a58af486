import { CANONICAL_STORAGE_PROFILES } from "@nereus/core";
import { describe, expect, test } from "vitest";
import { materializes } from "./partition-storage.js";

describe("materializes", () => {
  test("follows the broker's materialization mode: all Object WAL profiles, only the async one, or none", () => {
    const table = Object.fromEntries(
      CANONICAL_STORAGE_PROFILES.map((profile) => [
        profile,
        (["all", "async", "off"] as const).map((mode) => materializes(mode, profile)),
      ]),
    );
    expect(table).toEqual({
      OBJECT_WAL_SYNC_OBJECT: [true, false, false],
      OBJECT_WAL_ASYNC_OBJECT: [true, true, false],
      BOOKKEEPER_WAL_ONLY: [false, false, false],
      BOOKKEEPER_WAL_ASYNC_OBJECT: [false, false, false],
      BOOKKEEPER_WAL_SYNC_OBJECT: [false, false, false],
    });
  });
});
