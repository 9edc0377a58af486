// Issue 6 acceptance of the BookKeeper object profiles on real services: 3 bookies + ZooKeeper (BookKeeper WAL),
// etcd (metadata) and s3proxy (Object generations). The Object side is @nereus/object-wal's runtime; it reads BK
// ranges only through the BK runtime's reader as a WalReader (no provider imports another; this package composes).
//   BOOKKEEPER_WAL_ASYNC_OBJECT — success at the stable head; lag admission rejects before any BookKeeper I/O (adds,
//     creates, recovery-opens counted); commits stay readable from BK; after the worker catches up reads come from
//     the Object generation, byte-identical.
//   BOOKKEEPER_WAL_SYNC_OBJECT — success only after a committed generation covering the append was read back;
//     consumers read from BK while the producer waits; an object-store outage ⇒ KNOWN_COMMITTED (attempt id);
//     recoverAppend reports the same offsets and the stream's ledger holds every entry exactly once.
import { randomBytes } from "node:crypto";
import { AppendFailedError, ErrorCode, type AppendResult, type ReadEntry, type StreamStore } from "@nereus/core";
import { afterAll, describe, expect, it } from "vitest";
import {
  BK_PASSWORD,
  bookKeeperClient,
  cleanupRun,
  openProcess,
  type BookKeeperObjectProcess,
} from "./support/bookkeeper-object-stack.js";

const inspector = bookKeeperClient();
afterAll(async () => {
  await inspector.close();
  await cleanupRun();
});

const opaque = (payload: Uint8Array) => ({
  payloadFormat: "OPAQUE_RECORD_BATCH" as const,
  entries: [{ payload, recordCount: 1 }],
});

async function readAll(store: StreamStore, streamId: string, from = 0): Promise<ReadEntry[]> {
  const entries: ReadEntry[] = [];
  for (let offset = from; ;) {
    const page = await store.read(streamId, offset, { maxRecords: 10_000 });
    entries.push(...page.entries);
    if (page.endOfStream) return entries;
    offset = page.nextOffset;
  }
}

const hex = (entries: readonly { readonly payload: Uint8Array }[]): string[] =>
  entries.map((entry) => Buffer.from(entry.payload).toString("hex"));

/** Every BookKeeper write-side I/O of a runtime: ledger creates, entry adds, recovery-opens, persists. */
function writeIo(process: BookKeeperObjectProcess): number {
  const stats = process.bk.stats;
  return stats.ledgersCreated + stats.entriesAdded + stats.recoveryOpens + stats.persists;
}

function ledgerOf(result: AppendResult): string {
  if (result.readTarget.type !== "BOOKKEEPER_ENTRY_RANGE")
    throw new Error(`expected a BookKeeper target, got ${result.readTarget.type}`);
  return result.readTarget.ledgerId;
}

async function withProcess(
  open: () => Promise<BookKeeperObjectProcess>,
  test: (process: BookKeeperObjectProcess) => Promise<void>,
): Promise<void> {
  const process = await open();
  try {
    await test(process);
  } finally {
    await process.close();
  }
}

describe("BOOKKEEPER_WAL_ASYNC_OBJECT (3 bookies, ZooKeeper, etcd, s3proxy)", () => {
  it("acks at the stable head, rejects over the lag bound before any BookKeeper I/O, then reads move to the Object generation byte-identical", async () => {
    await withProcess(
      () => openProcess({ lagBound: { maxRecords: 5, maxBytes: 0 }, materialization: { enabled: false } }),
      async (process) => {
        const { store, bk, objectWal } = process;
        const { streamId } = await store.createStream("orders-async", { profile: "BOOKKEEPER_WAL_ASYNC_OBJECT" });
        const payloads = Array.from({ length: 6 }, () => randomBytes(700 + Math.floor(Math.random() * 600)));
        const results: AppendResult[] = [];
        for (const payload of payloads) results.push(await store.append(streamId, opaque(payload)));
        expect(results.map((result) => result.startOffset)).toEqual([0, 1, 2, 3, 4, 5]);
        expect(new Set(results.map(ledgerOf)).size).toBe(1);
        expect(bk.stats.entriesAdded).toBe(6);

        // Lag 6 > 5: rejected before any BookKeeper I/O (no create, no add, no recovery-open).
        const io = writeIo(process);
        const rejected = await store.append(streamId, opaque(randomBytes(100))).catch((error: unknown) => error);
        expect(rejected).toBeInstanceOf(AppendFailedError);
        expect((rejected as AppendFailedError).code).toBe(ErrorCode.BACKPRESSURE_REJECTED);
        expect((rejected as AppendFailedError).outcome).toBe("KNOWN_NOT_COMMITTED");
        expect(writeIo(process)).toBe(io);
        expect(objectWal.admission.rejected).toBe(1);

        // Existing commits stay readable — from BookKeeper.
        const rangesBefore = bk.stats.rangesRead;
        expect(hex(await readAll(store, streamId))).toEqual(hex(payloads.map((payload) => ({ payload }))));
        expect(bk.stats.rangesRead).toBeGreaterThan(rangesBefore);

        // The worker reads the exact committed BK ranges (through the reader) and publishes a generation.
        const workerReadsBefore = bk.stats.rangesRead;
        await objectWal.worker.runStream(streamId);
        expect(objectWal.worker.stats.tasksPublished).toBe(1);
        expect(bk.stats.rangesRead - workerReadsBefore).toBe(6);
        expect(bk.stats.entriesAdded).toBe(6);

        // Reads now come from the Object generation (no BookKeeper read), byte-identical.
        const bkReads = bk.stats.rangesRead;
        const objectReads = objectWal.reader.stats.reads;
        expect(hex(await readAll(store, streamId))).toEqual(hex(payloads.map((payload) => ({ payload }))));
        expect(bk.stats.rangesRead).toBe(bkReads);
        expect(objectWal.reader.stats.reads).toBeGreaterThan(objectReads);

        // Caught up: appends are admitted again.
        const next = await store.append(streamId, opaque(randomBytes(100)));
        expect(next.startOffset).toBe(6);
        expect(next.readTarget.type).toBe("BOOKKEEPER_ENTRY_RANGE");
      },
    );
  });
});

describe("BOOKKEEPER_WAL_SYNC_OBJECT (3 bookies, ZooKeeper, etcd, s3proxy)", () => {
  it("acks only after the required generation is committed and read back; consumers read from BookKeeper meanwhile", async () => {
    let gate: Promise<void> | undefined;
    let release: () => void = () => undefined;
    let entered: () => void = () => undefined;
    const atUpload = new Promise<void>((resolve) => {
      entered = resolve;
    });
    await withProcess(
      () =>
        openProcess({
          materialization: {
            intervalMs: 20,
            hooks: {
              afterOutputUpload: async () => {
                entered();
                await gate;
              },
            },
          },
        }),
      async (process) => {
        const { store, bk, objectWal } = process;
        objectWal.start();
        const { streamId } = await store.createStream("orders-sync", { profile: "BOOKKEEPER_WAL_SYNC_OBJECT" });
        gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        const payload = randomBytes(2048);
        let settled = false;
        const pending = store.append(streamId, opaque(payload)).finally(() => {
          settled = true;
        });
        await atUpload;
        // The head committed (the generation is being built): a consumer reads the range from BookKeeper.
        const bkReads = bk.stats.rangesRead;
        const meanwhile = await readAll(store, streamId);
        expect(hex(meanwhile)).toEqual(hex([{ payload }]));
        expect(bk.stats.rangesRead).toBeGreaterThan(bkReads);
        expect(settled).toBe(false);
        release();
        const result = await pending;
        expect([result.startOffset, result.endOffset]).toEqual([0, 1]);
        expect(result.readTarget.type).toBe("BOOKKEEPER_ENTRY_RANGE");
        expect(objectWal.required.verified).toBe(1);
        // Published before success: reads come from the Object generation (downloaded, or from the reader's
        // verified-slice cache, which the required-generation check filled when it read the generation back).
        const servedByObjectReader = (): number => objectWal.reader.stats.reads + objectWal.reader.stats.cacheHits;
        const objectReads = servedByObjectReader();
        const bkAfter = bk.stats.rangesRead;
        expect(hex(await readAll(store, streamId))).toEqual(hex([{ payload }]));
        expect(servedByObjectReader()).toBeGreaterThan(objectReads);
        expect(bk.stats.rangesRead).toBe(bkAfter);
      },
    );
  });

  it("an object-store outage during an append ⇒ KNOWN_COMMITTED; after recovery the same offsets, and BookKeeper holds no second copy", async () => {
    const process = await openProcess({ materialization: { intervalMs: 20 } });
    let ledgers: Set<string>;
    let committedEntries: number;
    const payloads = [randomBytes(1024), randomBytes(1024), randomBytes(1024)];
    try {
      const { store, bk, objects, objectWal } = process;
      objectWal.start();
      const { streamId } = await store.createStream("orders-sync-outage", { profile: "BOOKKEEPER_WAL_SYNC_OBJECT" });
      const first = await store.append(streamId, opaque(payloads[0] as Uint8Array));
      expect(first.startOffset).toBe(0);

      objects.outage = true;
      const addsBefore = bk.stats.entriesAdded;
      const failed = await store
        .append(streamId, opaque(payloads[1] as Uint8Array), { timeoutMs: 2_000 })
        .catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(AppendFailedError);
      const failure = failed as AppendFailedError;
      expect(failure.outcome).toBe("KNOWN_COMMITTED");
      expect(typeof failure.attemptId).toBe("string");
      expect(bk.stats.entriesAdded).toBe(addsBefore + 1);
      expect(objects.refused).toBeGreaterThan(0);
      // Committed and readable from BookKeeper during the outage (offset 1 has no Object generation yet).
      const during = await store.read(streamId, 1);
      expect(hex(during.entries)).toEqual(hex([{ payload: payloads[1] as Uint8Array }]));

      objects.outage = false;
      const addsBeforeRecovery = bk.stats.entriesAdded;
      const persistsBeforeRecovery = bk.stats.persists;
      const recovered = await store.recoverAppend(streamId, failure.attemptId as string, { timeoutMs: 30_000 });
      expect([recovered.startOffset, recovered.endOffset]).toEqual([1, 2]);
      expect(recovered.readTarget.type).toBe("BOOKKEEPER_ENTRY_RANGE");
      expect(bk.stats.entriesAdded).toBe(addsBeforeRecovery);
      expect(bk.stats.persists).toBe(persistsBeforeRecovery);
      expect(objectWal.required.verified).toBe(2);
      // Recovery is stable (cached), and the lane goes on at the next offset.
      const again = await store.recoverAppend(streamId, failure.attemptId as string);
      expect(again).toEqual(recovered);
      const third = await store.append(streamId, opaque(payloads[2] as Uint8Array));
      expect([third.startOffset, third.endOffset]).toEqual([2, 3]);
      expect(hex(await readAll(store, streamId))).toEqual(hex(payloads.map((payload) => ({ payload }))));
      ledgers = new Set([first, recovered, third].map(ledgerOf));
      committedEntries = 3;
      expect(bk.stats.entriesAdded).toBe(3);
    } finally {
      await process.close(); // seals the stream's ledger (CLOSED, frozen LAC)
    }
    // Count the entries BookKeeper holds for the stream: exactly one per committed entry.
    let held = 0;
    for (const ledgerId of ledgers) {
      const handle = await inspector.openLedger(BigInt(ledgerId), { recovery: false, password: BK_PASSWORD });
      expect(handle.isClosed).toBe(true);
      held += handle.lastAddConfirmed + 1;
    }
    expect(held).toBe(committedEntries);
  });
});
