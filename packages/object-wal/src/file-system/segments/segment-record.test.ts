import { describe, expect, it } from "vitest";
import {
  MAX_SEGMENT_KEY_BYTES,
  SEGMENT_RECORD_HEAD_BYTES,
  SegmentRecordError,
  decodeSegmentRecordHead,
  encodeSegmentRecordHead,
  segmentRecordKeyLength,
} from "./segment-record.js";

const hex = (value: Uint8Array): string => Buffer.from(value).toString("hex");
const fromHex = (value: string): Uint8Array => Uint8Array.from(Buffer.from(value, "hex"));

// Head CRC32Cs cross-checked with an independent bitwise CRC32C (polynomial 0x82F63B78) over bytes [0, 24) + key.
const PUT_GOLDEN =
  "4e535231" + "01" + "00" + "0005" + "00000003" + "12345678" + "00000000" + "00000000" + "ffc17411" + "77616c2f61";
const DELETE_GOLDEN =
  "4e535231" + "02" + "00" + "0005" + "00000000" + "00000000" + "00000002" + "00001000" + "8be4ffe7" + "77616c2f61";

function failure(bytes: Uint8Array): string {
  try {
    decodeSegmentRecordHead(bytes);
  } catch (error) {
    if (error instanceof SegmentRecordError) return error.reason;
    throw error;
  }
  throw new Error("expected a SegmentRecordError");
}

describe("NSR1 segment records", () => {
  it("encodes a put head to the golden bytes and decodes them back", () => {
    const head = encodeSegmentRecordHead({ kind: "put", key: "wal/a", bodyLength: 3, bodyCrc32c: 0x12345678 });
    expect(hex(head)).toBe(PUT_GOLDEN);
    const withBody = new Uint8Array([...head, 1, 2, 3]);
    expect(decodeSegmentRecordHead(withBody)).toEqual({
      head: { kind: "put", key: "wal/a", bodyLength: 3, bodyCrc32c: 0x12345678 },
      recordBytes: SEGMENT_RECORD_HEAD_BYTES + 5 + 3,
    });
  });

  it("encodes a delete head to the golden bytes and decodes them back", () => {
    const head = encodeSegmentRecordHead({ kind: "delete", key: "wal/a", targetSegment: 2, targetOffset: 4096 });
    expect(hex(head)).toBe(DELETE_GOLDEN);
    expect(decodeSegmentRecordHead(head)).toEqual({
      head: { kind: "delete", key: "wal/a", targetSegment: 2, targetOffset: 4096 },
      recordBytes: SEGMENT_RECORD_HEAD_BYTES + 5,
    });
  });

  it("round-trips multi-byte UTF-8 keys up to the limit", () => {
    const key = "\u00e9".repeat(MAX_SEGMENT_KEY_BYTES / 2);
    const head = encodeSegmentRecordHead({ kind: "put", key, bodyLength: 0, bodyCrc32c: 0 });
    expect(decodeSegmentRecordHead(head).head.key).toBe(key);
    expect(() => encodeSegmentRecordHead({ kind: "put", key: `${key}x`, bodyLength: 0, bodyCrc32c: 0 })).toThrow(
      /1\.\.1024/,
    );
    expect(() => encodeSegmentRecordHead({ kind: "put", key: "", bodyLength: 0, bodyCrc32c: 0 })).toThrow(
      SegmentRecordError,
    );
  });

  it("rejects out-of-range fields when encoding", () => {
    expect(() => encodeSegmentRecordHead({ kind: "put", key: "k", bodyLength: 2 ** 32, bodyCrc32c: 0 })).toThrow(
      /body length/,
    );
    expect(() => encodeSegmentRecordHead({ kind: "put", key: "k", bodyLength: 1, bodyCrc32c: -1 })).toThrow(/CRC32C/);
    expect(() => encodeSegmentRecordHead({ kind: "delete", key: "k", targetSegment: 0, targetOffset: 0 })).toThrow(
      /target segment/,
    );
    expect(() => encodeSegmentRecordHead({ kind: "delete", key: "k", targetSegment: 1, targetOffset: 1.5 })).toThrow(
      /target offset/,
    );
  });

  it("rejects every single flipped bit of the head and key", () => {
    const golden = fromHex(PUT_GOLDEN);
    for (let bit = 0; bit < golden.length * 8; bit++) {
      const mutated = golden.slice();
      mutated[bit >> 3] = (mutated[bit >> 3] as number) ^ (1 << (bit & 7));
      expect(() => decodeSegmentRecordHead(mutated)).toThrow(SegmentRecordError);
    }
  });

  it("names the reason: magic, kind, flags, key length, truncation, CRC, UTF-8, inconsistent fields", () => {
    const golden = fromHex(PUT_GOLDEN);
    const at = (index: number, value: number): Uint8Array => {
      const copy = golden.slice();
      copy[index] = value;
      return copy;
    };
    expect(failure(at(0, 0))).toMatch(/magic is 0x00535231, not NSR1/);
    expect(failure(at(4, 9))).toMatch(/unknown kind 9/);
    expect(failure(at(5, 1))).toMatch(/flags are 1/);
    expect(failure(at(7, 0))).toMatch(/key length 0/);
    expect(failure(golden.subarray(0, 20))).toMatch(/head needs 28 bytes, 20 present/);
    expect(failure(golden.subarray(0, 30))).toMatch(/head and key need 33 bytes, 30 present/);
    expect(failure(at(24, 0))).toMatch(/head CRC32C/);
    expect(() => segmentRecordKeyLength(fromHex("00"))).toThrow(/head needs 28 bytes/);
  });

  it("rejects a key that is not UTF-8 and a put or delete whose fields contradict its kind (valid CRC)", () => {
    const badKey = encodeSegmentRecordHead({ kind: "put", key: "ab", bodyLength: 0, bodyCrc32c: 0 });
    badKey[SEGMENT_RECORD_HEAD_BYTES] = 0xc3;
    badKey[SEGMENT_RECORD_HEAD_BYTES + 1] = 0x28;
    expect(failure(withCrc(badKey))).toMatch(/not valid UTF-8/);
    const putWithTarget = encodeSegmentRecordHead({ kind: "put", key: "k", bodyLength: 1, bodyCrc32c: 1 });
    putWithTarget[19] = 1;
    expect(failure(withCrc(putWithTarget))).toMatch(/a put names a target/);
    const deleteWithBody = encodeSegmentRecordHead({ kind: "delete", key: "k", targetSegment: 1, targetOffset: 0 });
    deleteWithBody[11] = 1;
    expect(failure(withCrc(deleteWithBody))).toMatch(/a delete carries a body/);
    const deleteOfZero = encodeSegmentRecordHead({ kind: "delete", key: "k", targetSegment: 1, targetOffset: 0 });
    deleteOfZero[19] = 0;
    expect(failure(withCrc(deleteOfZero))).toMatch(/target segment 0/);
  });
});

/** Recomputes the head CRC32C of a patched record (so only the patched field is wrong). */
function withCrc(bytes: Uint8Array): Uint8Array {
  const keyLength = (bytes[6] as number) * 256 + (bytes[7] as number);
  const fixedAndKey = new Uint8Array([
    ...bytes.subarray(0, 24),
    ...bytes.subarray(SEGMENT_RECORD_HEAD_BYTES, SEGMENT_RECORD_HEAD_BYTES + keyLength),
  ]);
  const crc = crc32cOf(fixedAndKey);
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(24, crc);
  return copy;
}

/** Bitwise CRC32C, independent of the implementation under test. */
function crc32cOf(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
