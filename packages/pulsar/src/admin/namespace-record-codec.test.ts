import { fromHex, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { AdminKeyspace } from "../tenants/admin-keys.js";
import { type PulsarNamespace, namespaceRecordCodec } from "./namespace-record-codec.js";

const keyspace = new AdminKeyspace(new PulsarKeyspace("c1").root);
const codec = namespaceRecordCodec(keyspace);
const KEY = keyspace.namespaceKey("acme", "orders");
const FIXTURE: PulsarNamespace = { name: "acme/orders", createdAtMillis: 1_700_000_000_000 };

// Frozen golden fixture, composed once from the documented layout by an independent encoder (Python struct and a
// bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN = [
  "4e524d310000000f50756c7361724e616d657370616365", // NRM1, recordType "PulsarNamespace"
  "0001000101", // schema 1/1, encoding 1
  "00000017", // payload length 23
  "4df4bd66", // payload CRC32C
  "0000000b61636d652f6f7264657273", // name "acme/orders"
  "0000018bcfe56800", // createdAtMillis
].join("");

describe("PulsarNamespace record", () => {
  test("golden bytes", () => {
    expect(toHex(codec.encode(FIXTURE))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), KEY)).toEqual(FIXTURE);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, KEY));
  });

  test("a record read from another key is rejected", () => {
    const golden = fromHex(GOLDEN);
    expect(invariantViolation(() => codec.decode(golden, keyspace.namespaceKey("acme", "other"))).message).toContain(
      "does not match the key's namespace",
    );
    expect(invariantViolation(() => codec.decode(golden, keyspace.tenantKey("acme"))).message).toContain(
      "is not a Pulsar namespace key",
    );
  });

  test("encode refuses records that break the invariants", () => {
    const cases: Array<[Partial<Record<keyof PulsarNamespace, unknown>>, string]> = [
      [{ name: "acme" }, "is not {tenant}/{namespace}"],
      [{ name: "acme/a/b" }, "is not {tenant}/{namespace}"],
      [{ name: "acme/a b" }, "is not {tenant}/{namespace}"],
      [{ createdAtMillis: 0.5 }, "createdAtMillis"],
    ];
    for (const [change, message] of cases) {
      const record = { ...FIXTURE, ...change } as PulsarNamespace;
      expect(invariantViolation(() => codec.encode(record)).message, message).toContain(message);
    }
  });
});
