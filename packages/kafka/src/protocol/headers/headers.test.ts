import { ByteReader, ByteWriter, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectDecodeError, hex } from "../../../test/hex.js";
import {
  type RequestHeaderVersion,
  readRequestHeader,
  requestHeaderVersion,
  writeRequestHeader,
} from "./request-header.js";
import { readResponseHeader, responseHeaderVersion, writeResponseHeader } from "./response-header.js";

describe("request header", () => {
  it("v1: key, version, correlation id, int16 client id", () => {
    const bytes = hex("0003 0006 0000002a 0005 6b63617420");
    const header = readRequestHeader(new ByteReader(bytes), 1);
    expect(header).toEqual({ apiKey: 3, apiVersion: 6, correlationId: 42, clientId: "kcat " });
  });

  it("v2 keeps the int16 client id and adds a tagged-field section", () => {
    const bytes = hex("0012 0003 00000001 ffff 00");
    expect(readRequestHeader(new ByteReader(bytes), 2)).toEqual({
      apiKey: 18,
      apiVersion: 3,
      correlationId: 1,
      clientId: null,
    });
    const writer = new ByteWriter();
    writeRequestHeader(writer, { apiKey: 18, apiVersion: 3, correlationId: 1, clientId: null }, 2);
    expect(toHex(writer.finish())).toBe(toHex(bytes));
    expect(requestHeaderVersion(true)).toBe(2);
    expect(requestHeaderVersion(false)).toBe(1);
  });

  it("v0 has no client id; truncation is a DECODE_ERROR", () => {
    expect(readRequestHeader(new ByteReader(hex("0007 0000 00000005")), 0)).toEqual({
      apiKey: 7,
      apiVersion: 0,
      correlationId: 5,
      clientId: null,
    });
    expectDecodeError(() => readRequestHeader(new ByteReader(hex("0003 0006 000000")), 1));
    expectDecodeError(() => readRequestHeader(new ByteReader(hex("0003 0006 00000001 0005 61")), 1));
  });

  it("round-trips", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -32768, max: 32767 }),
        fc.integer({ min: -32768, max: 32767 }),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.option(fc.string({ maxLength: 20 })),
        fc.constantFrom<RequestHeaderVersion>(1, 2),
        (apiKey, apiVersion, correlationId, clientId, version) => {
          const writer = new ByteWriter();
          writeRequestHeader(writer, { apiKey, apiVersion, correlationId, clientId }, version);
          const reader = new ByteReader(writer.finish());
          expect(readRequestHeader(reader, version)).toEqual({ apiKey, apiVersion, correlationId, clientId });
          expect(reader.remaining).toBe(0);
        },
      ),
    );
  });
});

describe("response header", () => {
  it("v0 is the correlation id, v1 adds tagged fields; ApiVersions always uses v0", () => {
    const writer = new ByteWriter();
    writeResponseHeader(writer, { correlationId: 9 }, 1);
    expect(toHex(writer.finish())).toBe("0000000900");
    expect(readResponseHeader(new ByteReader(hex("00000009")), 0)).toEqual({ correlationId: 9 });
    expect(responseHeaderVersion(18, true)).toBe(0);
    expect(responseHeaderVersion(3, true)).toBe(1);
    expect(responseHeaderVersion(3, false)).toBe(0);
  });
});
