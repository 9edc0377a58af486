import { ErrorCode, NereusError, fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDigestManager } from "./digest-manager.js";
import type { DigestType } from "./digest-type.js";
import { packageEntry, packageLac, unpackEntry, unpackLac } from "./entry-codec.js";
import { EMPTY_PASSWORD_MASTER_KEY_HEX, deriveMasterKey } from "./master-key.js";

// Golden values computed independently (Python hashlib/zlib/hmac and a bitwise CRC32C) from the layout
// [ledgerId i64][entryId i64][lac i64][length i64][digest][payload], digest over header ‖ payload.
const HELLO_HEADER = "0000000000000001" + "0000000000000000" + "ffffffffffffffff" + "0000000000000005";
const HELLO = new TextEncoder().encode("hello");
const WIDE_HEADER = "0102030405060708" + "000000000000002a" + "0000000000000029" + "00000000000003e8";
const WIDE = Uint8Array.from({ length: 10 }, (_, index) => index);

const GOLDEN: ReadonlyArray<readonly [DigestType, string, string]> = [
  ["CRC32C", "e3a5f74d", "4a86e488"],
  ["CRC32", "0000000030a56872", "0000000066d49d37"],
  ["HMAC", "985ff33d73766e6ab95e91f14097a562ffc64ae8", "5a44dc8201915ecfc523daf911bacb4292350bb7"],
  ["DUMMY", "", ""],
];

describe("master key", () => {
  it("is SHA-1 over 'ledger' followed by the password", () => {
    expect(toHex(deriveMasterKey(""))).toBe(EMPTY_PASSWORD_MASTER_KEY_HEX);
    expect(toHex(deriveMasterKey("secret"))).toBe("e793cbc379107648537183605cd361d3bb789a39");
    expect(toHex(deriveMasterKey(new TextEncoder().encode("secret")))).toBe("e793cbc379107648537183605cd361d3bb789a39");
  });
});

describe("entry packaging", () => {
  for (const [type, helloDigest, wideDigest] of GOLDEN) {
    it(`${type}: golden bytes`, () => {
      const digest = createDigestManager(type, "secret");
      const [head, payload] = packageEntry(
        { ledgerId: 1n, entryId: 0, lastAddConfirmed: -1, length: 5 },
        HELLO,
        digest,
      );
      expect(toHex(head)).toBe(HELLO_HEADER + helloDigest);
      expect(payload).toBe(HELLO);
      const [wideHead] = packageEntry(
        { ledgerId: 0x0102030405060708n, entryId: 42, lastAddConfirmed: 41, length: 1000 },
        WIDE,
        digest,
      );
      expect(toHex(wideHead)).toBe(WIDE_HEADER + wideDigest);
    });
  }

  it("verifies golden bodies and returns the header facts and a payload view", () => {
    const body = fromHex(HELLO_HEADER + "e3a5f74d" + toHex(HELLO));
    const entry = unpackEntry(body, createDigestManager("CRC32C", ""), { ledgerId: 1n, entryId: 0 });
    expect(entry).toMatchObject({ ledgerId: 1n, entryId: 0, lastAddConfirmed: -1, length: 5 });
    expect(entry.payload).toEqual(HELLO);
    expect(entry.payload.buffer).toBe(body.buffer);
  });

  it("rejects corrupt bodies, wrong ledgers, wrong entry ids, wrong HMAC keys and short bodies", () => {
    const crc = createDigestManager("CRC32C", "");
    const good = fromHex(HELLO_HEADER + "e3a5f74d" + toHex(HELLO));
    const flipped = good.slice();
    flipped[good.length - 1] = (flipped[good.length - 1] ?? 0) ^ 1;
    const expectMismatch = (run: () => unknown, pattern: RegExp) => {
      try {
        run();
        expect.fail("no error");
      } catch (error) {
        expect(NereusError.hasCode(error, ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH)).toBe(true);
        expect(String(error)).toMatch(pattern);
      }
    };
    expectMismatch(() => unpackEntry(flipped, crc, { ledgerId: 1n, entryId: 0 }), /CRC32C digest mismatch/);
    expectMismatch(() => unpackEntry(good, crc, { ledgerId: 2n, entryId: 0 }), /ledger 1/);
    expectMismatch(() => unpackEntry(good, crc, { ledgerId: 1n, entryId: 3 }), /carries id 0/);
    expectMismatch(() => unpackEntry(good.subarray(0, 35), crc, { ledgerId: 1n }), /shorter/);
    const [head, payload] = packageEntry(
      { ledgerId: 1n, entryId: 0, lastAddConfirmed: -1, length: 5 },
      HELLO,
      createDigestManager("HMAC", "a"),
    );
    const macBody = Uint8Array.from([...head, ...payload]);
    expectMismatch(
      () => unpackEntry(macBody, createDigestManager("HMAC", "b"), { ledgerId: 1n }),
      /HMAC digest mismatch/,
    );
  });

  it("round-trips any entry under every digest type", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<DigestType>("CRC32", "CRC32C", "HMAC", "DUMMY"),
        fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
        fc.nat(),
        fc.uint8Array({ maxLength: 300 }),
        (type, ledgerId, entryId, payload) => {
          const digest = createDigestManager(type, "pw");
          const header = { ledgerId, entryId, lastAddConfirmed: entryId - 1, length: payload.length + entryId };
          const body = Uint8Array.from(packageEntry(header, payload, digest).flatMap((part) => Array.from(part)));
          expect(unpackEntry(body, digest, { ledgerId, entryId })).toEqual({ ...header, payload });
        },
      ),
    );
  });
});

describe("LAC record", () => {
  it("packages [ledgerId][lac][digest] with golden bytes and verifies it", () => {
    const crc = createDigestManager("CRC32C", "");
    const record = packageLac(7n, 5, crc);
    expect(toHex(record)).toBe("0000000000000007" + "0000000000000005" + "b0e140ec");
    expect(unpackLac(record, crc, 7n)).toBe(5);
    expect(() => unpackLac(record, crc, 8n)).toThrowError(/ledger 7/);
  });
});
