// Ensemble change against real bookies: a bookie of the ensemble is SIGKILLed while adds stream; the writer
// replaces it by the spare bookie through a metadata CAS, re-sends what was pending, and loses no confirmed add.
// On a private set of three bookies started for this file: killing a shared bookie would disturb the other test
// files that run meanwhile (their ledgers may need every bookie).
import { ErrorCode } from "@nereus/core";
import { startServices, type RunningServices } from "@nereus/test-services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BookieClient } from "../src/client/bookie-client.js";
import { createBookKeeperClient } from "../src/client/bookkeeper-client.js";
import { createDigestManager } from "../src/digest/digest-manager.js";
import { packageEntry } from "../src/digest/entry-codec.js";
import { deriveMasterKey } from "../src/digest/master-key.js";
import { BookieRegistry } from "../src/metadata/bookie-registry.js";
import { ZooKeeperSession } from "../src/zookeeper/zookeeper-session.js";

let services: RunningServices;
let client: ReturnType<typeof createBookKeeperClient>;
let session: ZooKeeperSession;
let rawBookies: BookieClient;

beforeAll(async () => {
  services = await startServices({ bookkeeper: { bookies: 3 } });
  client = createBookKeeperClient({
    zooKeeperConnectString: services.zookeeper.connectString,
    ledgersRoot: services.bookkeeper.zkLedgersRoot,
    requestTimeoutMs: 5_000,
  });
  session = new ZooKeeperSession(services.zookeeper.connectString);
  rawBookies = new BookieClient(new BookieRegistry(session, services.bookkeeper.zkLedgersRoot));
}, 240_000);

afterAll(async () => {
  await client?.close();
  await rawBookies?.close();
  await session?.close();
  await services?.stop();
}, 60_000);

const payloadOf = (index: number) => {
  const out = new Uint8Array(512 + (index % 7) * 100);
  out.fill(index & 0xff);
  new DataView(out.buffer).setUint32(0, index);
  return out;
};

async function restartIfDown(index: number): Promise<void> {
  if (!services.isBookieRunning(index)) await services.restartBookie(index);
}

describe("ensemble change on a killed bookie", () => {
  it("replaces the dead bookie with the spare one, keeps every confirmed add, and reads all back after restart", async () => {
    // Three bookies: an ensemble of two leaves one spare to replace the killed bookie. The scenario needs that spare,
    // so the ledger must reach the kill without an ensemble change of its own: on a loaded machine a fresh bookie
    // can fail an early add (the handle then replaces it correctly, which is not what this test is about). Such a
    // ledger is closed and the scenario starts again on a new one.
    let writer = await client.createLedger({ ensembleSize: 2, writeQuorumSize: 2, ackQuorumSize: 2 });
    let confirmed = new Map<number, Uint8Array>();
    const failures: unknown[] = [];
    let index = 0;
    const inFlight: Promise<void>[] = [];
    const stream = async (until: () => boolean) => {
      while (!until()) {
        const payload = payloadOf(index);
        const into = confirmed;
        index += 1;
        inFlight.push(
          writer.addEntry(payload).then(
            (entryId) => void into.set(entryId, payload),
            (error: unknown) => void failures.push(error),
          ),
        );
        if (inFlight.length >= 32) await inFlight.shift();
      }
    };
    for (let attempt = 1; ; attempt += 1) {
      await stream(() => confirmed.size >= 150 || failures.length > 0);
      await Promise.all(inFlight.splice(0));
      expect(failures).toEqual([]);
      if (writer.ensembleChanges === 0) break;
      if (attempt === 3)
        throw new Error(
          `every attempt changed its ensemble before the kill (last: ${JSON.stringify(writer.metadata.segments)})`,
        );
      console.warn(
        `ensemble changed before the kill (${JSON.stringify(writer.metadata.segments)}); starting over on a new ledger`,
      );
      await writer.close();
      writer = await client.createLedger({ ensembleSize: 2, writeQuorumSize: 2, ackQuorumSize: 2 });
      confirmed = new Map();
      index = 0;
    }

    const original = writer.metadata.segments[0]?.ensemble ?? [];
    const victim = services.bookkeeper.bookies.find((bookie) => bookie.id === original[0]);
    const spare = services.bookkeeper.bookies.find((bookie) => !original.includes(bookie.id));
    if (victim === undefined || spare === undefined) throw new Error("harness bookies do not match the ensemble");
    try {
      await services.killBookie(victim.index);
      const target = confirmed.size + 300;
      await stream(() => confirmed.size >= target || failures.length > 0);
      await Promise.all(inFlight);
      expect(failures).toEqual([]);
      expect(writer.ensembleChanges).toBeGreaterThanOrEqual(1);
      expect(writer.lastAddConfirmed).toBe(index - 1);

      const stored = (await client.getLedgerMetadata(writer.ledgerId))?.metadata;
      expect(stored?.state).toBe("OPEN");
      expect(stored?.segments).toHaveLength(2);
      const second = stored?.segments[1];
      expect(second?.firstEntryId).toBeGreaterThan(0);
      expect(second?.ensemble).toEqual(original.map((bookie) => (bookie === victim.id ? spare.id : bookie)));

      // Reads of the first segment fall back from the dead bookie to the live replica.
      const whileDown = await writer.readEntries(0, writer.lastAddConfirmed);
      for (const [entryId, payload] of confirmed) expect(whileDown[entryId]?.payload).toEqual(payload);

      await services.restartBookie(victim.index);
      await writer.close();
      const closed = (await client.getLedgerMetadata(writer.ledgerId))?.metadata;
      expect(closed).toMatchObject({ state: "CLOSED", lastEntryId: index - 1 });
      expect(closed?.segments).toEqual(stored?.segments);

      const reader = await client.openLedger(writer.ledgerId, { recovery: false });
      const entries = await reader.readEntries(0, reader.lastAddConfirmed);
      expect(entries).toHaveLength(confirmed.size);
      for (const [entryId, payload] of confirmed) expect(entries[entryId]?.payload).toEqual(payload);
    } finally {
      await Promise.allSettled(inFlight);
      await restartIfDown(victim.index);
    }
  });

  it("fails the ledger (retryably) when no spare bookie exists to replace a dead one", async () => {
    const writer = await client.createLedger({ ensembleSize: 3, writeQuorumSize: 2, ackQuorumSize: 2 });
    for (let entryId = 0; entryId < 10; entryId += 1) await writer.addEntry(payloadOf(entryId));
    const victim = services.bookkeeper.bookies[1];
    if (victim === undefined) throw new Error("no bookie 1");
    try {
      await services.killBookie(victim.index);
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, offset) => writer.addEntry(payloadOf(10 + offset))),
      );
      const rejected = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
      expect(rejected.length).toBeGreaterThan(0);
      expect(rejected[0]?.reason).toMatchObject({ code: ErrorCode.PRIMARY_WAL_WRITE_FAILED, retryable: true });
      // Confirmed entries stay; once the bookie is back, the next owner seals the ledger with recovery (recovery
      // itself must re-add the tail to a full write set, which needs the bookie or a spare).
      await services.restartBookie(victim.index);
      const recovered = await client.openLedger(writer.ledgerId, { recovery: true });
      expect(recovered.lastAddConfirmed).toBeGreaterThanOrEqual(9);
      expect((await recovered.readEntries(0, 9)).map((entry) => entry.payload)).toEqual(
        Array.from({ length: 10 }, (_, entryId) => payloadOf(entryId)),
      );
    } finally {
      await restartIfDown(victim.index);
    }
  });

  it("recovers with a dead bookie: fences the live replicas, re-adds the tail to a replacement and records it at close", async () => {
    const writer = await client.createLedger({ ensembleSize: 2, writeQuorumSize: 2, ackQuorumSize: 2 });
    for (let entryId = 0; entryId < 5; entryId += 1) await writer.addEntry(payloadOf(entryId));
    const [first, second] = writer.metadata.segments[0]?.ensemble ?? [];
    const victim = services.bookkeeper.bookies.find((bookie) => bookie.id === first);
    const spare = services.bookkeeper.bookies.find((bookie) => bookie.id !== first && bookie.id !== second);
    if (victim === undefined || spare === undefined || second === undefined)
      throw new Error("harness bookies do not match the ensemble");
    // The writer crashed while adding entry 5: only the second bookie got it.
    const length = [0, 1, 2, 3, 4, 5].map((entryId) => payloadOf(entryId).length).reduce((a, b) => a + b, 0);
    const body = packageEntry(
      { ledgerId: writer.ledgerId, entryId: 5, lastAddConfirmed: 4, length },
      payloadOf(5),
      createDigestManager("CRC32C", ""),
    );
    await rawBookies.addEntry(second, { ledgerId: writer.ledgerId, entryId: 5, masterKey: deriveMasterKey(""), body });
    try {
      await services.killBookie(victim.index);
      const recovered = await client.openLedger(writer.ledgerId, { recovery: true });
      expect(recovered.lastAddConfirmed).toBe(5);
      expect(recovered.length).toBe(length);
      expect(recovered.metadata.segments).toEqual([
        { firstEntryId: 0, ensemble: [first, second] },
        { firstEntryId: 5, ensemble: [spare.id, second] },
      ]);
      const entries = await recovered.readEntries(0, 5);
      expect(entries.map((entry) => entry.payload)).toEqual([0, 1, 2, 3, 4, 5].map(payloadOf));
      expect((await rawBookies.readEntry(spare.id, { ledgerId: writer.ledgerId, entryId: 5 })).found).toBe(true);
      await expect(writer.addEntry(payloadOf(6))).rejects.toMatchObject({ code: ErrorCode.FENCED_APPEND });
    } finally {
      await restartIfDown(victim.index);
    }
  });
});
