// Ledger metadata, id generation and bookie discovery against the harness's real ZooKeeper and bookies.
import { loadServices } from "@nereus/test-services";
import { afterAll, describe, expect, it } from "vitest";
import { BookieRegistry } from "../src/metadata/bookie-registry.js";
import { ZooKeeperLedgerIdGenerator } from "../src/metadata/ledger-id-generator.js";
import type { LedgerMetadata } from "../src/metadata/ledger-metadata.js";
import { ZooKeeperLedgerMetadataStore } from "../src/metadata/ledger-metadata-store.js";
import { ZooKeeperSession } from "../src/zookeeper/zookeeper-session.js";

const services = loadServices();
const root = services.bookkeeper.zkLedgersRoot;
const session = new ZooKeeperSession(services.zookeeper.connectString);
afterAll(() => session.close());

function metadataFor(ensemble: readonly string[], cToken: bigint): LedgerMetadata {
  return {
    ensembleSize: 3,
    writeQuorumSize: 2,
    ackQuorumSize: 2,
    state: "OPEN",
    lastEntryId: -1,
    length: 0,
    segments: [{ firstEntryId: 0, ensemble }],
    digestType: "CRC32C",
    password: new Uint8Array(0),
    customMetadata: {},
    cToken,
  };
}

describe("ZooKeeper ledger metadata (real ZooKeeper)", () => {
  const registry = new BookieRegistry(session, root);
  const store = new ZooKeeperLedgerMetadataStore(session, root);
  const ids = new ZooKeeperLedgerIdGenerator(session, root);

  it("discovers exactly the registered writable bookies and resolves their endpoints", async () => {
    const expected = services.bookkeeper.bookies.map((bookie) => bookie.id).sort();
    expect(await registry.writableBookies()).toEqual(expected);
    for (const bookie of services.bookkeeper.bookies) {
      expect(await registry.resolve(bookie.id)).toEqual({ host: "127.0.0.1", port: bookie.port });
    }
  });

  it("reads the hierarchical layout the bookies formatted", async () => {
    expect(await store.layout()).toBe("hierarchical");
  });

  it("generates distinct increasing ids from the shared idgen sequence and removes its nodes", async () => {
    const first = await ids.generate();
    const second = await ids.generate();
    expect(second).toBeGreaterThan(first);
    await expect.poll(async () => (await session.getChildren(`${root}/idgen`)) ?? []).toEqual([]);
  });

  it("creates, compares-and-sets, refuses stale versions and foreign creates, deletes and prunes", async () => {
    const ledgerId = await ids.generate();
    const ensemble = (await registry.writableBookies()).slice(0, 3);
    const created = metadataFor(ensemble, 77n);
    expect(await store.create(ledgerId, created)).toEqual({ ok: true, version: 0 });
    expect(await store.create(ledgerId, created)).toEqual({ ok: true, version: 0 }); // retried create, same cToken
    const foreign = await store.create(ledgerId, metadataFor(ensemble, 78n));
    expect(foreign).toMatchObject({ ok: false, reason: "exists", current: { version: 0 } });

    const read = await store.read(ledgerId);
    expect(read?.metadata).toEqual(created);
    expect(read?.ctimeMs).toBeGreaterThan(Date.now() - 60_000);

    const closed: LedgerMetadata = { ...created, state: "CLOSED", lastEntryId: 4, length: 50 };
    expect(await store.write(ledgerId, closed, 0)).toEqual({ ok: true, version: 1 });
    const stale = await store.write(ledgerId, created, 0);
    expect(stale).toMatchObject({ ok: false, current: { version: 1, metadata: { state: "CLOSED", lastEntryId: 4 } } });

    const path = await store.path(ledgerId);
    expect(await session.exists(path)).toBe(true);
    await expect(store.delete(ledgerId, { version: 0 })).rejects.toMatchObject({ code: "METADATA_CONDITION_FAILED" });
    expect(await store.delete(ledgerId, { version: 1 })).toBe(true);
    expect(await store.read(ledgerId)).toBeUndefined();
    expect(await store.delete(ledgerId)).toBe(false);
    expect(await store.write(ledgerId, closed, 1)).toEqual({ ok: false, current: undefined });
  });
});
