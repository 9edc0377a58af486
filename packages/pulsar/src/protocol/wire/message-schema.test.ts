import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectDecodeError, expectInvalidArgument, hex } from "../../../test/hex.js";
import { arbitraryOf } from "../../../test/proto-arbitrary.js";
import { optional, repeated, required } from "./field-spec.js";
import { MAX_MESSAGE_DEPTH, defineMessage, lazyMessage, type MessageSchema } from "./message-schema.js";
import { bool, bytes, double, int32, int64, string, uint32, uint64 } from "./proto-type.js";

interface Sample {
  readonly id: bigint;
  readonly name?: string;
  readonly count?: number;
  readonly words?: readonly bigint[];
  readonly flag?: boolean;
  readonly data?: Uint8Array;
  readonly size?: number;
  readonly rate?: number;
  readonly child?: Sample;
}

const SampleCodec: MessageSchema<Sample> = defineMessage<Sample>("Sample", {
  id: required(1, uint64),
  name: optional(2, string),
  count: optional(3, int32),
  words: repeated(4, int64),
  flag: optional(5, bool),
  data: optional(6, bytes),
  size: optional(7, uint32),
  rate: optional(8, double),
  child: optional(
    9,
    lazyMessage("Sample", () => SampleCodec),
  ),
});

describe("message schema (proto2 semantics)", () => {
  it("encodes fields in number order, absent optional fields not at all", () => {
    // id=1 (08 01), count=-1 as a ten-byte varint (18 ff..01), words=[2] unpacked (20 02), name="a" sits after id.
    expect(SampleCodec.encode({ count: -1, words: [2n], name: "a", id: 1n })).toEqual(
      hex("0801  12 0161  18 ffffffffffffffffff01  2002"),
    );
    expect(SampleCodec.encode({ id: 0n })).toEqual(hex("0800"));
  });

  it("keeps presence: absent optional fields decode as absent, present defaults as present", () => {
    expect(SampleCodec.decode(hex("0805"))).toEqual({ id: 5n });
    expect(SampleCodec.decode(hex("0805 1800 2800"))).toStrictEqual({ id: 5n, count: 0, flag: false });
  });

  it("fails on a missing required field and names it", () => {
    const error = expectDecodeError(() => SampleCodec.decode(hex("1800")));
    expect(error.message).toContain("Sample at byte 0: required field id (number 1) is missing");
    expectInvalidArgument(() => SampleCodec.encode({} as Sample));
  });

  it("skips unknown fields of every wire type, and known fields with an unexpected wire type", () => {
    const unknown = hex(
      "f807 05  # field 127 varint\n" +
        "f907 0102030405060708  # field 127 fixed64\n" +
        "fa07 02 aabb  # field 127 bytes\n" +
        "fd07 01020304  # field 127 fixed32\n" +
        "fb07 0801 fc07  # field 127 group holding a varint\n" +
        "10 05  # field 2 (a string) as a varint: skipped\n" +
        "0807",
    );
    expect(SampleCodec.decode(unknown)).toStrictEqual({ id: 7n });
  });

  it("accepts repeated scalars packed or unpacked, in any mix, and keeps the last of a repeated singular field", () => {
    expect(SampleCodec.decode(hex("0801 2001 22 02 0203 2004 1801 1802"))).toStrictEqual({
      id: 1n,
      words: [1n, 2n, 3n, 4n],
      count: 2,
    });
  });

  it("reports truncation and bad varints with the field and the byte offset", () => {
    expect(expectDecodeError(() => SampleCodec.decode(hex("0801 12 05 61"))).message).toMatch(
      /Sample\.name at byte \d+: premature EOF/,
    );
    expect(expectDecodeError(() => SampleCodec.decode(hex("08 ffffffffffffffffffff 01"))).message).toMatch(
      /Sample\.id at byte \d+: invalid varint/,
    );
    expect(expectDecodeError(() => SampleCodec.decode(hex("0801 41 0102"))).message).toMatch(/Sample\.rate/);
    expectDecodeError(() => SampleCodec.decode(hex("0801 0c")));
  });

  it("names nested failures by their absolute byte offset", () => {
    // child (field 9, at byte 2) holds a message whose id is missing.
    const error = expectDecodeError(() => SampleCodec.decode(hex("0801 4a02 1800"), 100));
    expect(error.message).toContain("Sample at byte 104: required field id");
  });

  it("rejects malformed UTF-8 and refuses to encode lone surrogates", () => {
    expect(expectDecodeError(() => SampleCodec.decode(hex("0801 1202 c328"))).message).toContain("Sample.name");
    expectInvalidArgument(() => SampleCodec.encode({ id: 1n, name: "\ud800" }));
  });

  it("refuses values a field cannot carry, naming the field", () => {
    expect(expectInvalidArgument(() => SampleCodec.encode({ id: -1n })).message).toContain("Sample.id (uint64)");
    expectInvalidArgument(() => SampleCodec.encode({ id: 1n << 64n }));
    expectInvalidArgument(() => SampleCodec.encode({ id: 1n, count: 2 ** 31 }));
    expectInvalidArgument(() => SampleCodec.encode({ id: 1n, size: -1 }));
    expectInvalidArgument(() => SampleCodec.encode({ id: 1n, words: [1n << 63n] }));
    expectInvalidArgument(() => SampleCodec.encode({ id: 1 as unknown as bigint }));
    expectInvalidArgument(() => SampleCodec.encode({ id: 1n, words: 3n as unknown as bigint[] }));
  });

  it("stops at the nesting limit", () => {
    let value: Sample = { id: 1n };
    for (let level = 0; level <= MAX_MESSAGE_DEPTH; level += 1) value = { id: 1n, child: value };
    expect(expectDecodeError(() => SampleCodec.decode(SampleCodec.encode(value))).message).toContain(
      `nested more than ${String(MAX_MESSAGE_DEPTH)} deep`,
    );
    const withinLimit: Sample = { id: 2n, child: { id: 3n, child: { id: 4n } } };
    expect(SampleCodec.decode(SampleCodec.encode(withinLimit))).toEqual(withinLimit);
  });

  it("round-trips every value, and re-encodes decoded bytes identically", () => {
    fc.assert(
      fc.property(arbitraryOf(SampleCodec), (value) => {
        const encoded = SampleCodec.encode(value);
        const decoded = SampleCodec.decode(encoded);
        expect(decoded).toEqual(value);
        expect(SampleCodec.encode(decoded)).toEqual(encoded);
      }),
    );
  });

  it("decodes bytes fields as views of the input", () => {
    const input = hex("0801 3202 abcd");
    const decoded = SampleCodec.decode(input);
    expect(decoded.data?.buffer).toBe(input.buffer);
  });
});
