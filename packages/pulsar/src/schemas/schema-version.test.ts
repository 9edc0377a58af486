import { ErrorCode } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { thrownError } from "../../test/thrown-error.js";
import { decodeSchemaVersion, encodeSchemaVersion } from "./schema-version.js";

describe("schema version bytes", () => {
  test("8-byte big-endian longs, as Pulsar's LongSchemaVersion", () => {
    expect([...encodeSchemaVersion(0n)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect([...encodeSchemaVersion(258n)]).toEqual([0, 0, 0, 0, 0, 0, 1, 2]);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }), (version) => {
        expect(decodeSchemaVersion(encodeSchemaVersion(version))).toBe(version);
      }),
    );
  });

  test("other lengths and negative versions are refused", () => {
    thrownError(() => decodeSchemaVersion(new Uint8Array(4)), ErrorCode.INVALID_ARGUMENT);
    thrownError(() => decodeSchemaVersion(Uint8Array.of(0xff, 0, 0, 0, 0, 0, 0, 0)), ErrorCode.INVALID_ARGUMENT);
    thrownError(() => encodeSchemaVersion(-1n), ErrorCode.INVALID_ARGUMENT);
  });
});
