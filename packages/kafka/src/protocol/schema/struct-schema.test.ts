// The schema layer on a small made-up message: in-line fields per version, nullability per version, defaults for
// absent fields, tagged fields (left off the wire at their default), unknown tags preserved, flexible encodings.
import { toHex } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { expectDecodeError, expectInvalidArgument, hex } from "../../../test/hex.js";
import { arrayOf } from "./array-type.js";
import { describeSchema } from "./describe-schema.js";
import { field, nullableField } from "./field-spec.js";
import { message } from "./message-schema.js";
import { int16, int32, int64, int64BigInt, string } from "./scalar-types.js";
import { struct } from "./struct-schema.js";
import { formatVersionRange, parseVersionRange } from "./version-range.js";

const item = struct("Item", {
  id: field(int32),
  label: nullableField(string, { versions: "1+", nullableVersions: "2+", default: null }),
});

const Sample = message({
  name: "SampleRequest",
  apiKey: 999,
  type: "request",
  validVersions: "0-3",
  flexibleVersions: "3+",
  fields: {
    code: field(int16),
    items: field(arrayOf(item)),
    limit: field(int64, { versions: "2+", default: -1 }),
    producerId: field(int64BigInt, { versions: "3+", tag: 0, taggedVersions: "3+", default: -1n }),
    note: nullableField(string, {
      versions: "3+",
      nullableVersions: "3+",
      tag: 1,
      taggedVersions: "3+",
      default: null,
    }),
  },
});

describe("version ranges", () => {
  it("parses the spec notation", () => {
    for (const spec of ["0+", "3-7", "5", "none"]) expect(formatVersionRange(parseVersionRange(spec))).toBe(spec);
    expect(() => parseVersionRange("7-3")).toThrow();
    expect(() => parseVersionRange("x")).toThrow();
  });
});

describe("struct and message schemas", () => {
  it("encodes only the fields of the version and fills defaults when decoding", () => {
    const value = { code: 7, items: [{ id: 1, label: "a" }], limit: 99, producerId: 5n, note: "n" };
    const v0 = Sample.encode(value, 0);
    expect(toHex(v0)).toBe(toHex(hex("0007  00000001  00000001")));
    expect(Sample.decode(v0, 0)).toEqual({
      code: 7,
      items: [{ id: 1, label: null }],
      limit: -1,
      producerId: -1n,
      note: null,
    });
    const v2 = Sample.encode({ ...value, items: [{ id: 1, label: null }] }, 2);
    expect(toHex(v2)).toBe(toHex(hex("0007  00000001  00000001 ffff  0000000000000063")));
  });

  it("uses compact encodings and a tagged-field section in flexible versions", () => {
    const bytes = Sample.encode({ code: 7, items: [{ id: 1, label: "a" }], limit: 2, producerId: 5n, note: null }, 3);
    expect(toHex(bytes)).toBe(
      toHex(
        hex(`
          0007                       # code
          02                         # items: compact length 1+1
            00000001 02 61 00        #   id, label "a", no tags
          0000000000000002           # limit
          01 00 08 0000000000000005  # one tagged field: tag 0 producerId (note is at its default)
        `),
      ),
    );
    expect(Sample.decode(bytes, 3)).toEqual({
      code: 7,
      items: [{ id: 1, label: "a" }],
      limit: 2,
      producerId: 5n,
      note: null,
    });
  });

  it("keeps unknown tags raw and writes them back", () => {
    const bytes = hex("0007 01 0000000000000002  02 01 02 0261  07 01 ee");
    const decoded = Sample.decode(bytes, 3);
    expect(decoded.note).toBe("a");
    expect(decoded.unknownTaggedFields).toEqual([{ tag: 7, data: hex("ee") }]);
    expect(toHex(Sample.encode(decoded, 3))).toBe(toHex(bytes));
  });

  it("rejects null where the version forbids it, a malformed tagged field and trailing bytes", () => {
    expectDecodeError(() => Sample.decode(hex("0007 00000001 00000001 ffff"), 1));
    expectInvalidArgument(() =>
      Sample.encode({ code: 1, items: [{ id: 1, label: null }], limit: 0, producerId: 0n, note: null }, 1),
    );
    expectDecodeError(() => Sample.decode(hex("0007 01 0000000000000002 01 00 02 0000"), 3));
    expectDecodeError(() => Sample.decode(hex("0007 00000000 00"), 0));
    expectInvalidArgument(() => Sample.encode(Sample.body.defaultValue(), 4));
  });

  it("renders its grammar", () => {
    expect(describeSchema(Sample)).toEqual([
      "SampleRequest (api key 999), v0-3, flexible v3+",
      "  code: int16",
      "  items: []Item",
      "    id: int32",
      "    label: string (v1+, nullable v2+)",
      "  limit: int64 (v2+)",
      "  producerId: int64 (v3+, tag 0 v3+)",
      "  note: string (v3+, nullable v3+, tag 1 v3+)",
    ]);
  });
});
