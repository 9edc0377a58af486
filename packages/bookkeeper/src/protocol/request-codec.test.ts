import { fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AddFlag, type BookieRequest, ReadFlag } from "./bookie-messages.js";
import { decodeRequest, encodeRequest, encodeRequestFrame } from "./request-codec.js";

// SHA-1("ledger"): the master key of an empty password.
const KEY_HEX = "850bf1071c5e3d8c24235676f8816ae0cbe2f14f";
const KEY = fromHex(KEY_HEX);

function hexOf(request: BookieRequest): string {
  const chunks = encodeRequest(request);
  return chunks.map(toHex).join("");
}

// Golden bytes, hand-computed from BookkeeperProtocol.proto field numbers (header 1; read 100, add 101,
// writeLac 103, readLac 104, getBookieInfo 105; field 100 inside Read/AddRequest is the flag).
describe("encodeRequest golden bytes", () => {
  it("AddRequest", () => {
    const hex = hexOf({
      txnId: 1n,
      body: {
        type: "add",
        ledgerId: 7n,
        entryId: 0,
        masterKey: KEY,
        body: [new Uint8Array([0xaa]), new Uint8Array([0xbb])],
      },
    });
    expect(hex).toBe(`0a06080310021801` + `aa061e` + `0807` + `1000` + `1a14${KEY_HEX}` + `2202aabb`);
  });

  it("AddRequest with RECOVERY_ADD, header priority and a ledger id above 2^53", () => {
    const hex = hexOf({
      txnId: 300n,
      priority: 1,
      body: {
        type: "add",
        ledgerId: 1n << 62n,
        entryId: 5,
        masterKey: KEY,
        body: [new Uint8Array([1, 2, 3])],
        flag: AddFlag.RECOVERY_ADD,
      },
    });
    expect(hex).toBe(
      `0a090803100218ac022001` +
        `aa062a` +
        `08808080808080808040` +
        `1005` +
        `1a14${KEY_HEX}` +
        `2203010203` +
        `a00601`,
    );
  });

  it("fencing ReadRequest of the last entry (-1 takes ten varint bytes)", () => {
    const hex = hexOf({
      txnId: 2n,
      body: { type: "read", ledgerId: 7n, entryId: -1, masterKey: KEY, flag: ReadFlag.FENCE_LEDGER },
    });
    expect(hex).toBe(`0a06080310011802` + `a20626` + `0807` + `10ffffffffffffffffff01` + `1a14${KEY_HEX}` + `a00601`);
  });

  it("plain ReadRequest", () => {
    expect(hexOf({ txnId: 9n, body: { type: "read", ledgerId: 7n, entryId: 3 } })).toBe(
      `0a06080310011809` + `a20604` + `08071003`,
    );
  });

  it("ReadLacRequest", () => {
    expect(hexOf({ txnId: 3n, body: { type: "readLac", ledgerId: 300n } })).toBe(
      `0a06080310071803` + `c20603` + `08ac02`,
    );
  });

  it("WriteLacRequest", () => {
    const hex = hexOf({
      txnId: 4n,
      body: { type: "writeLac", ledgerId: 7n, lac: 5, masterKey: KEY, body: new Uint8Array([1, 2]) },
    });
    expect(hex).toBe(`0a06080310061804` + `ba061e` + `0807` + `1005` + `1a14${KEY_HEX}` + `22020102`);
  });

  it("GetBookieInfoRequest", () => {
    expect(hexOf({ txnId: 5n, body: { type: "getBookieInfo", requested: 3 } })).toBe(
      `0a06080310081805` + `ca0602` + `0803`,
    );
  });

  it("frames with a big-endian int32 length of the payload only", () => {
    const frame = encodeRequestFrame({ txnId: 3n, body: { type: "readLac", ledgerId: 300n } });
    expect(frame.map(toHex).join("")).toBe(`0000000e` + `0a06080310071803c2060308ac02`);
  });
});

describe("decodeRequest", () => {
  const int64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
  const entryId = fc.integer({ min: -1, max: Number.MAX_SAFE_INTEGER });
  const bytes = fc.uint8Array({ maxLength: 300 });
  const body = fc.oneof(
    fc.record({
      type: fc.constant("add" as const),
      ledgerId: int64,
      entryId,
      masterKey: bytes,
      body: fc.array(bytes, { maxLength: 3 }),
    }),
    fc.record(
      {
        type: fc.constant("read" as const),
        ledgerId: int64,
        entryId,
        masterKey: bytes,
        flag: fc.constantFrom(ReadFlag.FENCE_LEDGER, ReadFlag.ENTRY_PIGGYBACK),
        previousLac: entryId,
        timeOutMs: fc.nat(),
      },
      { requiredKeys: ["type", "ledgerId", "entryId"] },
    ),
    fc.record({ type: fc.constant("readLac" as const), ledgerId: int64 }),
    fc.record({ type: fc.constant("writeLac" as const), ledgerId: int64, lac: entryId, masterKey: bytes, body: bytes }),
  );

  it("round-trips every request shape", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), body, (txnId, requestBody) => {
        const encoded = encodeRequest({ txnId, body: requestBody })
          .map((chunk) => Array.from(chunk))
          .flat();
        const decoded = decodeRequest(Uint8Array.from(encoded));
        const expected =
          requestBody.type === "add"
            ? { ...requestBody, body: [Uint8Array.from(requestBody.body.flatMap((part) => Array.from(part)))] }
            : requestBody;
        expect(decoded).toEqual({ txnId, body: expected });
      }),
    );
  });

  it("rejects a request without a header or with a mismatched operation", () => {
    expect(() => decodeRequest(fromHex("c2060308ac02"))).toThrowError(/header/);
    expect(() => decodeRequest(fromHex("0a06080310011803c2060308ac02"))).toThrowError(/does not match/);
  });
});
