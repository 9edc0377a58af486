// etcd is real and usable from Node (etcd3): compare-and-set on mod_revision, a put-if-absent race with one
// winner, and a lease without keepalive that expires and takes its key with it.
import { randomUUID } from "node:crypto";
import { Etcd3 } from "etcd3";
import { afterAll, describe, expect, it } from "vitest";
import { loadServices } from "../src/index.js";
import { waitUntil } from "../src/wait.js";

const services = loadServices();
const clients: Etcd3[] = [];

function client(): Etcd3 {
  const c = new Etcd3({ hosts: services.etcd.endpoint });
  clients.push(c);
  return c;
}

afterAll(() => {
  for (const c of clients) c.close();
});

describe("etcd", () => {
  it("commits a txn guarded by the current mod_revision and rejects a stale one", async () => {
    const etcd = client();
    const key = `test/cas/${randomUUID()}`;
    await etcd.put(key).value("v1");
    const first = await etcd.get(key).exec();
    const revision = first.kvs[0]?.mod_revision;
    expect(revision).toBeDefined();

    const ok = await etcd
      .if(key, "Mod", "==", revision ?? "")
      .then(etcd.put(key).value("v2"))
      .commit();
    expect(ok.succeeded).toBe(true);
    expect(await etcd.get(key).string()).toBe("v2");

    const stale = await etcd
      .if(key, "Mod", "==", revision ?? "")
      .then(etcd.put(key).value("v3"))
      .commit();
    expect(stale.succeeded).toBe(false);
    expect(await etcd.get(key).string()).toBe("v2");
  });

  it("lets exactly one of 8 concurrent clients create a key (create_revision == 0)", async () => {
    const key = `test/race/${randomUUID()}`;
    const contenders = Array.from({ length: 8 }, (_, i) => ({ id: `writer-${i}`, etcd: client() }));
    const results = await Promise.all(
      contenders.map(async ({ id, etcd }) => {
        const txn = await etcd.if(key, "Create", "==", 0).then(etcd.put(key).value(id)).commit();
        return { id, won: txn.succeeded };
      }),
    );
    const winners = results.filter((r) => r.won);
    expect(winners).toHaveLength(1);
    expect(await client().get(key).string()).toBe(winners[0]?.id);
  });

  it("expires a 1 s lease without keepalive and removes its key", async () => {
    const etcd = client();
    const key = `test/lease/${randomUUID()}`;
    const lease = etcd.lease(1, { autoKeepAlive: false });
    lease.on("lost", () => undefined);
    await lease.put(key).value("ephemeral");
    expect(await etcd.get(key).string()).toBe("ephemeral");
    const start = Date.now();
    await waitUntil("the leased key to disappear", async () => (await etcd.get(key).string()) === null, {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    expect(Date.now() - start).toBeLessThan(10_000);
    lease.release();
  });
});
