import { fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BookieResponse } from "./bookie-messages.js";
import { OperationType } from "./operation-type.js";
import { decodeResponse, encodeResponse } from "./response-codec.js";
import { StatusCode } from "./status-code.js";

// Golden bytes hand-computed from BookkeeperProtocol.proto (Response: header 1, status 2, readResponse 100,
// addResponse 101, readLacResponse 104).
const GOLDEN: ReadonlyArray<readonly [string, string, BookieResponse]> = [
  [
    "AddResponse EOK",
    `0a06080310021801` + `1000` + `aa0606` + `0800` + `1007` + `1800`,
    {
      operation: OperationType.ADD_ENTRY,
      txnId: 1n,
      status: StatusCode.EOK,
      addResponse: { status: StatusCode.EOK, ledgerId: 7n, entryId: 0 },
    },
  ],
  [
    "ReadResponse with a body",
    `0a06080310011802` + `1000` + `a2060a` + `0800` + `1007` + `1803` + `2202dead`,
    {
      operation: OperationType.READ_ENTRY,
      txnId: 2n,
      status: StatusCode.EOK,
      readResponse: { status: StatusCode.EOK, ledgerId: 7n, entryId: 3, body: new Uint8Array([0xde, 0xad]) },
    },
  ],
  [
    "ReadResponse ENOENTRY (403 is a two-byte varint)",
    `0a06080310011802` + `109303` + `a20607` + `089303` + `1007` + `1809`,
    {
      operation: OperationType.READ_ENTRY,
      txnId: 2n,
      status: StatusCode.ENOENTRY,
      readResponse: { status: StatusCode.ENOENTRY, ledgerId: 7n, entryId: 9 },
    },
  ],
  [
    "AddResponse EFENCED",
    `0a06080310021805` + `10f803` + `aa0607` + `08f803` + `1007` + `1804`,
    {
      operation: OperationType.ADD_ENTRY,
      txnId: 5n,
      status: StatusCode.EFENCED,
      addResponse: { status: StatusCode.EFENCED, ledgerId: 7n, entryId: 4 },
    },
  ],
  [
    "ReadLacResponse with both bodies",
    `0a06080310071803` + `1000` + `c2060c` + `0800` + `1007` + `1a0201022202aabb`,
    {
      operation: OperationType.READ_LAC,
      txnId: 3n,
      status: StatusCode.EOK,
      readLacResponse: {
        status: StatusCode.EOK,
        ledgerId: 7n,
        lacBody: new Uint8Array([1, 2]),
        lastEntryBody: new Uint8Array([0xaa, 0xbb]),
      },
    },
  ],
];

describe("response codec golden bytes", () => {
  for (const [name, hex, response] of GOLDEN) {
    it(`decodes ${name}`, () => {
      expect(decodeResponse(fromHex(hex))).toEqual(response);
    });
    it(`encodes ${name}`, () => {
      expect(toHex(encodeResponse(response))).toBe(hex);
    });
  }

  it("skips unknown fields in the envelope, the header and the inner response", () => {
    // header gains field 9 (varint); envelope gains field 15 (fixed32) and field 300 (bytes); addResponse gains 7.
    const hex =
      `0a08080310021801` + `4801` + `1000` + `7d01020304` + `e2120161` + `aa0608` + `0800` + `1007` + `1800` + `3801`;
    expect(decodeResponse(fromHex(hex)).addResponse).toEqual({ status: 0, ledgerId: 7n, entryId: 0 });
  });

  it("rejects a response whose inner response lacks a required field", () => {
    expect(() => decodeResponse(fromHex(`0a06080310021801` + `1000` + `aa0604` + `08001007`))).toThrowError(/entryId/);
    expect(() => decodeResponse(fromHex(`0a06080310021801`))).toThrowError(/status/);
    expect(() => decodeResponse(fromHex(`0a06080210021801` + `1000`))).toThrowError(/protocol version/);
  });

  it("round-trips arbitrary read responses", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.constantFrom(...Object.values(StatusCode)),
        fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
        fc.integer({ min: -1, max: Number.MAX_SAFE_INTEGER }),
        fc.option(fc.uint8Array({ maxLength: 400 }), { nil: undefined }),
        (txnId, status, ledgerId, entryId, body) => {
          const response: BookieResponse = {
            operation: OperationType.READ_ENTRY,
            txnId,
            status,
            readResponse: { status, ledgerId, entryId, ...(body === undefined ? {} : { body }) },
          };
          expect(decodeResponse(encodeResponse(response))).toEqual(response);
        },
      ),
    );
  });
});
