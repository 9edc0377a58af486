import { fromHex, streamIdFromName, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import type { CursorOwnerRecord } from "../domain/cursor-records.js";
import { cursorOwnerKey, cursorRetentionKey } from "../keys/cursor-keys.js";
import { cursorOwnerCodec } from "./cursor-owner-codec.js";

const STREAM = streamIdFromName("orders");
const KEY = cursorOwnerKey("c1", STREAM);
const FIXTURE: CursorOwnerRecord = {
  streamId: STREAM,
  ownerSessionId: "00112233445566778899aabbccddeeff",
  claimSequence: 4,
  claimedAtMillis: 1_700_000_000_000,
};

// Frozen golden fixture, composed once from the documented layout by an independent encoder (Python struct and a
// bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN = [
  "4e524d31", // magic "NRM1"
  "0000000b437572736f724f776e6572", // recordType 'CursorOwner'
  "0001000101", // schema 1/1, encoding 1
  "0000006e", // payloadLength 110
  "a30a1df3", // payloadCrc32c
  "00000036732d64716c69767779613269656f696c34746766637374347032747163637032", // streamId
  "3364656d366f336b6b326c7732737734617375346d71",
  "000000203030313132323333343435353636373738383939616162626363646465656666", // ownerSessionId
  "00000000000000040000018bcfe56800", // claimSequence 4, claimedAtMillis
].join("");

describe("CursorOwner record", () => {
  test("golden bytes", () => {
    expect(toHex(cursorOwnerCodec.encode(FIXTURE))).toBe(GOLDEN);
    expect(cursorOwnerCodec.decode(fromHex(GOLDEN), KEY)).toEqual(FIXTURE);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => cursorOwnerCodec.decode(bytes, KEY));
  });

  test("a record read from another stream's key, or from the retention key, is rejected", () => {
    const golden = fromHex(GOLDEN);
    const otherStream = cursorOwnerKey("c1", streamIdFromName("other"));
    expect(invariantViolation(() => cursorOwnerCodec.decode(golden, otherStream)).message).toContain("streamId");
    expect(
      invariantViolation(() => cursorOwnerCodec.decode(golden, cursorRetentionKey("c1", STREAM))).message,
    ).toContain("not a cursor owner key");
  });

  test("encode refuses records that break the invariants", () => {
    const cases: Array<[Partial<Record<keyof CursorOwnerRecord, unknown>>, string]> = [
      [{ streamId: "" }, "streamId"],
      [{ ownerSessionId: "00112233445566778899AABBCCDDEEFF" }, "ownerSessionId"],
      [{ claimSequence: 0 }, "claimSequence"],
      [{ claimedAtMillis: -1 }, "claimedAtMillis"],
    ];
    for (const [change, message] of cases) {
      const record = { ...FIXTURE, ...change } as CursorOwnerRecord;
      expect(invariantViolation(() => cursorOwnerCodec.encode(record)).message, message).toContain(message);
    }
  });
});
