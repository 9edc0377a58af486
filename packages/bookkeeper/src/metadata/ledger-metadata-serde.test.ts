import { ErrorCode, NereusError, fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LedgerMetadata } from "./ledger-metadata.js";
import { decodeLedgerMetadata, encodeLedgerMetadata } from "./ledger-metadata-serde.js";

const HEADER_HEX = toHex(new TextEncoder().encode("BookieMetadataFormatVersion\t3\n"));
const bookie = (port: number) => toHex(new TextEncoder().encode(`127.0.0.1:${String(port)}`));

const NEW_LEDGER: LedgerMetadata = {
  ensembleSize: 3,
  writeQuorumSize: 2,
  ackQuorumSize: 2,
  state: "OPEN",
  lastEntryId: -1,
  length: 0,
  segments: [{ firstEntryId: 0, ensemble: ["127.0.0.1:3181", "127.0.0.1:3182", "127.0.0.1:3183"] }],
  digestType: "CRC32C",
  password: new Uint8Array(0),
  customMetadata: {},
  cToken: 1234n,
};

// Hand-computed from DataFormats.proto LedgerMetadataFormat field numbers, in field order.
const NEW_LEDGER_HEX =
  HEADER_HEX +
  "50" + // varint length of the message (80 bytes)
  "0802" + // quorumSize = 2
  "1003" + // ensembleSize = 3
  "1800" + // length = 0
  "20ffffffffffffffffff01" + // lastEntryId = -1
  "2801" + // state = OPEN
  "3232" +
  `0a0e${bookie(3181)}` +
  `0a0e${bookie(3182)}` +
  `0a0e${bookie(3183)}` +
  "1000" + // segment { members, firstEntryId 0 }
  "3803" + // digestType = CRC32C
  "4200" + // password = ""
  "4802" + // ackQuorumSize = 2
  "60d209"; // cToken = 1234

const CLOSED_LEDGER: LedgerMetadata = {
  ensembleSize: 3,
  writeQuorumSize: 3,
  ackQuorumSize: 2,
  state: "CLOSED",
  lastEntryId: 9,
  length: 300,
  segments: [
    { firstEntryId: 0, ensemble: ["a:1", "b:2", "c:3"] },
    { firstEntryId: 5, ensemble: ["a:1", "d:4", "c:3"] },
  ],
  digestType: "HMAC",
  password: new TextEncoder().encode("pw"),
  ctimeMs: 1_700_000_000_000,
  customMetadata: { application: new TextEncoder().encode("nereus") },
  cToken: (1n << 63n) - 1n,
};

// Cross-checked against an independent protobuf encoder; frozen.
const CLOSED_LEDGER_HEX =
  HEADER_HEX +
  "61" +
  "0803" +
  "1003" +
  "18ac02" +
  "2009" +
  "2803" +
  "32110a03613a310a03623a320a03633a331000" +
  "32110a03613a310a03643a340a03633a331005" +
  "3802" +
  "42027077" +
  "4802" +
  "5080d095ffbc31" +
  "5a150a0b6170706c69636174696f6e12066e6572657573" +
  "60ffffffffffffffff7f";

describe("ledger metadata serde (format 3)", () => {
  it("encodes a new ledger to golden bytes", () => {
    expect(toHex(encodeLedgerMetadata(NEW_LEDGER))).toBe(NEW_LEDGER_HEX);
  });

  it("encodes a closed, re-ensembled ledger with ctime, custom metadata and a max cToken to golden bytes", () => {
    expect(toHex(encodeLedgerMetadata(CLOSED_LEDGER))).toBe(CLOSED_LEDGER_HEX);
  });

  it("decodes both golden forms back", () => {
    expect(decodeLedgerMetadata(fromHex(NEW_LEDGER_HEX))).toEqual(NEW_LEDGER);
    expect(decodeLedgerMetadata(fromHex(CLOSED_LEDGER_HEX))).toEqual(CLOSED_LEDGER);
  });

  it("defaults the ack quorum to the write quorum and ignores lastEntryId/length while not closed", () => {
    // quorumSize 2, ensembleSize 2, length 99, lastEntryId 4, state IN_RECOVERY, one segment, no ack quorum.
    const body = "0802" + "1002" + "1863" + "2004" + "2802" + "320c0a03613a310a03623a321000";
    const bytes = fromHex(HEADER_HEX + toHex(Uint8Array.of(body.length / 2)) + body);
    expect(decodeLedgerMetadata(bytes)).toMatchObject({
      ackQuorumSize: 2,
      state: "IN_RECOVERY",
      lastEntryId: -1,
      length: 0,
      digestType: "CRC32",
    });
  });

  it("rejects text formats, bad headers, trailing bytes and broken invariants", () => {
    const text = new TextEncoder().encode("BookieMetadataFormatVersion\t2\nquorumSize: 2\n");
    expect(() => decodeLedgerMetadata(text)).toThrow(expect.objectContaining({ code: ErrorCode.UNSUPPORTED_FORMAT }));
    expect(() => decodeLedgerMetadata(new TextEncoder().encode("BookieMetadataFormat\t3\n"))).toThrow(NereusError);
    expect(() => decodeLedgerMetadata(fromHex(NEW_LEDGER_HEX + "00"))).toThrowError(/length prefix/);
    expect(() => encodeLedgerMetadata({ ...NEW_LEDGER, ackQuorumSize: 3 })).toThrowError(/quorums/);
    expect(() =>
      encodeLedgerMetadata({ ...NEW_LEDGER, segments: [{ firstEntryId: 0, ensemble: ["a:1", "a:1", "b:2"] }] }),
    ).toThrowError(/repeats/);
    expect(() =>
      encodeLedgerMetadata({ ...NEW_LEDGER, segments: [{ firstEntryId: 1, ensemble: ["a:1", "c:1", "b:2"] }] }),
    ).toThrowError(/start at 0/);
  });

  it("keeps custom metadata keys that look like object internals as plain keys", () => {
    const customMetadata = Object.fromEntries([
      ["__proto__", new Uint8Array([1])],
      ["constructor", new Uint8Array([2])],
    ]) as Record<string, Uint8Array>;
    const decoded = decodeLedgerMetadata(encodeLedgerMetadata({ ...NEW_LEDGER, customMetadata }));
    expect(Object.keys(decoded.customMetadata)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(decoded.customMetadata)).toBe(Object.prototype);
  });

  it("round-trips arbitrary valid metadata", () => {
    const bookieId = fc
      .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 65535 }))
      .map(([a, p]) => `10.0.0.${String(a)}:${String(p)}`);
    const arbitrary = fc
      .record({
        ensemble: fc.uniqueArray(bookieId, { minLength: 1, maxLength: 6 }),
        extraStarts: fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 3 }),
        closed: fc.boolean(),
        lastEntryId: fc.integer({ min: -1, max: 1_000_000 }),
        length: fc.nat(),
        password: fc.uint8Array({ maxLength: 30 }),
        digestType: fc.constantFrom("CRC32", "CRC32C", "HMAC", "DUMMY" as const),
        custom: fc.dictionary(fc.string({ maxLength: 10 }), fc.uint8Array({ maxLength: 10 }), { maxKeys: 3 }),
        cToken: fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }),
        ctimeMs: fc.option(fc.nat(), { nil: undefined }),
      })
      .map(
        ({
          ensemble,
          extraStarts,
          closed,
          lastEntryId,
          length,
          password,
          digestType,
          custom,
          cToken,
          ctimeMs,
        }): LedgerMetadata => {
          const starts = [0, ...extraStarts.sort((a, b) => a - b)];
          return {
            ensembleSize: ensemble.length,
            writeQuorumSize: ensemble.length,
            ackQuorumSize: Math.max(1, ensemble.length - 1),
            state: closed ? "CLOSED" : "OPEN",
            lastEntryId: closed ? lastEntryId : -1,
            length: closed ? length : 0,
            segments: starts.map((firstEntryId) => ({ firstEntryId, ensemble })),
            digestType,
            password,
            customMetadata: custom,
            cToken,
            ...(ctimeMs === undefined ? {} : { ctimeMs }),
          };
        },
      );
    fc.assert(
      fc.property(arbitrary, (metadata) => {
        expect(decodeLedgerMetadata(encodeLedgerMetadata(metadata))).toEqual(metadata);
      }),
    );
  });
});
