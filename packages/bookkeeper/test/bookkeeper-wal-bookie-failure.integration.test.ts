// Bookie failures under a stream of appends (issue 6 acceptance), on a private set of bookies started for this
// file (killing a shared bookie would disturb other tests). E=3 Qw=2 Qa=2 throughout:
//   - with a spare bookie (4 bookies): a bookie of the ledger's ensemble is SIGKILLed mid-stream; the ledger handle
//     replaces it (ensemble change), appends keep succeeding on the same ledger, none fails, none is lost; after
//     the bookie restarts every acknowledged append reads back exactly;
//   - without a spare (the ensemble is every live bookie): appends fail retryably and KNOWN_NOT_COMMITTED while the
//     bookie is down, never lose an acknowledged one, and resume on a new ledger once it is back.
import { AppendFailedError, ErrorCode, type AppendResult, type BookKeeperEntryRangeTarget } from "@nereus/core";
import { AppendProtocolHarness, InMemoryMetadataStore, opaqueBatch, text } from "@nereus/core/testing";
import { startServices, type RunningServices } from "@nereus/test-services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BookKeeperWalKit, readAll } from "./support/bookkeeper-wal-kit.js";

let services: RunningServices | undefined;
let kit: BookKeeperWalKit;

beforeAll(async () => {
  services = await startServices({ bookkeeper: { bookies: 4 } });
  kit = new BookKeeperWalKit(services);
}, 240_000);

afterAll(async () => {
  await kit?.close();
  await services?.stop();
}, 60_000);

function running(): RunningServices {
  if (services === undefined) throw new Error("services did not start");
  return services;
}

/** Sequential producers appending two-entry batches with unique payloads until `until()` holds. */
class Producers {
  readonly acknowledged = new Map<string, AppendResult>();
  readonly failures: Array<{ payload: string; error: unknown }> = [];
  #sequence = 0;
  #stop = false;
  #running: Promise<void>[] = [];

  start(append: (payload: string) => Promise<AppendResult>, count: number, retryDelayMs = 0): void {
    const loop = async (): Promise<void> => {
      while (!this.#stop) {
        const payload = `p-${String(this.#sequence++)}`;
        try {
          this.acknowledged.set(payload, await append(payload));
        } catch (error) {
          this.failures.push({ payload, error });
          if (retryDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
        }
      }
    };
    this.#running = Array.from({ length: count }, loop);
  }

  async until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline)
        throw new Error(
          `condition not reached in ${String(timeoutMs)} ms (${String(this.acknowledged.size)} acknowledged, ${String(this.failures.length)} failed)`,
        );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async stop(): Promise<void> {
    this.#stop = true;
    await Promise.all(this.#running);
  }
}

type Store = ReturnType<AppendProtocolHarness["open"]>;

async function expectExactlyAcknowledged(
  store: Store,
  streamId: string,
  producers: Producers,
  committedEnd: number,
): Promise<void> {
  const read = { entries: await readAll(store, streamId, 0) };
  expect(read.entries).toHaveLength(committedEnd);
  expect(committedEnd).toBe(producers.acknowledged.size * 2);
  const visible = read.entries.map((entry) => text(entry.payload));
  for (const [payload, result] of producers.acknowledged)
    expect(visible.slice(result.startOffset, result.endOffset)).toEqual([payload, `${payload}+`]);
  for (const { payload } of producers.failures) expect(visible).not.toContain(payload);
}

describe("bookie failure under a stream of appends (private bookies, E=3 Qw=2 Qa=2)", () => {
  it("with a spare bookie: a killed ensemble bookie is replaced, appends continue on the same ledger, nothing acknowledged is lost", async () => {
    const metadata = new InMemoryMetadataStore();
    const harness = new AppendProtocolHarness(metadata);
    const producers = new Producers();
    let victimIndex: number | undefined;
    try {
      const runtime = kit.runtime(metadata, harness.cluster);
      const store = harness.open({
        walWriters: runtime.walWriters,
        walReaders: runtime.walReaders,
        completionCoordinators: runtime.completionCoordinators,
      });
      const { streamId } = await store.createStream("bookie-kill", { profile: "BOOKKEEPER_WAL_ONLY" });
      producers.start((payload) => store.append(streamId, opaqueBatch(payload, `${payload}+`)), 4);
      await producers.until(() => producers.acknowledged.size >= 100);
      const ledgerId = runtime.writer.activeLedgerId(streamId);
      if (ledgerId === undefined) throw new Error("no active ledger");
      const ensemble = (await kit.client().getLedgerMetadata(ledgerId))?.metadata.segments[0]?.ensemble ?? [];
      const victim = running().bookkeeper.bookies.find((bookie) => bookie.id === ensemble[0]);
      if (victim === undefined) throw new Error("the ledger's ensemble is not among the private bookies");
      victimIndex = victim.index;
      await running().killBookie(victim.index);
      const killedAt = producers.acknowledged.size;
      await producers.until(() => producers.acknowledged.size >= killedAt + 300);
      await producers.stop();
      expect(producers.failures).toEqual([]);
      // The same ledger continued past an ensemble change that replaced the victim by the spare.
      expect(runtime.writer.activeLedgerId(streamId)).toBe(ledgerId);
      const segments = (await kit.client().getLedgerMetadata(ledgerId))?.metadata.segments ?? [];
      expect(segments.length).toBeGreaterThanOrEqual(2);
      expect(segments.at(-1)?.ensemble).not.toContain(victim.id);
      expect(runtime.stats.ledgersCreated).toBe(1);
      await running().restartBookie(victim.index);
      victimIndex = undefined;
      const reader = harness.open({
        writerId: "reader",
        walWriters: [],
        walReaders: kit.runtime(metadata, harness.cluster).walReaders,
        completionCoordinators: runtime.completionCoordinators,
      });
      await expectExactlyAcknowledged(reader, streamId, producers, (await harness.head(streamId)).committedEndOffset);
    } finally {
      await producers.stop();
      if (victimIndex !== undefined && !running().isBookieRunning(victimIndex))
        await running().restartBookie(victimIndex);
      await harness.dispose();
      await metadata.close();
    }
  }, 180_000);

  it("without a spare: appends fail retryably (KNOWN_NOT_COMMITTED) while the bookie is down and resume on a new ledger after it returns", async () => {
    const metadata = new InMemoryMetadataStore();
    const harness = new AppendProtocolHarness(metadata);
    const producers = new Producers();
    const down: number[] = [];
    try {
      // Leave exactly three live bookies, so an E=3 ensemble has no spare.
      const bookies = running().bookkeeper.bookies;
      const first = bookies[3];
      if (first === undefined) throw new Error("expected four bookies");
      await running().killBookie(first.index);
      down.push(first.index);
      const runtime = kit.runtime(metadata, harness.cluster, { client: kit.client(2_000) });
      const store = harness.open({
        walWriters: runtime.walWriters,
        walReaders: runtime.walReaders,
        completionCoordinators: runtime.completionCoordinators,
      });
      const { streamId } = await store.createStream("bookie-kill-no-spare", { profile: "BOOKKEEPER_WAL_ONLY" });
      // The dead bookie stays registered for its ZooKeeper session timeout; wait until a ledger avoids it.
      let firstLedger: bigint | undefined;
      for (let attempt = 0; attempt < 50 && firstLedger === undefined; attempt++) {
        try {
          await store.append(streamId, opaqueBatch(`warm-${String(attempt)}`, `warm-${String(attempt)}+`));
          firstLedger = runtime.writer.activeLedgerId(streamId);
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      if (firstLedger === undefined) throw new Error("no ledger could be created on the three live bookies");
      const warmEnd = (await harness.head(streamId)).committedEndOffset;
      producers.start((payload) => store.append(streamId, opaqueBatch(payload, `${payload}+`)), 3, 100);
      await producers.until(() => producers.acknowledged.size >= 50);
      const ensemble = (await kit.client().getLedgerMetadata(firstLedger))?.metadata.segments.at(-1)?.ensemble ?? [];
      const victim = bookies.find((bookie) => bookie.id === ensemble[1]);
      if (victim === undefined) throw new Error("the ledger's ensemble is not among the private bookies");
      await running().killBookie(victim.index);
      down.push(victim.index);
      await producers.until(() => producers.failures.length >= 3);
      const acknowledgedWhileDown = producers.acknowledged.size;
      for (const { error } of producers.failures) {
        expect(AppendFailedError.isAppendFailure(error), String(error)).toBe(true);
        expect((error as AppendFailedError).outcome).toBe("KNOWN_NOT_COMMITTED");
        expect((error as AppendFailedError).retryable).toBe(true);
      }
      for (const index of down.splice(0)) await running().restartBookie(index);
      await producers.until(() => producers.acknowledged.size >= acknowledgedWhileDown + 50, 90_000);
      await producers.stop();
      const resumedOn = runtime.writer.activeLedgerId(streamId);
      expect(resumedOn).not.toBe(firstLedger);
      const codes = new Set(producers.failures.map(({ error }) => (error as AppendFailedError).code));
      for (const code of codes)
        expect([ErrorCode.PRIMARY_WAL_WRITE_FAILED, ErrorCode.PRIMARY_WAL_READ_FAILED, ErrorCode.TIMEOUT]).toContain(
          code,
        );
      const head = await harness.head(streamId);
      const read = { entries: await readAll(store, streamId, warmEnd) };
      expect(read.entries).toHaveLength(head.committedEndOffset - warmEnd);
      const visible = read.entries.map((entry) => text(entry.payload));
      for (const [payload, result] of producers.acknowledged)
        expect(visible.slice(result.startOffset - warmEnd, result.endOffset - warmEnd)).toEqual([
          payload,
          `${payload}+`,
        ]);
      for (const { payload } of producers.failures) expect(visible).not.toContain(payload);
      expect(read.entries).toHaveLength(producers.acknowledged.size * 2);
      const ledgers = new Set(
        (await harness.reachableCommits(streamId)).map(
          (intent) => (intent.readTarget as BookKeeperEntryRangeTarget).ledgerId,
        ),
      );
      expect(ledgers.size).toBeGreaterThanOrEqual(2);
    } finally {
      await producers.stop();
      for (const index of down) if (!running().isBookieRunning(index)) await running().restartBookie(index);
      const last = running().bookkeeper.bookies[3];
      if (last !== undefined && !running().isBookieRunning(last.index)) await running().restartBookie(last.index);
      await harness.dispose();
      await metadata.close();
    }
  }, 240_000);
});
