// Ledger reclamation on real ZooKeeper and three real bookies, under the full append pipeline (in-memory metadata):
// trimmed ledgers leave BookKeeper (their metadata is deleted, so the bookies garbage-collect their entries) while
// every offset at or above the trim reads back as acknowledged; a read pin holds a ledger back; the inventory sweep
// deletes ledgers that never got a root and sealed ledgers nothing protects; and seeded histories of appends, trims,
// collection runs that crash at a random step, lose transaction responses or lose the delete's response, and reads
// of another process, read every retained offset back byte for byte after every run.
import { randomBytes } from "node:crypto";
import { ErrorCode, NereusError, type StreamStore, type TxnRequest } from "@nereus/core";
import { clusterPrefix } from "@nereus/core/internal";
import { AppendProtocolHarness, InMemoryMetadataStore, opaqueBatch, text } from "@nereus/core/testing";
import { loadServices } from "@nereus/test-services";
import { afterAll, describe, expect, it } from "vitest";
import {
  BookKeeperLedgerReclaimer,
  type BookKeeperLedgerReclaimerOptions,
  type LedgerReclamationPolicy,
} from "../src/index.js";
import type { BookKeeperWalRuntime } from "../src/wal/create-bookkeeper-wal-runtime.js";
import { BookKeeperWalKit, TEST_ALIAS, TEST_PASSWORD, readAll } from "./support/bookkeeper-wal-kit.js";

const kit = new BookKeeperWalKit(loadServices());
const inspector = kit.client();
afterAll(() => kit.close());

/** Every wait of the lifecycle off: one run takes a released ledger all the way to forgotten. */
const IMMEDIATE: LedgerReclamationPolicy = {
  graceMs: 0,
  clockSkewMs: 0,
  minLedgerAgeMs: 0,
  tombstoneRetentionMs: 0,
  orphanAgeMs: 0,
};

/** A crash of the collector, injected through its hooks. */
class InjectedCrash extends Error {}

class World {
  readonly metadata = new InMemoryMetadataStore();
  readonly harness = new AppendProtocolHarness(this.metadata);
  runtime: BookKeeperWalRuntime;
  store: StreamStore;

  constructor() {
    ({ runtime: this.runtime, store: this.store } = this.open());
  }

  /** A new process (its own client, runtime and store); ledgers roll over every 3 entries. */
  open(): { runtime: BookKeeperWalRuntime; store: StreamStore } {
    const runtime = kit.runtime(this.metadata, this.harness.cluster, { rollover: { maxEntries: 3 } });
    return { runtime, store: this.harness.open(runtime.storeOptions()) };
  }

  reclaimer(overrides: Partial<BookKeeperLedgerReclaimerOptions> = {}): BookKeeperLedgerReclaimer {
    return new BookKeeperLedgerReclaimer({
      metadata: this.metadata,
      client: kit.client(),
      cluster: this.harness.cluster,
      clusterAlias: TEST_ALIAS,
      writerId: "writer-a",
      readPins: this.store.readPins,
      policy: IMMEDIATE,
      ...overrides,
    });
  }

  /** Appends `count` single-entry batches; their payloads by offset. */
  async appendMany(streamId: string, count: number, tag: string): Promise<Map<number, string>> {
    const acknowledged = new Map<number, string>();
    for (let index = 0; index < count; index++) {
      const payload = `${tag}-${String(index)}-${randomBytes(4).toString("hex")}`;
      const result = await this.store.append(streamId, opaqueBatch(payload));
      acknowledged.set(result.startOffset, payload);
    }
    return acknowledged;
  }

  /** Keys left under the cluster prefix whose path contains `segment`. */
  async keysWith(segment: string): Promise<string[]> {
    const page = await this.metadata.scan(`${clusterPrefix(this.harness.cluster)}/`, { limit: 100_000 });
    return page.items.map((kv) => kv.key).filter((key) => key.includes(segment));
  }

  async dispose(): Promise<void> {
    await this.harness.dispose();
    await this.metadata.close();
  }
}

const withWorld = (test: (world: World) => Promise<void>) => async (): Promise<void> => {
  const world = new World();
  try {
    await test(world);
  } finally {
    await world.dispose();
  }
};

async function exists(ledgerId: string): Promise<boolean> {
  return (await inspector.getLedgerMetadata(BigInt(ledgerId))) !== undefined;
}

async function expectRetained(store: StreamStore, streamId: string, model: Map<number, string>, trim: number) {
  const entries = await readAll(store, streamId, trim);
  const expected = [...model.entries()].filter(([offset]) => offset >= trim).sort((a, b) => a[0] - b[0]);
  expect(entries.map((entry) => [entry.offset, text(entry.payload)])).toEqual(expected);
}

describe("BookKeeper ledger reclamation (real ZooKeeper and bookies)", () => {
  it(
    "a trim deletes the ledgers below it from BookKeeper; every retained offset reads back as acknowledged",
    withWorld(async (world) => {
      const { streamId } = await world.store.createStream("retained", { profile: "BOOKKEEPER_WAL_ONLY" });
      // More trimmed commits than one release transaction takes (they go in batches).
      const model = await world.appendMany(streamId, 45, "a");
      const targets = await world.harness.reachableCommits(streamId);
      const ledgerOf = new Map(
        targets.map((intent) => [
          intent.offsetStart,
          intent.readTarget.type === "BOOKKEEPER_ENTRY_RANGE" ? intent.readTarget.ledgerId : "",
        ]),
      );
      const all = new Set(ledgerOf.values());
      expect(all.size).toBe(15);
      await world.store.trim(streamId, 40);
      const below = new Set(Array.from({ length: 39 }, (_, offset) => ledgerOf.get(offset) ?? ""));
      const kept = new Set([...all].filter((ledger) => !below.has(ledger)));

      const reclaimer = world.reclaimer();
      const report = await reclaimer.runStream(streamId);
      expect(report).toMatchObject({ floor: 40, commitsTrimmed: 40, ledgersDeleted: 13, pendingLedgers: 0 });
      expect(report.error).toBeUndefined();
      for (const ledger of below) expect(await exists(ledger)).toBe(false);
      for (const ledger of kept) expect(await exists(ledger)).toBe(true);
      await expectRetained(world.store, streamId, model, 40);
      expect(reclaimer.stats.objectsFreed.get("BOOKKEEPER_LEDGER")).toBe(13);
      // Records of trimmed commits, their protections, the roots and journal entries of deleted ledgers are gone.
      const intents = await world.metadata.scan(world.harness.keyspace.intentPrefix(streamId), { limit: 1_000 });
      expect(intents.items.length).toBe(5);
      expect(await world.keysWith("/reclamation/")).toEqual([]);
      expect((await world.keysWith("/roots/")).length).toBe(kept.size);
      expect((await world.keysWith("/protections/")).length).toBe(5);
      // A run with nothing to do changes nothing.
      expect(await reclaimer.runStream(streamId)).toMatchObject({ commitsTrimmed: 0, ledgersDeleted: 0 });
      await reclaimer.close();
    }),
  );

  it(
    "a read pin of this process holds a marked ledger back until the read ends; the grace period waits for others",
    withWorld(async (world) => {
      const { streamId } = await world.store.createStream("pinned", { profile: "BOOKKEEPER_WAL_ONLY" });
      const model = await world.appendMany(streamId, 6, "p");
      const [first] = await world.harness.reachableCommits(streamId).then((list) => list.slice(-1));
      const ledgerId = first?.readTarget.type === "BOOKKEEPER_ENTRY_RANGE" ? first.readTarget.ledgerId : "";
      await world.store.trim(streamId, 3);
      let now = Date.now();
      const reclaimer = world.reclaimer({ policy: { ...IMMEDIATE, graceMs: 10_000 }, clock: () => now });
      const marked = await reclaimer.runStream(streamId);
      expect(marked).toMatchObject({ commitsTrimmed: 3, ledgersDeleted: 0, pendingLedgers: 1 });
      expect(reclaimer.stats.pendingObjects).toBe(1);
      now += 10_001;
      const release = world.store.readPins.pin([`bookkeeper:${TEST_ALIAS}/${ledgerId}`]);
      expect(await reclaimer.runStream(streamId)).toMatchObject({ ledgersDeleted: 0, pendingLedgers: 1 });
      expect(await exists(ledgerId)).toBe(true);
      release?.();
      expect(await reclaimer.runStream(streamId)).toMatchObject({ ledgersDeleted: 1, pendingLedgers: 0 });
      expect(await exists(ledgerId)).toBe(false);
      await expectRetained(world.store, streamId, model, 3);
      await reclaimer.close();
    }),
  );

  it(
    "the sweep deletes a ledger of this cluster that never got a root and a sealed ledger nothing protects",
    withWorld(async (world) => {
      const encoder = new TextEncoder();
      const { streamId } = await world.store.createStream("orphans", { profile: "BOOKKEEPER_WAL_ONLY" });
      const model = await world.appendMany(streamId, 2, "o");
      const custom = (cluster: string) => ({
        "nereus.cluster": encoder.encode(cluster),
        "nereus.stream": encoder.encode(streamId),
        "nereus.segment": encoder.encode("9"),
        "nereus.allocation": encoder.encode("lost-allocation"),
        "nereus.writer": encoder.encode("writer-x@4"),
      });
      const writer = kit.client();
      const unrooted = await writer.createLedger({
        password: TEST_PASSWORD,
        customMetadata: custom(world.harness.cluster),
      });
      await unrooted.addEntry(encoder.encode("never committed"));
      const foreign = await writer.createLedger({ password: TEST_PASSWORD, customMetadata: custom("another-cluster") });
      // An append whose head transaction fails after its entries were written leaves a range nothing protects; the
      // process closes (sealing the ledger): a sealed ledger without protections.
      const failing = (request: unknown): boolean =>
        (request as TxnRequest).writes.some((write) => write.key.includes("/protections/"));
      const { streamId: lonely } = await world.store.createStream("lonely", { profile: "BOOKKEEPER_WAL_ONLY" });
      world.metadata.faults.add({ op: "txn", mode: "fail-before-apply", when: failing, times: Infinity });
      await expect(world.store.append(lonely, opaqueBatch("lost"))).rejects.toThrow();
      world.metadata.faults.clear();
      await world.runtime.close();
      const rootsBefore = await world.keysWith("/roots/");

      const reclaimer = world.reclaimer();
      const swept = await reclaimer.sweep();
      expect(swept.error).toBeUndefined();
      expect(swept).toMatchObject({ unrootedLedgersFound: 1, orphanRootsJournaled: 1 });
      expect(await exists(String(unrooted.ledgerId))).toBe(false);
      expect(await exists(String(foreign.ledgerId))).toBe(true);
      expect(reclaimer.stats.objectsFreed.get("ORPHAN_LEDGER")).toBe(2);
      // The stream's ledger with committed ranges stays, and reads back; the roots of the orphans are gone.
      expect((await world.keysWith("/roots/")).length).toBe(rootsBefore.length - 1);
      const reopened = world.open();
      await expectRetained(reopened.store, streamId, model, 0);
      // The allocator of the unrooted ledger writes its root only if absent: a late allocation never uses it.
      await writer.deleteLedger(foreign.ledgerId);
      await reclaimer.close();
    }),
  );

  it("seeded histories: crashes at every step, lost responses, foreign reads — zero losses", async () => {
    const tally = { histories: 0, runs: 0, crashes: 0, lostTxns: 0, lostDeletes: 0, deleted: 0, checked: 0 };
    for (let seed = 1; seed <= 8; seed++) {
      const world = new World();
      try {
        await runHistory(world, seed, tally);
      } catch (error) {
        throw new Error(`ledger reclamation history seed ${String(seed)} failed`, { cause: error });
      } finally {
        await world.dispose();
      }
    }
    expect(tally.histories).toBe(8);
    expect(tally.deleted).toBeGreaterThan(0);
    expect(tally.crashes).toBeGreaterThan(0);
    expect(tally.lostTxns).toBeGreaterThan(0);
    expect(tally.lostDeletes).toBeGreaterThan(0);
    expect(tally.checked).toBeGreaterThan(0);
  }, 85_000);
});

interface HistoryTally {
  histories: number;
  runs: number;
  crashes: number;
  lostTxns: number;
  lostDeletes: number;
  deleted: number;
  checked: number;
}

/** One seeded history over `world` (see the module comment); throws on the first deviation. */
async function runHistory(world: World, seed: number, tally: HistoryTally): Promise<void> {
  let state = seed * 2_654_435_761;
  const random = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const streams: string[] = [];
  const models = new Map<string, Map<number, string>>();
  const trims = new Map<string, number>();
  for (const name of ["h-0", "h-1"]) {
    const { streamId } = await world.store.createStream(`${name}-${String(seed)}`, { profile: "BOOKKEEPER_WAL_ONLY" });
    streams.push(streamId);
    models.set(streamId, new Map());
    trims.set(streamId, 0);
  }
  for (let step = 0; step < 24; step++) {
    const streamId = streams[Math.floor(random() * streams.length)] as string;
    const model = models.get(streamId) as Map<number, string>;
    const roll = random();
    if (roll < 0.45) {
      for (const [offset, payload] of await world.appendMany(
        streamId,
        1 + Math.floor(random() * 3),
        `s${String(step)}`,
      ))
        model.set(offset, payload);
    } else if (roll < 0.65) {
      const end = model.size === 0 ? 0 : Math.max(...model.keys()) + 1;
      const trim = Math.min(end, (trims.get(streamId) ?? 0) + Math.floor(random() * 5));
      await world.store.trim(streamId, trim);
      trims.set(streamId, trim);
    } else {
      await collect(world, streamId, random, tally);
      // A fresh process reads (no cached resolution or ledger handle, no shared pins), and so does the writer's own
      // store; every ledger a retained commit names still exists in BookKeeper.
      const other = world.open();
      for (const id of streams) {
        const trim = trims.get(id) ?? 0;
        await expectRetained(other.store, id, models.get(id) as Map<number, string>, trim);
        await expectRetained(world.store, id, models.get(id) as Map<number, string>, trim);
        await expectRetainedLedgers(world, id);
        tally.checked += [...(models.get(id) ?? new Map<number, string>()).keys()].filter((o) => o >= trim).length;
      }
    }
  }
  // The end: the writer seals its ledgers; everything trimmed and collected until quiet leaves no ledger behind.
  await world.runtime.close();
  for (const streamId of streams) {
    const model = models.get(streamId) as Map<number, string>;
    const end = model.size === 0 ? 0 : Math.max(...model.keys()) + 1;
    await world.store.trim(streamId, end);
    for (let round = 0; round < 6; round++) await collect(world, streamId, () => 0.99, tally);
    expect(await world.keysWith(`/streams/${streamId}/reclamation/`)).toEqual([]);
  }
  expect((await world.keysWith("/protections/")).length).toBe(0);
  expect(await world.keysWith("/roots/")).toEqual([]);
  tally.histories += 1;
}

/** Every ledger named by a stored commit intent of `streamId` exists in BookKeeper. */
async function expectRetainedLedgers(world: World, streamId: string): Promise<void> {
  const intents = await world.metadata.scan(world.harness.keyspace.intentPrefix(streamId), { limit: 10_000 });
  for (const kv of intents.items) {
    const target = world.harness.keyspace.decodeIntent(kv).readTarget;
    if (target.type === "BOOKKEEPER_ENTRY_RANGE") expect(await exists(target.ledgerId)).toBe(true);
  }
}

/** One collection run of `streamId` with a random fault: a crash at a step, a lost txn response, a lost delete. */
async function collect(world: World, streamId: string, random: () => number, tally: HistoryTally): Promise<void> {
  const fault = random();
  const crashAt = Math.floor(random() * 6);
  let steps = 0;
  const crashIf = (): void => {
    if (fault < 0.3 && steps++ === crashAt) {
      tally.crashes += 1;
      throw new InjectedCrash("collector crashed");
    }
  };
  if (fault >= 0.3 && fault < 0.5) {
    tally.lostTxns += 1;
    world.metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: reclamationTxn, times: 1 });
  }
  const reclaimer = world.reclaimer({
    hooks: {
      afterRelease: crashIf,
      afterStep: crashIf,
      afterLedgerDelete: () => {
        if (fault >= 0.5 && fault < 0.7) {
          tally.lostDeletes += 1;
          throw new NereusError(ErrorCode.PRIMARY_WAL_WRITE_FAILED, "delete response lost", { retryable: true });
        }
        crashIf();
      },
    },
  });
  try {
    const report = await reclaimer.runStream(streamId);
    tally.runs += 1;
    tally.deleted += report.ledgersDeleted;
    const error = report.error;
    if (error !== undefined && !(error instanceof InjectedCrash) && !isInjected(error)) throw error;
  } finally {
    await reclaimer.close();
    world.metadata.faults.clear();
  }
}

function reclamationTxn(request: unknown): boolean {
  return (request as TxnRequest).writes.some((write) => write.key.includes("/reclamation/"));
}

function isInjected(error: unknown): boolean {
  return (
    NereusError.hasCode(error, ErrorCode.PRIMARY_WAL_WRITE_FAILED) ||
    (error instanceof Error && error.message.includes("injected fault"))
  );
}
