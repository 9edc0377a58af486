import { ErrorCode } from "@nereus/core";
import { InMemoryMetadataStore, expectNereusError } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { type SchemaInfo, SchemaType } from "../protocol/index.js";
import { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { parseTopicName } from "../topics/topic-name.js";
import { SchemaRegistry } from "./schema-registry.js";

const keyspace = new PulsarKeyspace("c1");
const ORDERS = parseTopicName("persistent://acme/billing/orders");
const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const STRING: SchemaInfo = { name: "orders", schemaData: new Uint8Array(0), type: SchemaType.String, properties: [] };
const JSON_A: SchemaInfo = {
  name: "orders",
  schemaData: text('{"type":"record","name":"A","fields":[]}'),
  type: SchemaType.Json,
  properties: [{ key: "__alwaysAllowNull", value: "true" }],
};

function registry(metadata = new InMemoryMetadataStore()): SchemaRegistry {
  return new SchemaRegistry(metadata, keyspace, () => 1_700_000_000_000);
}

describe("SchemaRegistry", () => {
  test("the first typed schema becomes version 0; the same schema again is that version, properties aside", async () => {
    const schemas = registry();
    expect(await schemas.register(ORDERS, JSON_A)).toEqual({ compatible: true, version: 0n, created: true });
    expect(await schemas.register(ORDERS, { ...JSON_A, properties: [] })).toEqual({
      compatible: true,
      version: 0n,
      created: false,
    });
    const stored = await schemas.get(ORDERS);
    expect(stored).toMatchObject({ topic: ORDERS.fullName, version: 0n, type: SchemaType.Json });
    expect(stored?.properties).toEqual(JSON_A.properties);
    expect(await schemas.get(ORDERS, 0n)).toEqual(stored);
    expect(await schemas.get(ORDERS, 1n)).toBeUndefined();
  });

  test("a different type or definition on a topic with a schema is incompatible and registers nothing", async () => {
    const schemas = registry();
    await schemas.register(ORDERS, STRING);
    const other = await schemas.register(ORDERS, JSON_A);
    expect(other.compatible).toBe(false);
    expect(other.compatible ? "" : other.reason).toContain("has a String schema (version 0)");
    expect(await schemas.register(ORDERS, { ...STRING, schemaData: text("x") })).toMatchObject({ compatible: false });
    expect(await schemas.versions(ORDERS)).toHaveLength(1);
  });

  test("the bytes schema, AutoConsume and no schema need no registration, on any topic", async () => {
    const schemas = registry();
    await schemas.register(ORDERS, STRING);
    for (const schema of [
      undefined,
      { ...STRING, type: SchemaType.None },
      { ...STRING, type: SchemaType.AutoConsume },
    ]) {
      expect(await schemas.register(ORDERS, schema)).toEqual({ compatible: true, version: undefined, created: false });
    }
    expect(await schemas.versions(ORDERS)).toHaveLength(1);
  });

  test("partitions share their partitioned topic's schemas; concurrent registrations agree on one version", async () => {
    const metadata = new InMemoryMetadataStore();
    const [left, right] = [registry(metadata), registry(metadata)];
    const partitions = [0, 1, 2, 3].map((index) => parseTopicName(`${ORDERS.fullName}-partition-${String(index)}`));
    const results = await Promise.all(
      partitions.map((partition, index) => (index % 2 === 0 ? left : right).register(partition, JSON_A)),
    );
    expect(results.map((result) => (result.compatible ? result.version : undefined))).toEqual([0n, 0n, 0n, 0n]);
    expect(results.filter((result) => result.compatible && result.created)).toHaveLength(1);
    expect((await left.get(ORDERS))?.topic).toBe(ORDERS.fullName);
  });

  test("a lost response of the creating CAS is resolved by reading again", async () => {
    const metadata = new InMemoryMetadataStore();
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response" });
    expect(await registry(metadata).register(ORDERS, STRING)).toEqual({
      compatible: true,
      version: 0n,
      created: false,
    });
  });

  test("deleteAll removes every version; an oversized definition is refused before any I/O", async () => {
    const schemas = registry();
    await schemas.register(ORDERS, STRING);
    expect(await schemas.deleteAll(ORDERS)).toBe(1);
    expect(await schemas.get(ORDERS)).toBeUndefined();
    await expectNereusError(
      schemas.register(ORDERS, { ...JSON_A, schemaData: new Uint8Array(512 * 1024 + 1) }),
      ErrorCode.INVALID_ARGUMENT,
    );
  });
});
