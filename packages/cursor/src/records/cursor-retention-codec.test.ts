import { fromHex, streamIdFromName, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { CursorRetentionRecord, ProtectionIntent } from "../domain/cursor-records.js";
import { cursorNameHash, cursorOwnerKey, cursorRetentionKey } from "../keys/cursor-keys.js";
import { cursorRetentionCodec } from "./cursor-retention-codec.js";

const STREAM = streamIdFromName("orders");
const KEY = cursorRetentionKey("c1", STREAM);

const INTENT: ProtectionIntent = {
  attemptId: "aaaabbbbccccddddeeeeffff00001111",
  kind: "RECREATE",
  cursorName: "orders-sub",
  cursorNameHash: cursorNameHash("orders-sub"),
  expectedGeneration: 2,
  targetGeneration: 3,
  targetMarkDeleteOffset: 60,
  targetPartial: { offset: 60, batchSize: 3, remaining: [4n] },
  initialProperties: new Map([["k", "v"]]),
  createdAtMillis: 1_700_000_300_000,
};

const PROTECTING: CursorRetentionRecord = {
  streamId: STREAM,
  ownerSessionId: "00112233445566778899aabbccddeeff",
  lifecycle: "PROTECTION_PENDING",
  mutationSequence: 9,
  protectedFloorOffset: 50,
  lastCompletedTrimOffset: 40,
  pendingProtection: INTENT,
  pendingTrim: undefined,
  updatedAtMillis: 1_700_000_300_001,
};

const TRIMMING: CursorRetentionRecord = {
  ...PROTECTING,
  lifecycle: "TRIM_PENDING",
  mutationSequence: 10,
  pendingProtection: undefined,
  pendingTrim: { attemptId: "22223333444455556666777788889999", offset: 45, reason: "size limit" },
  updatedAtMillis: 1_700_000_400_000,
};

const ACTIVE: CursorRetentionRecord = { ...TRIMMING, lifecycle: "ACTIVE", pendingTrim: undefined };

// Frozen golden fixtures, composed once from the documented layout by an independent encoder (Python struct and a
// bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN_PROTECTING = [
  "4e524d31", // magic "NRM1"
  "0000000f437572736f72526574656e74696f6e", // recordType 'CursorRetention'
  "0001000101", // schema 1/1, encoding 1
  "0000011f", // payloadLength 287
  "c446034a", // payloadCrc32c
  "00000036732d64716c69767779613269656f696c34746766637374347032747163637032", // streamId
  "3364656d366f336b6b326c7732737734617375346d71",
  "000000203030313132323333343435353636373738383939616162626363646465656666", // ownerSessionId
  "020000000000000009", // PROTECTION_PENDING, sequence 9
  "00000000000000320000000000000028", // floor 50, lastCompletedTrim 40
  "01", // pendingProtection present
  "000000206161616162626262636363636464646465656565666666663030303031313131", // attemptId
  "02", // RECREATE
  "0000000a6f72646572732d73756200000020356232616233343831396565306433633761", // cursorName, cursorNameHash
  "3239306564316632373561363535",
  "00000000000000020000000000000003000000000000003c", // generation 2 -> 3, target 60
  "01000000000000003c00000003000000010000000000000004", // targetPartial 60 (3 bits, 0x4)
  "00000001000000016b0000000176", // initialProperties k=v
  "0000018bcfe9fbe0", // createdAtMillis
  "000000018bcfe9fbe1", // no pendingTrim, updatedAtMillis
].join("");
const GOLDEN_TRIMMING = [
  "4e524d31", // magic "NRM1"
  "0000000f437572736f72526574656e74696f6e", // recordType 'CursorRetention'
  "0001000101", // schema 1/1, encoding 1
  "000000bb", // payloadLength 187
  "b061a296", // payloadCrc32c
  "00000036732d64716c69767779613269656f696c34746766637374347032747163637032", // streamId
  "3364656d366f336b6b326c7732737734617375346d71",
  "000000203030313132323333343435353636373738383939616162626363646465656666", // ownerSessionId
  "03000000000000000a", // TRIM_PENDING, sequence 10
  "0000000000000032000000000000002800", // floor 50, lastCompletedTrim 40, no protection
  "010000002032323232333333333434343435353535363636363737373738383838393939", // pendingTrim present, attemptId
  "39",
  "000000000000002d0000000a73697a65206c696d6974", // offset 45, reason "size limit"
  "0000018bcfeb8280", // updatedAtMillis
].join("");

function encodeFails(change: Partial<Record<keyof CursorRetentionRecord, unknown>>, base = PROTECTING): string {
  return invariantViolation(() => cursorRetentionCodec.encode({ ...base, ...change } as CursorRetentionRecord)).message;
}

function intentFails(change: Partial<Record<keyof ProtectionIntent, unknown>>): string {
  return encodeFails({ pendingProtection: { ...INTENT, ...change } });
}

describe("CursorRetention record", () => {
  test("golden bytes", () => {
    expect(toHex(cursorRetentionCodec.encode(PROTECTING))).toBe(GOLDEN_PROTECTING);
    expect(cursorRetentionCodec.decode(fromHex(GOLDEN_PROTECTING), KEY)).toEqual(PROTECTING);
    expect(toHex(cursorRetentionCodec.encode(TRIMMING))).toBe(GOLDEN_TRIMMING);
    expect(cursorRetentionCodec.decode(fromHex(GOLDEN_TRIMMING), KEY)).toEqual(TRIMMING);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_PROTECTING), (bytes) => cursorRetentionCodec.decode(bytes, KEY));
    expectCorruptionRejected(fromHex(GOLDEN_TRIMMING), (bytes) => cursorRetentionCodec.decode(bytes, KEY));
  });

  test("a record read from another stream's key, or from the owner key, is rejected", () => {
    const golden = fromHex(GOLDEN_PROTECTING);
    const otherStream = cursorRetentionKey("c1", streamIdFromName("other"));
    expect(invariantViolation(() => cursorRetentionCodec.decode(golden, otherStream)).message).toContain("streamId");
    expect(
      invariantViolation(() => cursorRetentionCodec.decode(golden, cursorOwnerKey("c1", STREAM))).message,
    ).toContain("not a cursor retention key");
  });

  test("pending intents are present exactly in their lifecycle", () => {
    expect(cursorRetentionCodec.decode(cursorRetentionCodec.encode(ACTIVE), KEY)).toEqual(ACTIVE);
    expect(encodeFails({ lifecycle: "ACTIVE" })).toContain("pendingProtection is set exactly when PROTECTION_PENDING");
    expect(encodeFails({ pendingProtection: undefined })).toContain("pendingProtection");
    expect(encodeFails({ lifecycle: "PROTECTION_PENDING" }, TRIMMING)).toContain("pendingProtection");
    expect(encodeFails({ pendingTrim: TRIMMING.pendingTrim })).toContain(
      "pendingTrim is set exactly when TRIM_PENDING",
    );
    expect(encodeFails({ lifecycle: "TRIM_PENDING", pendingTrim: undefined }, ACTIVE)).toContain("pendingTrim");
  });

  test("encode refuses records that break the invariants", () => {
    const cases: Array<[Partial<Record<keyof CursorRetentionRecord, unknown>>, string]> = [
      [{ streamId: "" }, "streamId"],
      [{ ownerSessionId: "nope" }, "ownerSessionId"],
      [{ lifecycle: "DONE" }, "lifecycle"],
      [{ mutationSequence: 0 }, "mutationSequence"],
      [{ protectedFloorOffset: -1 }, "protectedFloorOffset"],
      [{ lastCompletedTrimOffset: 51 }, "lastCompletedTrimOffset"],
      [{ protectedFloorOffset: 61 }, "above the pending target"],
      [{ updatedAtMillis: 1.5 }, "updatedAtMillis"],
    ];
    for (const [change, message] of cases) expect(encodeFails(change), message).toContain(message);
    const trimCases: Array<[Record<string, unknown>, string]> = [
      [{ offset: 40 }, "outside (lastCompletedTrimOffset, protectedFloorOffset]"],
      [{ offset: 51 }, "outside"],
      [{ attemptId: "x" }, "attemptId"],
      [{ reason: 7 }, "reason"],
    ];
    for (const [change, message] of trimCases) {
      expect(encodeFails({ pendingTrim: { ...TRIMMING.pendingTrim, ...change } }, TRIMMING), message).toContain(
        message,
      );
    }
  });

  test("a protection intent names a valid cursor and a generation step its kind allows", () => {
    const cases: Array<[Partial<Record<keyof ProtectionIntent, unknown>>, string]> = [
      [{ attemptId: "" }, "attemptId"],
      [{ kind: "MOVE" }, "protection kind"],
      [{ cursorName: "" }, "cursor name"],
      [{ cursorNameHash: cursorNameHash("other") }, "cursorNameHash"],
      [{ targetGeneration: 4 }, "a RECREATE cannot move generation 2 to 4"],
      [{ expectedGeneration: 0, targetGeneration: 1 }, "RECREATE cannot move generation 0"],
      [{ kind: "CREATE" }, "a CREATE cannot move generation 2 to 3"],
      [{ kind: "BACKWARD_RESET" }, "a BACKWARD_RESET cannot move generation 2 to 3"],
      [{ kind: "BACKWARD_RESET", targetGeneration: 2 }, "no initial properties"],
      [{ targetPartial: { offset: 61, batchSize: 3, remaining: [4n] } }, "at targetMarkDeleteOffset"],
      [{ targetPartial: { offset: 60, batchSize: 3, remaining: [7n] } }, "every bit"],
      [{ initialProperties: new Map([["k", 1]]) }, "initialProperties"],
      [{ createdAtMillis: -1 }, "createdAtMillis"],
    ];
    for (const [change, message] of cases) expect(intentFails(change), message).toContain(message);
    const create = { ...INTENT, kind: "CREATE" as const, expectedGeneration: 0, targetGeneration: 1 };
    const reset = { ...INTENT, kind: "BACKWARD_RESET" as const, targetGeneration: 2, initialProperties: new Map() };
    for (const intent of [create, reset, { ...INTENT, targetPartial: undefined }]) {
      const record = { ...PROTECTING, pendingProtection: intent };
      expect(cursorRetentionCodec.decode(cursorRetentionCodec.encode(record), KEY)).toEqual(record);
    }
  });

  test("round trip of any ACTIVE or TRIM_PENDING record", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 2 ** 50 }),
        fc.nat({ max: 2 ** 20 }),
        fc.nat({ max: 2 ** 20 }),
        fc.string({ unit: "grapheme", maxLength: 30 }),
        (trim, floorGap, trimGap, reason) => {
          const base = { ...ACTIVE, lastCompletedTrimOffset: trim, protectedFloorOffset: trim + floorGap + 1 };
          const trimming: CursorRetentionRecord = {
            ...base,
            lifecycle: "TRIM_PENDING",
            pendingTrim: { attemptId: "0".repeat(32), offset: trim + 1 + (trimGap % (floorGap + 1)), reason },
          };
          for (const record of [base, trimming]) {
            expect(cursorRetentionCodec.decode(cursorRetentionCodec.encode(record), KEY)).toEqual(record);
          }
        },
      ),
    );
  });
});
