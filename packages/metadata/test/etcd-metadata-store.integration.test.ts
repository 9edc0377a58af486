import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { ErrorCode, MetadataAmbiguousError, NereusError, type TxnResult } from "@nereus/core";
import { describeMetadataStoreConformance, manualGate } from "@nereus/core/testing";
import { loadServices } from "@nereus/test-services";
import { Etcd3 } from "etcd3";
import { afterAll, describe, expect, it } from "vitest";
import { createEtcdMetadataStore, type EtcdMetadataStore } from "../src/etcd-metadata-store.js";

const endpoint = loadServices().etcd.endpoint;
const runPrefix = `nereus-test/metadata/${randomUUID()}/`;
let testNumber = 0;
const admin = new Etcd3({ hosts: endpoint });

afterAll(async () => {
  await admin.delete().prefix(runPrefix);
  admin.close();
});

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

async function freshStore(): Promise<{ store: EtcdMetadataStore; prefix: string; cleanup: () => Promise<void> }> {
  const prefix = `${runPrefix}${testNumber++}/`;
  const store = await createEtcdMetadataStore({ endpoints: [endpoint] });
  return { store, prefix, cleanup: async () => void (await admin.delete().prefix(prefix)) };
}

describeMetadataStoreConformance("EtcdMetadataStore conformance (real etcd)", freshStore);

describe("EtcdMetadataStore against real etcd", () => {
  async function withStore(body: (store: EtcdMetadataStore, prefix: string) => Promise<void>): Promise<void> {
    const { store, prefix, cleanup } = await freshStore();
    try {
      await body(store, prefix);
    } finally {
      await store.close();
      await cleanup();
    }
  }

  it("fails to connect to a closed port with non-ambiguous METADATA_UNAVAILABLE within the dial timeout", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const started = Date.now();
    const error = await createEtcdMetadataStore({
      endpoints: [`http://127.0.0.1:${port}`],
      dialTimeoutMs: 2_000,
    }).catch((caught: unknown) => caught);
    expect(NereusError.hasCode(error, ErrorCode.METADATA_UNAVAILABLE)).toBe(true);
    expect(MetadataAmbiguousError.isAmbiguous(error)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a txn aborted in flight is ambiguous, and reloading resolves it", async () => {
    await withStore(async (store, prefix) => {
      const key = `${prefix}aborted`;
      const controller = new AbortController();
      const pending = store.txn(
        { compares: [{ key, modRevision: 0 }], writes: [{ type: "put", key, value: bytes("mine") }] },
        { signal: controller.signal },
      );
      controller.abort();
      const error = await pending.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MetadataAmbiguousError);
      // Resolve by reload: the key is either absent (not applied) or holds exactly our bytes (applied).
      const current = await store.get(key);
      if (current !== undefined) expect(new TextDecoder().decode(current.value)).toBe("mine");
    });
  });

  it("a read aborted in flight fails with CANCELLED, not as ambiguous", async () => {
    await withStore(async (store, prefix) => {
      const controller = new AbortController();
      const pending = store.get(`${prefix}k`, { signal: controller.signal });
      controller.abort();
      const error = await pending.catch((caught: unknown) => caught);
      expect(NereusError.hasCode(error, ErrorCode.CANCELLED)).toBe(true);
      expect(MetadataAmbiguousError.isAmbiguous(error)).toBe(false);
    });
  });

  it("getMany of more keys than one etcd txn may hold still reads them at one revision", async () => {
    await withStore(async (store, prefix) => {
      const keys = Array.from({ length: 300 }, (_, index) => `${prefix}many/${String(index).padStart(3, "0")}`);
      for (let start = 0; start < keys.length; start += 100) {
        await store.txn({
          compares: [],
          writes: keys.slice(start, start + 100).map((key) => ({ type: "put", key, value: bytes(key) })),
        });
      }
      const found = await store.getMany([...keys, `${prefix}many/absent`]);
      expect(found.size).toBe(300);
      expect(new TextDecoder().decode(found.get(keys[299] as string)?.value)).toBe(keys[299]);
    });
  });

  it("a txn with a durability gate is sent only once the gate opens; a failed gate applies nothing", async () => {
    await withStore(async (store, prefix) => {
      const key = `${prefix}gated`;
      const durable = manualGate();
      let settled = false;
      const pending = store.txn({
        compares: [{ key, modRevision: 0 }],
        writes: [{ type: "put", key, value: bytes("v") }],
        after: { durable: durable.promise },
      });
      const observed = pending.finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(settled).toBe(false);
      expect((await admin.get(key).exec()).kvs).toEqual([]);
      expect(await store.get(key)).toBeUndefined();
      durable.resolve();
      const result: TxnResult = await observed;
      expect(result.succeeded).toBe(true);
      const stored = await store.get(key);
      expect(new TextDecoder().decode(stored?.value)).toBe("v");
      expect(stored?.modRevision).toBe(result.succeeded ? result.revision : undefined);

      const refusedKey = `${prefix}refused`;
      const failing = manualGate();
      const refused = store
        .txn({
          compares: [],
          writes: [{ type: "put", key: refusedKey, value: bytes("x") }],
          after: { durable: failing.promise },
        })
        .catch((caught: unknown) => caught);
      failing.reject(new Error("segment write failed"));
      const error = await refused;
      expect(NereusError.hasCode(error, ErrorCode.PRIMARY_WAL_WRITE_FAILED)).toBe(true);
      expect((error as NereusError).details["ambiguous"]).toBe(false);
      expect(MetadataAmbiguousError.isAmbiguous(error)).toBe(false);
      expect((await admin.get(refusedKey).exec()).kvs).toEqual([]);
      // Same argument checks as the SQLite store, before anything is sent.
      const invalid = await store
        .txn({
          compares: [],
          writes: [{ type: "put", key: refusedKey, value: bytes("y") }],
          after: {
            durable: Promise.resolve(),
            accelerations: { shared: { words: new SharedArrayBuffer(24), sequence: 0 } },
          },
        })
        .catch((caught: unknown) => caught);
      expect(NereusError.hasCode(invalid, ErrorCode.INVALID_ARGUMENT)).toBe(true);
      expect((await admin.get(refusedKey).exec()).kvs).toEqual([]);
    });
  });

  it("rejects more writes than etcd's txn operation limit before sending", async () => {
    await withStore(async (store, prefix) => {
      const writes = Array.from({ length: 129 }, (_, index) => ({
        type: "put" as const,
        key: `${prefix}${index}`,
        value: bytes(""),
      }));
      const error = await store.txn({ compares: [], writes }).catch((caught: unknown) => caught);
      expect(NereusError.hasCode(error, ErrorCode.METADATA_LIMIT_EXCEEDED)).toBe(true);
    });
  });
});
