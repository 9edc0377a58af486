import { ErrorCode, NereusError, fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type CommittedOffset, committedOffsetCodec } from "./committed-offset-codec.js";
import { committedOffsetKey, groupRootKey, parseCommittedOffsetKey, parseGroupRootKey } from "./group-keys.js";
import { groupRootCodec } from "./group-root-codec.js";
import { selectProtocol } from "./select-protocol.js";

// Frozen golden fixtures, composed once from the documented layouts by an independent encoder (Python struct +
// a bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN_OFFSET = [
  "4e524d31", // magic "NRM1"
  "000000144b61666b61436f6d6d69747465644f6666736574", // recordType "KafkaCommittedOffset"
  "0001", // schemaVersion 1
  "0001", // minReaderSchemaVersion 1
  "01", // payloadEncoding 1
  "0000003b", // payloadLength 59
  "4dfc56f1", // payloadCrc32c
  "0000000a6f72646572732d617070", // groupId "orders-app"
  "000000066f7264657273", // topic "orders"
  "00000003", // partition 3
  "000000000012d687", // committedOffset 1234567
  "00000005", // committedLeaderEpoch 5
  "00000007636b707420c3a9", // metadata "ckpt é"
  "0000019b76daa800", // commitTimestampMs 1767225600000
].join("");
const FIXTURE_OFFSET: CommittedOffset = {
  groupId: "orders-app",
  topic: "orders",
  partition: 3,
  committedOffset: 1234567,
  committedLeaderEpoch: 5,
  metadata: "ckpt é",
  commitTimestampMs: 1767225600000,
};
const GOLDEN_ROOT = [
  "4e524d31",
  "0000000e4b61666b6147726f7570526f6f74", // recordType "KafkaGroupRoot"
  "0001",
  "0001",
  "01",
  "0000001a", // payloadLength 26
  "e35df63c", // payloadCrc32c
  "0000000a6f72646572732d617070", // groupId "orders-app"
  "00000008636f6e73756d6572", // protocolType "consumer"
].join("");

const offsetKey = (record: CommittedOffset): string =>
  committedOffsetKey("c1", record.groupId, record.topic, record.partition);

function expectInvariantViolation(action: () => unknown): NereusError {
  try {
    action();
  } catch (error) {
    expect(NereusError.hasCode(error, ErrorCode.METADATA_INVARIANT_VIOLATION)).toBe(true);
    return error as NereusError;
  }
  throw new Error("expected METADATA_INVARIANT_VIOLATION");
}

describe("KafkaCommittedOffset record", () => {
  test("golden bytes", () => {
    expect(toHex(committedOffsetCodec.encode(FIXTURE_OFFSET))).toBe(GOLDEN_OFFSET);
    expect(committedOffsetCodec.decode(fromHex(GOLDEN_OFFSET), offsetKey(FIXTURE_OFFSET))).toEqual(FIXTURE_OFFSET);
  });

  test("every single-byte corruption is rejected", () => {
    const golden = fromHex(GOLDEN_OFFSET);
    for (let index = 0; index < golden.length; index += 1) {
      const corrupt = golden.slice();
      corrupt[index] = corrupt[index]! ^ 0x20;
      expectInvariantViolation(() => committedOffsetCodec.decode(corrupt, offsetKey(FIXTURE_OFFSET)));
    }
  });

  test("a record read from another group's, topic's or partition's key is rejected", () => {
    const golden = fromHex(GOLDEN_OFFSET);
    expect(
      expectInvariantViolation(() =>
        committedOffsetCodec.decode(golden, committedOffsetKey("c1", "other", "orders", 3)),
      ).message,
    ).toContain("groupId");
    expect(
      expectInvariantViolation(() =>
        committedOffsetCodec.decode(golden, committedOffsetKey("c1", "orders-app", "other", 3)),
      ).message,
    ).toContain("topic");
    expect(
      expectInvariantViolation(() =>
        committedOffsetCodec.decode(golden, committedOffsetKey("c1", "orders-app", "orders", 4)),
      ).message,
    ).toContain("partition");
    expectInvariantViolation(() => committedOffsetCodec.decode(golden, groupRootKey("c1", "orders-app")));
    expectInvariantViolation(() => groupRootCodec.decode(golden, groupRootKey("c1", "orders-app")));
  });

  test("encode refuses records that break the invariants", () => {
    for (const bad of [
      { groupId: "" },
      { topic: "" },
      { partition: -1 },
      { partition: 2 ** 31 },
      { committedOffset: 2 ** 53 },
      { committedLeaderEpoch: 2 ** 31 },
      { commitTimestampMs: -1 },
    ]) {
      expectInvariantViolation(() => committedOffsetCodec.encode({ ...FIXTURE_OFFSET, ...bad }));
    }
  });

  test("round trip through its key for any group, topic, partition and offset", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40, unit: "grapheme" }),
        fc.string({ minLength: 1, maxLength: 40, unit: "grapheme" }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.maxSafeInteger(),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.string({ maxLength: 50, unit: "grapheme" }),
        fc.nat(),
        (groupId, topic, partition, committedOffset, committedLeaderEpoch, metadata, commitTimestampMs) => {
          const record = {
            groupId,
            topic,
            partition,
            committedOffset,
            committedLeaderEpoch,
            metadata,
            commitTimestampMs,
          };
          const key = offsetKey(record);
          expect(parseCommittedOffsetKey(key)).toEqual({ cluster: "c1", groupId, topic, partition });
          expect(committedOffsetCodec.decode(committedOffsetCodec.encode(record), key)).toEqual(record);
        },
      ),
    );
  });

  test("keys of one group sort by topic, then numerically by partition", () => {
    const keys = [10, 2, 1].map((partition) => committedOffsetKey("c1", "g", "t", partition));
    expect([...keys].sort()).toEqual([...keys].reverse());
    expect(committedOffsetKey("c1", "a/b", "x y", 0)).toMatch(
      /^\/nereus\/clusters\/c1\/kafka\/groups\/offsets\/b32-[a-z2-7]+\/b32-[a-z2-7]+\/0{19}$/,
    );
  });
});

describe("KafkaGroupRoot record", () => {
  test("golden bytes, key check and corruption", () => {
    const root = { groupId: "orders-app", protocolType: "consumer" };
    expect(toHex(groupRootCodec.encode(root))).toBe(GOLDEN_ROOT);
    expect(groupRootCodec.decode(fromHex(GOLDEN_ROOT), groupRootKey("c1", "orders-app"))).toEqual(root);
    expect(parseGroupRootKey(groupRootKey("c1", "orders-app"))).toEqual({ cluster: "c1", groupId: "orders-app" });
    expectInvariantViolation(() => groupRootCodec.decode(fromHex(GOLDEN_ROOT), groupRootKey("c1", "other")));
    const golden = fromHex(GOLDEN_ROOT);
    for (let index = 0; index < golden.length; index += 1) {
      const corrupt = golden.slice();
      corrupt[index] = corrupt[index]! ^ 0x01;
      expectInvariantViolation(() => groupRootCodec.decode(corrupt, groupRootKey("c1", "orders-app")));
    }
    expect(toHex(groupRootCodec.encode({ groupId: "s", protocolType: "" }))).toContain("00000000");
  });
});

describe("selectProtocol", () => {
  test("the most first-choice votes among protocols every member supports; ties go to the first member's preference", () => {
    expect(selectProtocol([])).toBeNull();
    expect(selectProtocol([["range", "roundrobin"], ["roundrobin", "range"], ["roundrobin"]])).toBe("roundrobin");
    expect(
      selectProtocol([
        ["range", "roundrobin"],
        ["roundrobin", "range"],
      ]),
    ).toBe("range");
    expect(selectProtocol([["sticky", "range"], ["range"]])).toBe("range");
    expect(selectProtocol([["a"], ["b"]])).toBeNull();
  });

  test("the chosen protocol is always supported by every member", () => {
    const names = ["range", "roundrobin", "sticky", "cooperative-sticky"];
    fc.assert(
      fc.property(
        fc.array(fc.shuffledSubarray(names, { minLength: 1 }), { minLength: 1, maxLength: 6 }),
        (preferences) => {
          const chosen = selectProtocol(preferences);
          const common = names.filter((name) => preferences.every((list) => list.includes(name)));
          if (common.length === 0) expect(chosen).toBeNull();
          else expect(preferences.every((list) => list.includes(chosen ?? ""))).toBe(true);
        },
      ),
    );
  });
});
