// Create / add / read / close / reopen / delete against the harness's three real bookies.
import { ErrorCode } from "@nereus/core";
import { loadServices } from "@nereus/test-services";
import { afterAll, describe, expect, it } from "vitest";
import { createBookKeeperClient } from "../src/client/bookkeeper-client.js";

const services = loadServices();
const client = createBookKeeperClient({
  zooKeeperConnectString: services.zookeeper.connectString,
  ledgersRoot: services.bookkeeper.zkLedgersRoot,
});
afterAll(() => client.close());

function payloadOf(entryId: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) out[i] = (entryId * 31 + i * 7) & 0xff;
  return out;
}

const SIZES = [0, 1, 100, 1024, 65_536, 1024 * 1024];

describe.each([
  { ensembleSize: 3, writeQuorumSize: 2, ackQuorumSize: 2 },
  { ensembleSize: 3, writeQuorumSize: 3, ackQuorumSize: 3 },
])("ledger E=$ensembleSize Qw=$writeQuorumSize Qa=$ackQuorumSize on real bookies", (quorums) => {
  it("writes metadata before adding, confirms entries in order and reads back exact bytes", async () => {
    const handle = await client.createLedger({ ...quorums, password: "pw" });
    const created = await client.getLedgerMetadata(handle.ledgerId);
    expect(created?.metadata).toMatchObject({
      state: "OPEN",
      ...quorums,
      digestType: "CRC32C",
      segments: [{ firstEntryId: 0 }],
    });
    expect(new Set(created?.metadata.segments[0]?.ensemble)).toEqual(
      new Set(services.bookkeeper.bookies.map((bookie) => bookie.id)),
    );

    const payloads: Uint8Array[] = [];
    for (let entryId = 0; entryId < 12; entryId += 1) {
      const payload = payloadOf(entryId, SIZES[entryId % SIZES.length] ?? 0);
      payloads.push(payload);
      expect(await handle.addEntry(payload)).toBe(entryId);
      expect(handle.lastAddConfirmed).toBe(entryId);
    }
    // Pipelined adds complete in order.
    const more = Array.from({ length: 50 }, (_, index) => payloadOf(12 + index, 300));
    const order: number[] = [];
    const ids = await Promise.all(
      more.map((payload) => handle.addEntry(payload).then((entryId) => (order.push(entryId), entryId))),
    );
    payloads.push(...more);
    expect(ids).toEqual(Array.from({ length: 50 }, (_, index) => 12 + index));
    expect(order).toEqual(ids);
    expect(handle.lastAddConfirmed).toBe(61);

    const read = await handle.readEntries(0, 61);
    expect(read.map((entry) => entry.entryId)).toEqual(Array.from({ length: 62 }, (_, index) => index));
    read.forEach((entry, index) =>
      expect(Buffer.from(entry.payload).equals(Buffer.from(payloads[index] ?? new Uint8Array()))).toBe(true),
    );
    await expect(handle.readEntries(60, 62)).rejects.toMatchObject({ code: ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND });

    await handle.close();
    await handle.close(); // idempotent
    const totalBytes = payloads.reduce((sum, payload) => sum + payload.length, 0);
    expect((await client.getLedgerMetadata(handle.ledgerId))?.metadata).toMatchObject({
      state: "CLOSED",
      lastEntryId: 61,
      length: totalBytes,
    });
    await expect(handle.addEntry(new Uint8Array(1))).rejects.toMatchObject({ code: ErrorCode.STORAGE_CLOSED });

    const reader = await client.openLedger(handle.ledgerId, { recovery: false, password: "pw" });
    expect(reader.isClosed).toBe(true);
    expect(reader.lastAddConfirmed).toBe(61);
    expect(reader.length).toBe(totalBytes);
    const reread = await reader.readEntries(0, 61);
    reread.forEach((entry, index) =>
      expect(Buffer.from(entry.payload).equals(Buffer.from(payloads[index] ?? new Uint8Array()))).toBe(true),
    );
    await expect(reader.readEntries(0, 62)).rejects.toMatchObject({
      code: ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
      retryable: false,
    });
  });

  it("lets a tailing reader follow the LAC piggybacked on entries", async () => {
    const handle = await client.createLedger({ ...quorums });
    const empty = await client.openLedger(handle.ledgerId, { recovery: false });
    expect(empty.isClosed).toBe(false);
    expect(empty.lastAddConfirmed).toBe(-1);
    for (let entryId = 0; entryId < 5; entryId += 1) await handle.addEntry(payloadOf(entryId, 10));
    // Entry 4 was written while the writer's LAC was 3.
    expect(await empty.readLastAddConfirmed()).toBe(3);
    expect((await empty.readEntries(0, 3)).map((entry) => entry.entryId)).toEqual([0, 1, 2, 3]);
    expect((await empty.readUnconfirmedEntries(4, 4))[0]?.payload).toEqual(payloadOf(4, 10));
    await handle.close();
    expect(await empty.readLastAddConfirmed()).toBe(4);
    expect(empty.isClosed).toBe(true);
  });
});

describe("ledger lifecycle on real bookies", () => {
  it("refuses an entry larger than a bookie frame without consuming an entry id", async () => {
    const handle = await client.createLedger({});
    await expect(handle.addEntry(new Uint8Array(5 * 1024 * 1024))).rejects.toMatchObject({
      code: ErrorCode.INVALID_ARGUMENT,
    });
    expect(await handle.addEntry(new Uint8Array(4 * 1024 * 1024))).toBe(0);
    await handle.close();
    expect((await client.openLedger(handle.ledgerId, { recovery: false })).length).toBe(4 * 1024 * 1024);
  });

  it("refuses a wrong password, deletes, and reports deleted ledgers as not found", async () => {
    const handle = await client.createLedger({ password: "right" });
    await handle.addEntry(new TextEncoder().encode("x"));
    await handle.close();
    await expect(client.openLedger(handle.ledgerId, { recovery: false, password: "wrong" })).rejects.toMatchObject({
      code: ErrorCode.PRIMARY_WAL_READ_FAILED,
      retryable: false,
    });
    expect(await client.deleteLedger(handle.ledgerId)).toBe(true);
    expect(await client.getLedgerMetadata(handle.ledgerId)).toBeUndefined();
    expect(await client.deleteLedger(handle.ledgerId)).toBe(false);
    await expect(client.openLedger(handle.ledgerId, { recovery: false, password: "right" })).rejects.toMatchObject({
      code: ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
    });
  });

  it("creates a ledger with an explicit id once, stores custom metadata, and supports every digest type", async () => {
    const first = await client.createLedger({ customMetadata: { application: new TextEncoder().encode("nereus") } });
    await first.close();
    const explicitId = first.ledgerId + 1_000_000n;
    for (const digestType of ["CRC32", "HMAC", "DUMMY", "CRC32C"] as const) {
      const ledgerId = explicitId + BigInt(["CRC32", "HMAC", "DUMMY", "CRC32C"].indexOf(digestType));
      const handle = await client.createLedger({ ledgerId, digestType, password: "p" });
      expect(handle.ledgerId).toBe(ledgerId);
      await handle.addEntry(new TextEncoder().encode(digestType));
      await handle.close();
      const reader = await client.openLedger(ledgerId, { recovery: false, password: "p" });
      expect(new TextDecoder().decode((await reader.readEntries(0, 0))[0]?.payload)).toBe(digestType);
      await client.deleteLedger(ledgerId);
    }
    await expect(client.createLedger({ ledgerId: first.ledgerId })).rejects.toMatchObject({
      code: ErrorCode.METADATA_CONDITION_FAILED,
    });
    const stored = await client.getLedgerMetadata(first.ledgerId);
    expect(new TextDecoder().decode(stored?.metadata.customMetadata.application)).toBe("nereus");
  });
});
