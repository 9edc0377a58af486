import { ErrorCode } from "@nereus/core";
import { thrownError } from "../../test/thrown-error.js";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isCanonicalTopicName, parseNamespaceName, parseTopicName, partitionTopicName } from "./topic-name.js";

describe("parseTopicName", () => {
  test("short forms expand to persistent://public/default and persistent://tenant/namespace", () => {
    expect(parseTopicName("orders")).toEqual({
      fullName: "persistent://public/default/orders",
      tenant: "public",
      namespace: "default",
      localName: "orders",
      partitionIndex: -1,
      partitionedTopicName: "persistent://public/default/orders",
    });
    expect(parseTopicName("acme/billing/orders").fullName).toBe("persistent://acme/billing/orders");
    expect(parseTopicName("persistent://acme/billing/orders").fullName).toBe("persistent://acme/billing/orders");
  });

  test("a -partition-N suffix with a canonical index names a partition of the partitioned topic", () => {
    const partition = parseTopicName("persistent://acme/billing/orders-partition-3");
    expect(partition.partitionIndex).toBe(3);
    expect(partition.partitionedTopicName).toBe("persistent://acme/billing/orders");
    expect(parseTopicName("a-partition-b-partition-0").partitionedTopicName).toBe(
      "persistent://public/default/a-partition-b",
    );
    for (const plain of [
      "orders-partition-01",
      "orders-partition--1",
      "orders-partition-",
      "orders-partition-2147483648",
    ]) {
      expect(parseTopicName(plain).partitionIndex, plain).toBe(-1);
    }
  });

  test("partitionTopicName builds partition names of a partitioned topic only", () => {
    const topic = parseTopicName("acme/billing/orders");
    expect(partitionTopicName(topic, 7).fullName).toBe("persistent://acme/billing/orders-partition-7");
    thrownError(() => partitionTopicName(partitionTopicName(topic, 7), 1), ErrorCode.INVALID_ARGUMENT);
    thrownError(() => partitionTopicName(topic, -1), ErrorCode.INVALID_ARGUMENT);
  });

  test("non-persistent, unknown domains, cluster names and malformed names are refused with the reason", () => {
    const cases: Array<[string, string]> = [
      ["non-persistent://public/default/orders", "non-persistent topics are not supported"],
      ["kafka://public/default/orders", "unknown domain"],
      ["persistent://acme/cluster-a/billing/orders", "cluster component"],
      ["persistent://acme/orders", "expected persistent://"],
      ["acme/orders", "a short name is"],
      ["persistent://ac me/billing/orders", "tenant"],
      ["persistent://acme/bil/ling/x/y", "expected persistent://"],
      ["persistent://acme/bill ing/orders", "namespace"],
      ["persistent://acme/billing/", "topic component is empty"],
      ["", "empty"],
      ["bad\uD800", "unpaired UTF-16 surrogate"],
      [`${"x".repeat(1000)}`, "UTF-8 bytes"],
    ];
    for (const [name, reason] of cases) {
      const error = thrownError(() => parseTopicName(name), ErrorCode.INVALID_ARGUMENT);
      expect(error.message, name).toContain(reason);
    }
  });

  test("parsing is idempotent: a full name parses to itself", () => {
    const component = fc.stringMatching(/^[-=:.\w]{1,12}$/);
    const local = fc
      .string({ minLength: 1, maxLength: 30 })
      .filter((value) => !value.includes("/") && !value.includes("://"));
    fc.assert(
      fc.property(component, component, local, (tenant, namespace, localName) => {
        const parsed = parseTopicName(`${tenant}/${namespace}/${localName}`);
        expect(parseTopicName(parsed.fullName)).toEqual(parsed);
        expect(isCanonicalTopicName(parsed.fullName)).toBe(true);
      }),
    );
    expect(isCanonicalTopicName("orders")).toBe(false);
  });
});

describe("parseNamespaceName", () => {
  test("tenant/namespace, each part following Pulsar's naming rule", () => {
    expect(parseNamespaceName("acme/billing-2")).toEqual({
      name: "acme/billing-2",
      tenant: "acme",
      namespace: "billing-2",
    });
    for (const bad of ["acme", "acme/", "/billing", "acme/billing/x", "ac me/billing", ""]) {
      thrownError(() => parseNamespaceName(bad), ErrorCode.INVALID_ARGUMENT);
    }
  });
});
