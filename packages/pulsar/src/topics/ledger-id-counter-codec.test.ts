import { fromHex, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { ledgerIdCounterCodec } from "./ledger-id-counter-codec.js";
import { PulsarKeyspace } from "./pulsar-keys.js";

const keyspace = new PulsarKeyspace("c1");
const KEY = keyspace.ledgerIdsKey();
const codec = ledgerIdCounterCodec(KEY);

// Frozen golden fixture, composed once from the documented layout by an independent encoder (Python struct and a
// bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN = [
  "4e524d31", // NRM1
  "0000000f50756c7361724c6564676572496473", // recordType "PulsarLedgerIds"
  "0001000101", // schema 1/1, encoding 1
  "00000008", // payload length 8
  "42e21d53", // payload CRC32C
  "4000000000000007", // nextLedgerId 2^62 + 7
].join("");

describe("PulsarLedgerIds record", () => {
  test("golden bytes", () => {
    expect(toHex(codec.encode({ nextLedgerId: 2n ** 62n + 7n }))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), KEY)).toEqual({ nextLedgerId: 2n ** 62n + 7n });
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, KEY));
  });

  test("the counter is read from its key only, and stays in [2^62, 2^63 - 1]", () => {
    expect(invariantViolation(() => codec.decode(fromHex(GOLDEN), keyspace.dedupKey("s-x"))).message).toContain(
      "is not the ledger id counter key",
    );
    expect(codec.decode(codec.encode({ nextLedgerId: 2n ** 63n - 1n }), KEY).nextLedgerId).toBe(2n ** 63n - 1n);
    invariantViolation(() => codec.encode({ nextLedgerId: 2n ** 62n - 1n }));
    invariantViolation(() => codec.encode({ nextLedgerId: -1n }));
  });
});
