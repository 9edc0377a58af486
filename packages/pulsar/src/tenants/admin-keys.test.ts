import { ErrorCode, NereusError } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { AdminKeyspace } from "./admin-keys.js";

const keyspace = new AdminKeyspace(new PulsarKeyspace("c1").root);
const entity = fc.stringMatching(/^[-=:.\w]{1,40}$/);

function decodeError(run: () => unknown): NereusError {
  try {
    run();
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.DECODE_ERROR)) return error;
    throw error;
  }
  throw new Error("expected a DECODE_ERROR");
}

describe("AdminKeyspace", () => {
  test("layout under P/pulsar", () => {
    expect(keyspace.tenantKey("acme")).toBe("/nereus/clusters/c1/pulsar/tenants/acme");
    expect(keyspace.namespaceKey("acme", "orders")).toBe("/nereus/clusters/c1/pulsar/namespaces/acme/orders");
    expect(keyspace.namespacesPrefix("acme")).toBe("/nereus/clusters/c1/pulsar/namespaces/acme/");
    expect(keyspace.namespaceKey("acme", "a:b")).toMatch(/\/namespaces\/acme\/b32-[a-z2-7]+$/);
  });

  test("the parsers invert the builders", () => {
    fc.assert(
      fc.property(entity, entity, (tenant, namespace) => {
        expect(keyspace.parseTenantKey(keyspace.tenantKey(tenant))).toBe(tenant);
        expect(keyspace.parseNamespaceKey(keyspace.namespaceKey(tenant, namespace))).toBe(`${tenant}/${namespace}`);
        expect(keyspace.namespaceKey(tenant, namespace).startsWith(keyspace.namespacesPrefix(tenant))).toBe(true);
      }),
    );
  });

  test("other keys are refused", () => {
    for (const key of [
      "/nereus/clusters/c1/pulsar/tenants/",
      "/nereus/clusters/c1/pulsar/tenants/a/b",
      "/nereus/clusters/c2/pulsar/tenants/a",
      "/nereus/clusters/c1/pulsar/tenants/b32-mfrgg",
    ]) {
      expect(decodeError(() => keyspace.parseTenantKey(key)).message, key).toContain("is not a Pulsar tenant key");
    }
    for (const key of ["/nereus/clusters/c1/pulsar/namespaces/a", "/nereus/clusters/c1/pulsar/namespaces/a//b"]) {
      expect(decodeError(() => keyspace.parseNamespaceKey(key)).message, key).toContain("not a Pulsar namespace key");
    }
  });
});
