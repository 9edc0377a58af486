// NamespaceRegistry over the in-memory metadata store: built-in public and public/default, creation and deletion,
// a namespace created while a tenant deletion runs (the deletion loses), and creations whose answer was lost.
import type { MetadataStore, TxnRequest } from "@nereus/core";
import { InMemoryMetadataStore } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { NamespaceRegistry } from "./namespace-registry.js";

const ROOT = new PulsarKeyspace("c1").root;

function registry(metadata: MetadataStore = new InMemoryMetadataStore()): NamespaceRegistry {
  return new NamespaceRegistry(metadata, ROOT, "c1", () => 1_700_000_000_000);
}

/** The store with a hook run before each transaction is forwarded. */
function hooked(store: InMemoryMetadataStore, beforeTxn: (request: TxnRequest) => Promise<void>): MetadataStore {
  return new Proxy(store, {
    get(target, property) {
      if (property !== "txn") {
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      }
      return async (request: TxnRequest, options?: { signal?: AbortSignal }) => {
        await beforeTxn(request);
        return target.txn(request, options);
      };
    },
  });
}

describe("NamespaceRegistry", () => {
  test("public and public/default exist without records and cannot be deleted", async () => {
    const store = new InMemoryMetadataStore();
    const namespaces = registry(store);
    expect(await namespaces.listTenants()).toEqual(["public"]);
    expect(await namespaces.getTenant("public")).toEqual({
      name: "public",
      adminRoles: [],
      allowedClusters: ["c1"],
      createdAtMillis: 0,
    });
    expect(await namespaces.listNamespaces("public")).toEqual(["public/default"]);
    expect(await namespaces.createTenant("public", [], [])).toBe("exists");
    expect(await namespaces.createNamespace("public", "default")).toBe("exists");
    expect(await namespaces.deleteTenant("public")).toBe("built-in");
    expect(await namespaces.deleteNamespace("public", "default")).toBe("built-in");
    expect(store.snapshot().size).toBe(0);
  });

  test("tenants and namespaces are created once, listed sorted and deleted when empty", async () => {
    const namespaces = registry();
    expect(await namespaces.createNamespace("acme", "orders")).toBe("no-tenant");
    expect(await namespaces.createTenant("acme", ["ops", "admin", "ops"], ["c1"])).toBe("created");
    expect(await namespaces.createTenant("acme", [], [])).toBe("exists");
    expect(await namespaces.getTenant("acme")).toMatchObject({ adminRoles: ["admin", "ops"], allowedClusters: ["c1"] });
    expect(await namespaces.createNamespace("acme", "orders")).toBe("created");
    expect(await namespaces.createNamespace("acme", "billing")).toBe("created");
    expect(await namespaces.createNamespace("acme", "orders")).toBe("exists");
    expect(await namespaces.createNamespace("public", "extra")).toBe("created");
    expect(await namespaces.listTenants()).toEqual(["acme", "public"]);
    expect(await namespaces.listNamespaces("acme")).toEqual(["acme/billing", "acme/orders"]);
    expect(await namespaces.listNamespaces("public")).toEqual(["public/default", "public/extra"]);
    expect(await namespaces.deleteTenant("acme")).toBe("not-empty");
    expect(await namespaces.deleteNamespace("acme", "orders")).toBe("deleted");
    expect(await namespaces.deleteNamespace("acme", "orders")).toBe("absent");
    expect(await namespaces.deleteNamespace("acme", "billing")).toBe("deleted");
    expect(await namespaces.deleteTenant("acme")).toBe("deleted");
    expect(await namespaces.deleteTenant("acme")).toBe("absent");
    expect(await namespaces.getTenant("acme")).toBeUndefined();
  });

  test("a namespace created while a tenant deletion runs makes the deletion lose its compare-and-swap", async () => {
    const store = new InMemoryMetadataStore();
    const other = registry(store);
    await other.createTenant("acme", [], ["c1"]);
    let raced = false;
    const deleting = registry(
      hooked(store, async (request) => {
        if (raced || !request.writes.some((write) => write.type === "delete")) return;
        raced = true;
        expect(await other.createNamespace("acme", "late")).toBe("created");
      }),
    );
    expect(await deleting.deleteTenant("acme")).toBe("not-empty");
    expect(raced).toBe(true);
    expect(await other.getTenant("acme")).toBeDefined();
    expect(await other.listNamespaces("acme")).toEqual(["acme/late"]);
  });

  test("a creation whose answer was lost reports its own write as created", async () => {
    const store = new InMemoryMetadataStore();
    const namespaces = registry(store);
    store.faults.add({ op: "txn", mode: "apply-then-lose-response" });
    expect(await namespaces.createTenant("acme", [], ["c1"])).toBe("created");
    store.faults.add({ op: "txn", mode: "apply-then-lose-response" });
    expect(await namespaces.createNamespace("acme", "orders")).toBe("created");
    expect(await namespaces.listNamespaces("acme")).toEqual(["acme/orders"]);
  });
});
