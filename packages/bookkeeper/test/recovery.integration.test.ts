// Recovery-open against real bookies: it fences the old writer, recovers the tail from the bookies and closes
// the ledger; no add the old writer saw confirmed is ever lost.
import { ErrorCode, NereusError } from "@nereus/core";
import { loadServices } from "@nereus/test-services";
import { afterAll, describe, expect, it } from "vitest";
import { BookieClient } from "../src/client/bookie-client.js";
import { createBookKeeperClient } from "../src/client/bookkeeper-client.js";
import { writeSetOf } from "../src/client/distribution-schedule.js";
import { createDigestManager } from "../src/digest/digest-manager.js";
import { packageEntry } from "../src/digest/entry-codec.js";
import { deriveMasterKey } from "../src/digest/master-key.js";
import { BookieRegistry } from "../src/metadata/bookie-registry.js";
import { ZooKeeperSession } from "../src/zookeeper/zookeeper-session.js";

const services = loadServices();
const options = {
  zooKeeperConnectString: services.zookeeper.connectString,
  ledgersRoot: services.bookkeeper.zkLedgersRoot,
};
const writerClient = createBookKeeperClient(options);
const recoverer = createBookKeeperClient(options);
const session = new ZooKeeperSession(services.zookeeper.connectString);
const rawBookies = new BookieClient(new BookieRegistry(session, services.bookkeeper.zkLedgersRoot));
afterAll(async () => {
  await writerClient.close();
  await recoverer.close();
  await rawBookies.close();
  await session.close();
});

const encoder = new TextEncoder();
const payloadOf = (entryId: number) => encoder.encode(`entry-${String(entryId)}-${"x".repeat(entryId * 13)}`);

describe.each([
  { ensembleSize: 3, writeQuorumSize: 2, ackQuorumSize: 2 },
  { ensembleSize: 3, writeQuorumSize: 3, ackQuorumSize: 3 },
])("recovery E=$ensembleSize Qw=$writeQuorumSize Qa=$ackQuorumSize", (quorums) => {
  it("fences the old writer, recovers exactly its confirmed entries and closes the ledger", async () => {
    const writer = await writerClient.createLedger({ ...quorums, password: "pw" });
    for (let entryId = 0; entryId < 10; entryId += 1) await writer.addEntry(payloadOf(entryId));
    const length = Array.from({ length: 10 }, (_, entryId) => payloadOf(entryId).length).reduce((a, b) => a + b, 0);

    const recovered = await recoverer.openLedger(writer.ledgerId, { recovery: true, password: "pw" });
    expect(recovered.isClosed).toBe(true);
    expect(recovered.lastAddConfirmed).toBe(9);
    expect(recovered.length).toBe(length);
    expect((await recoverer.getLedgerMetadata(writer.ledgerId))?.metadata).toMatchObject({
      state: "CLOSED",
      lastEntryId: 9,
      length,
    });

    const fenced = await writer.addEntry(payloadOf(10)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(NereusError.hasCode(fenced, ErrorCode.FENCED_APPEND)).toBe(true);
    await expect(writer.addEntry(payloadOf(11))).rejects.toMatchObject({ code: ErrorCode.FENCED_APPEND });
    await writer.close(); // The ledger ended exactly where the old writer's confirmed entries ended.

    const entries = await recovered.readEntries(0, 9);
    entries.forEach((entry, entryId) => expect(entry.payload).toEqual(payloadOf(entryId)));
  });

  it("keeps every add confirmed before the fence when the writer is still streaming", async () => {
    const writer = await writerClient.createLedger({ ...quorums });
    const confirmed = new Map<number, Uint8Array>();
    const failures: unknown[] = [];
    let stop = false;
    const stream = (async () => {
      const inFlight: Promise<void>[] = [];
      for (let index = 0; !stop && index < 5000; index += 1) {
        const payload = payloadOf(index % 50);
        inFlight.push(
          writer.addEntry(payload).then(
            (entryId) => void confirmed.set(entryId, payload),
            (error: unknown) => void failures.push(error),
          ),
        );
        if (inFlight.length >= 16) await inFlight.shift();
      }
      await Promise.all(inFlight);
    })();
    await expect.poll(() => confirmed.size, { timeout: 10_000 }).toBeGreaterThan(20);
    const recovered = await recoverer.openLedger(writer.ledgerId, { recovery: true });
    stop = true;
    await stream;

    const lastEntryId = recovered.lastAddConfirmed;
    expect(Math.max(...confirmed.keys())).toBeLessThanOrEqual(lastEntryId);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((error) => NereusError.hasCode(error, ErrorCode.FENCED_APPEND))).toBe(true);
    const entries = await recovered.readEntries(0, lastEntryId);
    expect(entries).toHaveLength(lastEntryId + 1);
    for (const [entryId, payload] of confirmed) expect(entries[entryId]?.payload).toEqual(payload);
    // Recovery may also keep entries the writer sent but had not yet seen confirmed; they are contiguous.
    expect(confirmed.size).toBeLessThanOrEqual(lastEntryId + 1);
  });
});

describe("recovery edge cases", () => {
  it("recovers a tail entry that reached only one replica and stops at the first absent entry", async () => {
    const writer = await writerClient.createLedger({
      ensembleSize: 3,
      writeQuorumSize: 2,
      ackQuorumSize: 2,
      password: "k",
    });
    for (let entryId = 0; entryId < 4; entryId += 1) await writer.addEntry(payloadOf(entryId));
    // A writer that crashed mid-add: entry 4 reached only the first bookie of its write set.
    const metadata = writer.metadata;
    const ensemble = metadata.segments[0]?.ensemble ?? [];
    const target = ensemble[writeSetOf(4, 3, 2)[0] ?? 0] as string;
    const partial = payloadOf(4);
    const totalLength = [0, 1, 2, 3, 4].map((entryId) => payloadOf(entryId).length).reduce((a, b) => a + b, 0);
    const body = packageEntry(
      { ledgerId: writer.ledgerId, entryId: 4, lastAddConfirmed: 3, length: totalLength },
      partial,
      createDigestManager("CRC32C", "k"),
    );
    await rawBookies.addEntry(target, { ledgerId: writer.ledgerId, entryId: 4, masterKey: deriveMasterKey("k"), body });

    const recovered = await recoverer.openLedger(writer.ledgerId, { recovery: true, password: "k" });
    expect(recovered.lastAddConfirmed).toBe(4);
    expect(recovered.length).toBe(totalLength);
    expect((await recovered.readEntries(4, 4))[0]?.payload).toEqual(partial);
    // Re-added: both replicas of entry 4's write set now hold it.
    for (const index of writeSetOf(4, 3, 2)) {
      const result = await rawBookies.readEntry(ensemble[index] as string, { ledgerId: writer.ledgerId, entryId: 4 });
      expect(result.found).toBe(true);
    }
    await expect(writer.close()).rejects.toMatchObject({ code: ErrorCode.FENCED_APPEND });
  });

  it("closes an empty ledger at -1 and leaves a closed ledger untouched", async () => {
    const writer = await writerClient.createLedger({});
    const recovered = await recoverer.openLedger(writer.ledgerId, { recovery: true });
    expect(recovered.lastAddConfirmed).toBe(-1);
    expect(recovered.metadata).toMatchObject({ state: "CLOSED", lastEntryId: -1, length: 0 });
    const version = recovered.metadataVersion;
    const again = await recoverer.openLedger(writer.ledgerId, { recovery: true });
    expect(again.metadataVersion).toBe(version);
    await expect(writer.addEntry(payloadOf(0))).rejects.toMatchObject({ code: ErrorCode.FENCED_APPEND });
  });

  it("lets two concurrent recoveries agree on the same end", async () => {
    const writer = await writerClient.createLedger({});
    for (let entryId = 0; entryId < 6; entryId += 1) await writer.addEntry(payloadOf(entryId));
    const [a, b] = await Promise.all([
      recoverer.openLedger(writer.ledgerId, { recovery: true }),
      writerClient.openLedger(writer.ledgerId, { recovery: true }),
    ]);
    expect(a.lastAddConfirmed).toBe(5);
    expect(b.lastAddConfirmed).toBe(5);
  });
});
