import { ErrorCode, NereusError, fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ENTRY_FRAME_OVERHEAD, decodeEntryFrame, encodeEntryFrame } from "./entry-frame.js";

// "NBKE1", recordCount 3, payloadLength 2, CRC32C("hi"), "hi".
const GOLDEN_FRAME = ["4e424b4531", "00000003", "00000002", "f59dd9c2", "6869"].join("");

function checksumError(action: () => unknown): void {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(
    NereusError.hasCode(caught, ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH),
    `expected a checksum mismatch, got ${String(caught)}`,
  ).toBe(true);
}

describe("entry frame (NBKE1)", () => {
  test("golden bytes", () => {
    const frame = encodeEntryFrame(3, new TextEncoder().encode("hi"));
    expect(toHex(frame)).toBe(GOLDEN_FRAME);
    expect(frame).toHaveLength(ENTRY_FRAME_OVERHEAD + 2);
    const decoded = decodeEntryFrame(fromHex(GOLDEN_FRAME), "1:0");
    expect(decoded.recordCount).toBe(3);
    expect(new TextDecoder().decode(decoded.payload)).toBe("hi");
  });

  test("an empty payload is legal", () => {
    expect(decodeEntryFrame(encodeEntryFrame(1, new Uint8Array(0)), "1:0")).toEqual({
      recordCount: 1,
      payload: new Uint8Array(0),
    });
  });

  test("every truncation, bit flip and trailing byte is a checksum mismatch or a different record count", () => {
    const bytes = fromHex(GOLDEN_FRAME);
    for (let length = 0; length < bytes.length; length++)
      checksumError(() => decodeEntryFrame(bytes.slice(0, length), "1:0"));
    for (let index = 0; index < bytes.length; index++) {
      for (let bit = 0; bit < 8; bit++) {
        const flipped = bytes.slice();
        flipped[index] = (flipped[index] ?? 0) ^ (1 << bit);
        // The CRC covers the payload only (docs/architecture.md §8.5); a flipped record count that stays positive decodes to a
        // different count, which the read path rejects against the commit's entry record counts.
        const inCount = index >= 5 && index < 9;
        if (inCount && (flipped[5] ?? 0) < 0x80 && !flipped.slice(5, 9).every((byte) => byte === 0)) {
          expect(decodeEntryFrame(flipped, "1:0").recordCount).not.toBe(3);
        } else {
          checksumError(() => decodeEntryFrame(flipped, "1:0"));
        }
      }
    }
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    checksumError(() => decodeEntryFrame(longer, "1:0"));
  });

  test("encode refuses record counts outside 1..2^31-1", () => {
    for (const count of [0, -1, 1.5, 2 ** 31])
      expect(() => encodeEntryFrame(count, new Uint8Array(1))).toThrow(/record count/);
  });

  test("property: round trip", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0x7fff_ffff }), fc.uint8Array({ maxLength: 300 }), (count, payload) => {
        const decoded = decodeEntryFrame(encodeEntryFrame(count, payload), "x");
        expect(decoded.recordCount).toBe(count);
        expect(decoded.payload).toEqual(payload);
      }),
    );
  });
});
