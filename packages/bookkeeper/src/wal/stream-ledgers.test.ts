// Property test of the BookKeeper WAL's ledger lifecycle (writer states, roots, takeovers, seals, rollovers) over
// random histories of several writer processes on one stream: appends, takeovers with higher epochs, takeovers that
// never reach the head, restarts and clock jumps. BookKeeper is an in-memory fake with BookKeeper's fencing rules
// (recovery-open fences and closes a ledger; adds to a fenced or closed ledger fail FENCED_APPEND); the stream
// head is simulated by a CAS that also carries the provider's protection, as core's head transaction does.
import { ErrorCode, NereusError, streamIdFromName, type PersistedWrite, type StreamHead } from "@nereus/core";
import { StreamKeyspace, bytesEqual, newFencingToken } from "@nereus/core/internal";
import { InMemoryMetadataStore } from "@nereus/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { BookKeeperClient } from "../client/bookkeeper-client.js";
import { BookKeeperWalStats } from "./bookkeeper-wal-stats.js";
import { BookKeeperWalWriter } from "./bookkeeper-wal-writer.js";
import { physicalBookKeeperPrefix, writerStateKey } from "./records/bookkeeper-wal-keys.js";
import type { BookKeeperLedgerRoot } from "./records/bookkeeper-wal-records.js";
import { ledgerRootCodec } from "./records/ledger-root-codec.js";
import { writerStateCodec } from "./records/writer-state-codec.js";

interface FakeLedger {
  readonly id: bigint;
  readonly entries: Uint8Array[];
  fenced: boolean;
  closed: boolean;
}

/** The part of BookKeeperClient the WAL uses, in memory. */
class FakeBookKeeper {
  readonly ledgers = new Map<bigint, FakeLedger>();
  #nextId = 7n;

  async createLedger(): Promise<unknown> {
    const ledger: FakeLedger = { id: this.#nextId++, entries: [], fenced: false, closed: false };
    this.ledgers.set(ledger.id, ledger);
    const fenced = () =>
      new NereusError(ErrorCode.FENCED_APPEND, `ledger ${String(ledger.id)} is fenced`, { retryable: false });
    let failed = false;
    return {
      ledgerId: ledger.id,
      get lastAddConfirmed() {
        return ledger.entries.length - 1;
      },
      get length() {
        return ledger.entries.reduce((sum, entry) => sum + entry.length, 0);
      },
      addEntry: async (payload: Uint8Array) => {
        await Promise.resolve();
        if (failed || ledger.fenced || ledger.closed) {
          failed = true;
          throw fenced();
        }
        ledger.entries.push(payload.slice());
        return ledger.entries.length - 1;
      },
      close: async () => {
        if (ledger.fenced || failed) throw fenced();
        ledger.closed = true;
      },
    };
  }

  async openLedger(ledgerId: bigint, options: { recovery: boolean }): Promise<unknown> {
    const ledger = this.ledgers.get(ledgerId);
    if (ledger === undefined)
      throw new NereusError(ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND, "no such ledger", { retryable: false });
    if (options.recovery) {
      ledger.fenced = true;
      ledger.closed = true;
    }
    return {
      lastAddConfirmed: ledger.entries.length - 1,
      length: ledger.entries.reduce((sum, entry) => sum + entry.length, 0),
    };
  }
}

type Op =
  | { readonly kind: "append"; readonly writer: number; readonly entries: number }
  | { readonly kind: "persist"; readonly writer: number; readonly entries: number }
  | { readonly kind: "commit"; readonly writer: number }
  | { readonly kind: "takeover"; readonly writer: number }
  | { readonly kind: "restart"; readonly writer: number }
  | { readonly kind: "tick" };

const CLUSTER = "prop";
const STREAM = streamIdFromName("prop");
const keyspace = new StreamKeyspace(CLUSTER);
const WRITERS = ["w0", "w1", "w2"] as const;

interface Committed {
  readonly ledgerId: string;
  readonly firstEntryId: number;
  readonly payloads: readonly Uint8Array[];
}

async function run(ops: readonly Op[]): Promise<void> {
  const metadata = new InMemoryMetadataStore();
  const bookkeeper = new FakeBookKeeper();
  let now = 1_000_000;
  const writer = (): BookKeeperWalWriter =>
    new BookKeeperWalWriter({
      client: bookkeeper as unknown as BookKeeperClient,
      metadata,
      cluster: CLUSTER,
      keyspace,
      clusterAlias: "fake",
      quorums: { ensembleSize: 3, writeQuorumSize: 2, ackQuorumSize: 2 },
      password: new Uint8Array(0),
      digestType: "CRC32C",
      rollover: { maxEntries: 6, maxBytes: 1 << 20, maxAgeMs: 1 << 30 },
      takeoverGraceMs: 30_000,
      clock: () => now,
      stats: new BookKeeperWalStats(),
    });
  const processes: Array<{
    wal: BookKeeperWalWriter;
    epoch: number;
    pending: { persisted: PersistedWrite; payloads: Uint8Array[] } | undefined;
  }> = WRITERS.map(() => ({
    wal: writer(),
    epoch: 0,
    pending: undefined,
  }));
  let maxEpoch = 0;
  const committed: Committed[] = [];
  let sequence = 0;
  const head = async (): Promise<{ head: StreamHead | undefined; revision: number }> => {
    const stored = await metadata.get(keyspace.headKey(STREAM));
    return stored === undefined
      ? { head: undefined, revision: 0 }
      : { head: keyspace.decodeHead(stored).head, revision: stored.modRevision };
  };
  const headWith = (writerId: string, epoch: number, end: number): StreamHead => ({
    streamId: STREAM,
    streamName: "prop",
    state: "ACTIVE",
    profile: "BOOKKEEPER_WAL_ONLY",
    attributes: {},
    createdAtMillis: 1,
    committedEndOffset: end,
    cumulativeSize: end,
    commitVersion: end,
    trimOffset: 0,
    lastCommitId: end === 0 ? "" : `c${String(end)}`,
    session: {
      writerId,
      epoch,
      fencingToken: newFencingToken(),
      leaseVersion: 0,
      expiresAtMillis: Number.MAX_SAFE_INTEGER,
    },
  });

  for (const op of ops) {
    if (op.kind === "tick") {
      now += 31_000;
      continue;
    }
    const process = processes[op.writer];
    if (process === undefined) continue;
    if (op.kind === "takeover") {
      process.epoch = ++maxEpoch;
      continue;
    }
    if (op.kind === "restart") {
      process.wal = writer();
      process.epoch = ++maxEpoch;
      continue;
    }
    if (process.epoch === 0) process.epoch = ++maxEpoch;
    const writerId = WRITERS[op.writer] ?? "w";
    if (op.kind !== "commit") {
      const payloads = Array.from({ length: op.entries }, () => new TextEncoder().encode(`e${String(sequence++)}`));
      try {
        const persisted = await process.wal.persist(
          process.wal.prepare({
            streamId: STREAM,
            attemptId: `${writerId}/${String(sequence)}`,
            writerId,
            writerEpoch: process.epoch,
            expectedStartOffset: 0,
            payloadFormat: "OPAQUE_RECORD_BATCH",
            entries: payloads.map((payload) => ({ payload, recordCount: 1 })),
          }),
        );
        process.pending = { persisted, payloads };
      } catch (error) {
        expect(NereusError.hasCode(error, ErrorCode.FENCED_APPEND), `persist failed with ${String(error)}`).toBe(true);
        process.pending = undefined;
      }
    }
    if (op.kind !== "persist" && process.pending !== undefined) {
      const { persisted, payloads } = process.pending;
      process.pending = undefined;
      let protection;
      try {
        protection = await process.wal.protect(persisted, `commit-${String(sequence++)}`, metadata);
      } catch (error) {
        expect(NereusError.hasCode(error, ErrorCode.FENCED_APPEND), `protect failed with ${String(error)}`).toBe(true);
        continue;
      }
      // The simulated head CAS: the session may not go back to an older epoch or to another writer of the same
      // epoch; the protection rides along in the same transaction.
      const current = await head();
      const session = current.head?.session;
      if (
        session !== undefined &&
        (session.epoch > process.epoch || (session.epoch === process.epoch && session.writerId !== writerId))
      )
        continue;
      const target = persisted.readTarget;
      if (target.type !== "BOOKKEEPER_ENTRY_RANGE") throw new Error("not a BookKeeper target");
      const rootActive =
        (await rootsOf()).find((root) => String(root.ledgerId) === target.ledgerId)?.lifecycle === "ACTIVE";
      const end = (current.head?.committedEndOffset ?? 0) + payloads.length;
      const result = await metadata.txn({
        compares: [{ key: keyspace.headKey(STREAM), modRevision: current.revision }, ...protection.compares],
        writes: [
          ...protection.writes,
          {
            type: "put",
            key: keyspace.headKey(STREAM),
            value: keyspace.encodeHead(headWith(writerId, process.epoch, end)),
          },
        ],
      });
      // A range of a ledger whose root left ACTIVE (sealed by a new owner or a rollover) can never be named.
      if (!rootActive) expect(result.succeeded).toBe(false);
      if (result.succeeded) committed.push({ ledgerId: target.ledgerId, firstEntryId: target.firstEntryId, payloads });
    }
    await checkInvariants();
  }

  // Liveness: a fresh writer with the highest epoch can always append and commit.
  const last = writer();
  const final = await last.persist(
    last.prepare({
      streamId: STREAM,
      attemptId: "final/1",
      writerId: "final",
      writerEpoch: maxEpoch + 1,
      expectedStartOffset: 0,
      payloadFormat: "OPAQUE_RECORD_BATCH",
      entries: [{ payload: new Uint8Array([1]), recordCount: 1 }],
    }),
  );
  const protection = await last.protect(final, "commit-final", metadata);
  expect((await metadata.txn({ compares: protection.compares, writes: protection.writes })).succeeded).toBe(true);
  await checkInvariants();
  await metadata.close();

  async function rootsOf(): Promise<BookKeeperLedgerRoot[]> {
    return (await metadata.scan(physicalBookKeeperPrefix(CLUSTER), { limit: 10_000 })).items
      .filter((item) => item.key.includes("/roots/"))
      .map((item) => ledgerRootCodec.decode(item.value, item.key));
  }

  async function checkInvariants(): Promise<void> {
    // Committed ranges are intact in their ledgers (a seal never cut one), and never overlap.
    const seen = new Set<string>();
    for (const range of committed) {
      const ledger = bookkeeper.ledgers.get(BigInt(range.ledgerId));
      range.payloads.forEach((payload, index) => {
        const stored = ledger?.entries[range.firstEntryId + index];
        expect(
          stored !== undefined && bytesEqual(stored.subarray(17), payload),
          `committed entry ${range.ledgerId}:${String(range.firstEntryId + index)} lost`,
        ).toBe(true);
        const slot = `${range.ledgerId}:${String(range.firstEntryId + index)}`;
        expect(seen.has(slot)).toBe(false);
        seen.add(slot);
      });
    }
    // At most one ACTIVE root; a writer state that names a ledger names one whose root is ACTIVE or SEALING; an
    // ACTIVE root's ledger is not fenced; a SEALED root records exactly the ledger's final length.
    const roots = await rootsOf();
    expect(roots.filter((root) => root.lifecycle === "ACTIVE").length).toBeLessThanOrEqual(1);
    for (const root of roots) {
      const ledger = bookkeeper.ledgers.get(root.ledgerId);
      if (root.lifecycle === "ACTIVE") expect(ledger?.fenced).toBe(false);
      if (root.lifecycle === "SEALED") expect(root.sealedEntryCount).toBe(ledger?.entries.length);
    }
    const stateKey = writerStateKey(CLUSTER, STREAM);
    const stored = await metadata.get(stateKey);
    const state = stored === undefined ? undefined : writerStateCodec.decode(stored.value, stateKey);
    if (state?.ledger !== undefined) {
      const named = roots.find((root) => root.ledgerId === state.ledger?.ledgerId);
      expect(state.lifecycle === "ACTIVE" ? named?.lifecycle === "ACTIVE" : named !== undefined).toBe(true);
    }
  }
}

describe("BookKeeper WAL ledger lifecycle (property, in-memory BookKeeper)", () => {
  test("random histories of appends, split persist/commit, takeovers, restarts and clock jumps: no range of a sealed ledger commits, no committed range is lost, the stream stays writable", async () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant("append" as const),
          writer: fc.nat({ max: 2 }),
          entries: fc.integer({ min: 1, max: 4 }),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant("persist" as const),
          writer: fc.nat({ max: 2 }),
          entries: fc.integer({ min: 1, max: 4 }),
        }),
      },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("commit" as const), writer: fc.nat({ max: 2 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("takeover" as const), writer: fc.nat({ max: 2 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("restart" as const), writer: fc.nat({ max: 2 }) }) },
      { weight: 1, arbitrary: fc.constant({ kind: "tick" as const }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), (ops) => run(ops)),
      { numRuns: 300 },
    );
  });
});
