import { fromHex, toHex } from "@nereus/core";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { AdminKeyspace } from "./admin-keys.js";
import { type PulsarTenant, tenantRecordCodec } from "./tenant-record-codec.js";

const keyspace = new AdminKeyspace(new PulsarKeyspace("c1").root);
const codec = tenantRecordCodec(keyspace);
const KEY = keyspace.tenantKey("acme");
const FIXTURE: PulsarTenant = {
  name: "acme",
  adminRoles: ["admin", "ops"],
  allowedClusters: ["c1"],
  createdAtMillis: 1_700_000_000_000,
};

// Frozen golden fixture, composed once from the documented layout by an independent encoder (Python struct and a
// bitwise CRC32C), never regenerated from the TypeScript codec.
const GOLDEN = [
  "4e524d310000000c50756c73617254656e616e74", // NRM1, recordType "PulsarTenant"
  "0001000101", // schema 1/1, encoding 1
  "0000002e", // payload length 46
  "8a3e3173", // payload CRC32C
  "0000000461636d65", // name "acme"
  "00000002", // adminRoles count
  "0000000561646d696e", // "admin"
  "000000036f7073", // "ops"
  "00000001", // allowedClusters count
  "000000026331", // "c1"
  "0000018bcfe56800", // createdAtMillis
].join("");

describe("PulsarTenant record", () => {
  test("golden bytes", () => {
    expect(toHex(codec.encode(FIXTURE))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), KEY)).toEqual(FIXTURE);
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, KEY));
  });

  test("a record read from another key is rejected", () => {
    const golden = fromHex(GOLDEN);
    expect(invariantViolation(() => codec.decode(golden, keyspace.tenantKey("other"))).message).toContain(
      "does not match the key's tenant",
    );
    expect(invariantViolation(() => codec.decode(golden, keyspace.namespaceKey("acme", "x"))).message).toContain(
      "is not a Pulsar tenant key",
    );
  });

  test("encode refuses records that break the invariants", () => {
    const cases: Array<[Partial<Record<keyof PulsarTenant, unknown>>, string]> = [
      [{ name: "a/b" }, "is not [-=:.\\w]{1,255}"],
      [{ name: "x".repeat(256) }, "is not [-=:.\\w]{1,255}"],
      [{ adminRoles: ["ops", "admin"] }, "sorted and distinct"],
      [{ allowedClusters: ["c1", "c1"] }, "sorted and distinct"],
      [{ adminRoles: [""] }, "must not be empty"],
      [
        { allowedClusters: Array.from({ length: 1025 }, (_, index) => `c${String(index).padStart(4, "0")}`) },
        "more than 1024",
      ],
      [{ createdAtMillis: -1 }, "createdAtMillis"],
    ];
    for (const [change, message] of cases) {
      const record = { ...FIXTURE, ...change } as PulsarTenant;
      expect(invariantViolation(() => codec.encode(record)).message, message).toContain(message);
    }
  });
});
