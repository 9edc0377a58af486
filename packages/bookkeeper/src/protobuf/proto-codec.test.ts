import { NereusError, fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProtoReader } from "./proto-reader.js";
import { ProtoWriter } from "./proto-writer.js";
import { WireType } from "./wire-type.js";

describe("ProtoWriter / ProtoReader", () => {
  it("encodes varints, negatives, bytes, strings and nested messages to the protobuf wire format", () => {
    const nested = new ProtoWriter().int32(1, 150);
    const bytes = new ProtoWriter()
      .uint64(1, 1)
      .int64(2, -1)
      .uint64(3, 300)
      .bytes(4, new Uint8Array([0xde, 0xad]))
      .string(5, "hé")
      .message(6, nested)
      .fixed64(7, 1n)
      .bool(8, true)
      .uint64(100, 0)
      .finish();
    expect(toHex(bytes)).toBe(
      "0801" +
        "10ffffffffffffffffff01" +
        "18ac02" +
        "2202dead" +
        "2a0368c3a9" +
        "3203089601" +
        "390100000000000000" +
        "4001" +
        "a00600",
    );
  });

  it("reads back what it wrote and skips unknown fields of every wire type, groups included", () => {
    const bytes = fromHex(
      // field 1 varint 5, field 2 fixed32, field 3 group { field 1 varint, field 2 bytes }, field 4 fixed64, field 9 bytes
      "0805" + "1501020304" + "1b" + "0801" + "12026869" + "1c" + "210102030405060708" + "4a03616263",
    );
    const reader = new ProtoReader(bytes, "test");
    const seen: number[] = [];
    let nine = "";
    for (let tag = reader.next(); tag !== undefined; tag = reader.next()) {
      seen.push(tag.field);
      if (tag.field === 9) nine = reader.string();
      else reader.skip();
    }
    expect(seen).toEqual([1, 2, 3, 4, 9]);
    expect(nine).toBe("abc");
  });

  it("rejects truncated input, over-long varints, wire-type mismatches and bad group nesting with DECODE_ERROR", () => {
    const cases = ["08", "08ffffffffffffffffffff01", "0a05aabb", "0d0102", "1b0801", "1c", "0f00"];
    for (const hex of cases) {
      const reader = new ProtoReader(fromHex(hex), "bad");
      expect(() => {
        for (let tag = reader.next(); tag !== undefined; tag = reader.next()) reader.skip();
      }, hex).toThrow(NereusError);
    }
    const reader = new ProtoReader(fromHex("0801"), "mismatch");
    reader.next();
    expect(() => reader.bytes()).toThrowError(/wire type 0, expected length-delimited/);
  });

  it("keeps large byte fields by reference until finished", () => {
    const big = new Uint8Array(1000).fill(7);
    const writer = new ProtoWriter().bytes(1, big);
    expect(writer.chunks()).toContain(big);
    expect(writer.length).toBe(1 + 2 + 1000);
  });

  it("round-trips arbitrary int64, uint64 and byte fields", () => {
    const int64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
    const uint64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
    fc.assert(
      fc.property(
        int64,
        uint64,
        fc.uint8Array({ maxLength: 600 }),
        fc.integer({ min: 1, max: 0x1fff_ffff }),
        (a, b, bytes, field) => {
          const encoded = new ProtoWriter().int64(field, a).uint64(1, b).bytes(2, bytes).fixed64(3, b).finish();
          const reader = new ProtoReader(encoded, "prop");
          expect(reader.next()).toEqual({ field, wireType: WireType.VARINT });
          expect(reader.int64()).toBe(a);
          reader.next();
          expect(reader.uint64()).toBe(b);
          reader.next();
          expect(reader.bytes()).toEqual(bytes);
          reader.next();
          expect(reader.fixed64()).toBe(b);
          expect(reader.next()).toBeUndefined();
        },
      ),
    );
  });
});
