import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ErrorCode, MetadataAmbiguousError, NereusError, type TxnResult, type WatchEvent } from "@nereus/core";
import { describeMetadataStoreConformance } from "@nereus/core/testing";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMetadataStore, type SqliteMetadataStoreOptions } from "./sqlite-metadata-store.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined): string | undefined =>
  value === undefined ? undefined : new TextDecoder().decode(value);

function revisionOf(result: TxnResult): number {
  if (!result.succeeded) throw new Error("expected the txn to succeed");
  return result.revision;
}

async function temporaryDatabase(): Promise<{ path: string; remove: () => Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), "nereus-sqlite-metadata-"));
  return { path: path.join(directory, "metadata.db"), remove: () => rm(directory, { recursive: true, force: true }) };
}

describeMetadataStoreConformance("SqliteMetadataStore conformance", async () => {
  const database = await temporaryDatabase();
  return {
    store: await createSqliteMetadataStore({ path: database.path }),
    prefix: "conformance/",
    cleanup: database.remove,
  };
});

describeMetadataStoreConformance("SqliteMetadataStore conformance, with cacheReads", async () => {
  const database = await temporaryDatabase();
  return {
    store: await createSqliteMetadataStore({ path: database.path, cacheReads: true }),
    prefix: "conformance/",
    cleanup: database.remove,
  };
});

describe("SqliteMetadataStore", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(options: Partial<SqliteMetadataStoreOptions> = {}, file?: string) {
    let databasePath = file;
    if (databasePath === undefined) {
      const database = await temporaryDatabase();
      cleanups.push(database.remove);
      databasePath = database.path;
    }
    const store = await createSqliteMetadataStore({ ...options, path: databasePath });
    cleanups.push(() => store.close());
    return { store, path: databasePath };
  }

  it("is durable: data, revisions and the revision counter survive close and reopen", async () => {
    const { store, path: file } = await open();
    await store.txn({ compares: [], writes: [{ type: "put", key: "k/a", value: bytes("a") }] });
    const kept = await store.txn({ compares: [], writes: [{ type: "put", key: "k/b", value: bytes("b") }] });
    // The highest revision belongs to a deleted key: only the stored counter remembers it.
    await store.txn({ compares: [], writes: [{ type: "put", key: "k/gone", value: bytes("x") }] });
    const deleted = await store.txn({ compares: [], writes: [{ type: "delete", key: "k/gone" }] });
    await store.close();

    const reopened = (await open({}, file)).store;
    const b = await reopened.get("k/b");
    expect(text(b?.value)).toBe("b");
    expect(b?.modRevision).toBe(revisionOf(kept));
    expect((await reopened.scan("k/", { limit: 10 })).items.map((item) => item.key)).toEqual(["k/a", "k/b"]);
    const next = await reopened.txn({
      compares: [{ key: "k/gone", modRevision: 0 }],
      writes: [{ type: "put", key: "k/gone", value: bytes("y") }],
    });
    expect(revisionOf(next)).toBe(revisionOf(deleted) + 1);
  });

  it("opens the file in WAL mode with synchronous=FULL and the documented schema", async () => {
    const { store, path: file } = await open();
    await store.txn({ compares: [], writes: [{ type: "put", key: "k", value: bytes("v") }] });
    const inspector = new Database(file, { readonly: true });
    try {
      expect(inspector.pragma("journal_mode", { simple: true })).toBe("wal");
      const columns = (inspector.prepare("PRAGMA table_info(kv)").all() as { name: string }[]).map(
        (column) => column.name,
      );
      expect(columns).toEqual(["key", "value", "mod_revision", "create_revision", "lease_id"]);
      expect(inspector.prepare("SELECT value FROM meta WHERE name = 'revision'").get()).toEqual({ value: 1 });
    } finally {
      inspector.close();
    }
  });

  it("two stores on one file share the revision counter and see each other's writes", async () => {
    const first = await open();
    const second = await open({}, first.path);
    const created = await first.store.txn({
      compares: [{ key: "k", modRevision: 0 }],
      writes: [{ type: "put", key: "k", value: bytes("1") }],
    });
    const lost = await second.store.txn({
      compares: [{ key: "k", modRevision: 0 }],
      writes: [{ type: "put", key: "k", value: bytes("2") }],
      readOnFailure: ["k"],
    });
    expect(lost.succeeded ? undefined : text(lost.current.get("k")?.value)).toBe("1");
    const other = await second.store.txn({ compares: [], writes: [{ type: "put", key: "j", value: bytes("3") }] });
    expect(revisionOf(other)).toBe(revisionOf(created) + 1);
  });

  it("expires leases on its clock, lazily and by the sweep, with a delete event", async () => {
    let now = 10_000;
    const { store } = await open({ clock: () => now, leaseSweepIntervalMs: 10 });
    const events: WatchEvent[] = [];
    let notify: () => void = () => {};
    const deleted = new Promise<void>((resolve) => (notify = resolve));
    await store.watch("lease/", (event) => {
      events.push(event);
      if (event.type === "delete") notify();
    });
    const lease = await store.grantLease(500);
    await store.txn({ compares: [], writes: [{ type: "put", key: "lease/k", value: bytes("v"), leaseId: lease.id }] });
    now += 400;
    await lease.keepAlive();
    now += 499;
    expect(await store.get("lease/k")).toBeDefined();
    now += 1;
    // No call from here on: only the sweep timer can delete the key.
    await deleted;
    expect(events.map((event) => event.type)).toEqual(["put", "delete"]);
    expect(await store.get("lease/k")).toBeUndefined();
    await expect(lease.keepAlive()).rejects.toSatisfy((error) =>
      NereusError.hasCode(error, ErrorCode.METADATA_CONDITION_FAILED),
    );
  });

  it("runs the sweep's writer round only when a lease is due: an idle store does not datasync its -wal", async () => {
    let now = 20_000;
    const { store } = await open({ clock: () => now, leaseSweepIntervalMs: 5 });
    await store.txn({ compares: [], writes: [{ type: "put", key: "plain", value: bytes("v") }] });
    const idle = store.walSyncs;
    await sleep(100);
    expect(store.walSyncs).toBe(idle);
    const lease = await store.grantLease(1_000);
    await store.txn({ compares: [], writes: [{ type: "put", key: "leased", value: bytes("v"), leaseId: lease.id }] });
    const held = store.walSyncs;
    await sleep(100);
    // Granted but not due: still no round.
    expect(store.walSyncs).toBe(held);
    now += 1_000;
    const deadline = Date.now() + 5_000;
    while (store.walSyncs === held && Date.now() < deadline) await sleep(5);
    // Due: the sweep's round deleted the lease's key before any read looked.
    expect(store.walSyncs).toBeGreaterThan(held);
    expect(await store.get("leased")).toBeUndefined();
    expect(text((await store.get("plain"))?.value)).toBe("v");
  });

  it("skips the lease check between reads, yet never returns a key of a lease it has seen expire", async () => {
    let now = 50_000;
    const { store } = await open({ clock: () => now, leaseSweepIntervalMs: 3_600_000 });
    // A check right now finds nothing due: reads may skip it for a while...
    expect(await store.get("short/k")).toBeUndefined();
    // ...but a lease granted meanwhile that expires sooner is checked on time, without the sweep.
    const short = await store.grantLease(5);
    await store.txn({ compares: [], writes: [{ type: "put", key: "short/k", value: bytes("v"), leaseId: short.id }] });
    expect(await store.get("short/k")).toBeDefined();
    now += 4;
    expect(await store.get("short/k")).toBeDefined();
    now += 1;
    expect(await store.get("short/k")).toBeUndefined();
    // A lease in the table that expires before the check interval ends (granted, then the check skipped later).
    const long = await store.grantLease(60);
    await store.txn({ compares: [], writes: [{ type: "put", key: "long/k", value: bytes("v"), leaseId: long.id }] });
    now += 30;
    expect((await store.scan("long/", { limit: 10 })).items).toHaveLength(1);
    now += 30;
    expect((await store.scan("long/", { limit: 10 })).items).toHaveLength(0);
  });

  it("sees a lease granted through another connection to the file expire within the check interval", async () => {
    let now = 70_000;
    const first = await open({ clock: () => now, leaseSweepIntervalMs: 3_600_000 });
    const second = await open({ clock: () => now, leaseSweepIntervalMs: 3_600_000 }, first.path);
    expect(await first.store.get("other/k")).toBeUndefined();
    const lease = await second.store.grantLease(10);
    await second.store.txn({
      compares: [],
      writes: [{ type: "put", key: "other/k", value: bytes("v"), leaseId: lease.id }],
    });
    now += 10;
    // Due, and the first store has not checked since before the grant: at most LEASE_CHECK_INTERVAL_MS (100) late.
    now += 100;
    expect(await first.store.get("other/k")).toBeUndefined();
    await second.store.close();
  });

  it("keeps unexpired leases across a reopen and expires them by the wall clock after", async () => {
    let now = 0;
    const first = await open({ clock: () => now });
    const lease = await first.store.grantLease(1_000);
    await first.store.txn({ compares: [], writes: [{ type: "put", key: "k", value: bytes("v"), leaseId: lease.id }] });
    await first.store.close();
    const second = await open({ clock: () => now }, first.path);
    expect(await second.store.get("k")).toBeDefined();
    await second.store.close();
    now = 1_000;
    const third = await open({ clock: () => now }, first.path);
    expect(await third.store.get("k")).toBeUndefined();
  });

  it("fails closed with a non-retryable METADATA_UNAVAILABLE when the file cannot be opened", async () => {
    const error = await createSqliteMetadataStore({ path: "/nonexistent-directory/for/nereus/metadata.db" }).catch(
      (caught: unknown) => caught,
    );
    expect(NereusError.hasCode(error, ErrorCode.METADATA_UNAVAILABLE)).toBe(true);
    expect((error as NereusError).retryable).toBe(false);
    expect(MetadataAmbiguousError.isAmbiguous(error)).toBe(false);
  });
});

describe("SqliteMetadataStore group commit", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function openStore() {
    const database = await temporaryDatabase();
    const store = await createSqliteMetadataStore({ path: database.path });
    cleanups.push(database.remove, () => store.close());
    return store;
  }

  it("commits the txns submitted together (one synchronous run) in one SQLite transaction, each with its own revision, in order", async () => {
    const store = await openStore();
    const before = { ...store.stats };
    const results = await Promise.all(
      ["a", "b", "c", "d"].map((key) =>
        store.txn({ compares: [], writes: [{ type: "put", key: `g/${key}`, value: bytes(key) }] }),
      ),
    );
    expect(store.stats.groupCommits - before.groupCommits).toBe(1);
    expect(store.stats.txns - before.txns).toBe(4);
    const revisions = results.map(revisionOf);
    expect(revisions).toEqual([
      revisions[0] ?? 0,
      (revisions[0] ?? 0) + 1,
      (revisions[0] ?? 0) + 2,
      (revisions[0] ?? 0) + 3,
    ]);
    expect((await store.get("g/c"))?.modRevision).toBe(revisions[2]);
  });

  it("a txn sees the writes of the txns before it in the same batch (serial equivalence)", async () => {
    const store = await openStore();
    const first = store.txn({
      compares: [{ key: "s/k", modRevision: 0 }],
      writes: [{ type: "put", key: "s/k", value: bytes("one") }],
    });
    const second = store.txn({
      compares: [{ key: "s/k", modRevision: 0 }],
      writes: [{ type: "put", key: "s/k", value: bytes("two") }],
      readOnFailure: ["s/k"],
    });
    const won = revisionOf(await first);
    const lost = await second;
    expect(lost.succeeded).toBe(false);
    if (!lost.succeeded) expect(lost.current.get("s/k")?.modRevision).toBe(won);
    expect(text((await store.get("s/k"))?.value)).toBe("one");
  });

  it("a txn that fails inside the batch (unknown lease) fails alone; the others commit", async () => {
    const store = await openStore();
    const ok1 = store.txn({ compares: [], writes: [{ type: "put", key: "f/1", value: bytes("1") }] });
    const bad = store.txn({
      compares: [],
      writes: [{ type: "put", key: "f/2", value: bytes("2"), leaseId: "999999" }],
    });
    const ok3 = store.txn({ compares: [], writes: [{ type: "put", key: "f/3", value: bytes("3") }] });
    const failure = await bad.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(NereusError.hasCode(failure, ErrorCode.METADATA_CONDITION_FAILED)).toBe(true);
    expect(revisionOf(await ok3)).toBe(revisionOf(await ok1) + 1);
    expect(await store.get("f/2")).toBeUndefined();
    expect(text((await store.get("f/3"))?.value)).toBe("3");
  });

  it("a txn whose caller aborts before the group commit is CANCELLED and applies nothing", async () => {
    const store = await openStore();
    const controller = new AbortController();
    const cancelled = store.txn(
      { compares: [], writes: [{ type: "put", key: "c/x", value: bytes("x") }] },
      { signal: controller.signal },
    );
    const kept = store.txn({ compares: [], writes: [{ type: "put", key: "c/y", value: bytes("y") }] });
    controller.abort();
    const failure = await cancelled.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(NereusError.hasCode(failure, ErrorCode.CANCELLED)).toBe(true);
    expect((await kept).succeeded).toBe(true);
    expect(await store.get("c/x")).toBeUndefined();
  });

  it("close() commits the txns already accepted before it closes the database", async () => {
    const database = await temporaryDatabase();
    cleanups.push(database.remove);
    const store = await createSqliteMetadataStore({ path: database.path });
    const pending = store.txn({ compares: [], writes: [{ type: "put", key: "z/k", value: bytes("kept") }] });
    await store.close();
    expect((await pending).succeeded).toBe(true);
    const reopened = await createSqliteMetadataStore({ path: database.path });
    cleanups.push(() => reopened.close());
    expect(text((await reopened.get("z/k"))?.value)).toBe("kept");
  });
});

describe("SqliteMetadataStore durability (WAL datasync off the event loop)", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A store whose WAL syncs wait for `release()` while `hold` is on, or fail while `fail` is set. */
  async function gatedStore() {
    const database = await temporaryDatabase();
    cleanups.push(database.remove);
    const gate = { hold: false, fail: undefined as Error | undefined, waiting: [] as Array<() => void> };
    const store = await createSqliteMetadataStore({
      path: database.path,
      beforeWalSync: async () => {
        if (gate.fail !== undefined) throw gate.fail;
        if (gate.hold) await new Promise<void>((resolve) => gate.waiting.push(resolve));
      },
    });
    cleanups.push(() => store.close());
    const release = (): void => {
      gate.hold = false;
      for (const resume of gate.waiting.splice(0)) resume();
    };
    const waitForSyncStarted = async (): Promise<void> => {
      for (let spin = 0; gate.waiting.length === 0; spin++) {
        if (spin > 10_000) throw new Error("no WAL sync started");
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    };
    return { store, gate, release, waitForSyncStarted, path: database.path };
  }

  it("a txn, its watch event and a read that sees it all wait until the WAL is synced", async () => {
    const { store, gate, release, waitForSyncStarted } = await gatedStore();
    const events: WatchEvent[] = [];
    await store.watch("d/", (event) => events.push(event));
    gate.hold = true;
    let settled = false;
    const txn = store.txn({ compares: [], writes: [{ type: "put", key: "d/k", value: bytes("v") }] }).then((result) => {
      settled = true;
      return result;
    });
    await waitForSyncStarted();
    let read = false;
    const get = store.get("d/k").then((value) => {
      read = true;
      return value;
    });
    for (let turn = 0; turn < 20; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect({ settled, read, events: events.length }).toEqual({ settled: false, read: false, events: 0 });
    release();
    expect((await txn).succeeded).toBe(true);
    expect(text((await get)?.value)).toBe("v");
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(events.map((event) => event.key)).toEqual(["d/k"]);
  });

  it("a read waits for the writes submitted before it, not for those submitted after it", async () => {
    const { store, gate, release, waitForSyncStarted } = await gatedStore();
    gate.hold = true;
    const first = store.txn({ compares: [], writes: [{ type: "put", key: "b/1", value: bytes("1") }] });
    await waitForSyncStarted();
    let read = false;
    const get = store.get("b/1").then((value) => {
      read = true;
      return value;
    });
    const second = store.txn({ compares: [], writes: [{ type: "put", key: "b/2", value: bytes("2") }] });
    // The first round's sync goes on; the second round's sync is held.
    release();
    gate.hold = true;
    expect(text((await get)?.value)).toBe("1");
    expect((await first).succeeded).toBe(true);
    await waitForSyncStarted();
    expect(read).toBe(true);
    let secondSettled = false;
    void second.then(() => (secondSettled = true));
    for (let turn = 0; turn < 20; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(secondSettled).toBe(false);
    release();
    expect((await second).succeeded).toBe(true);
  });

  it("txns submitted while a sync runs are held, then committed together in one SQLite transaction and share the next sync", async () => {
    const { store, gate, release, waitForSyncStarted } = await gatedStore();
    const syncsBefore = store.walSyncs;
    const commitsBefore = store.stats.groupCommits;
    gate.hold = true;
    const first = store.txn({ compares: [], writes: [{ type: "put", key: "s/0", value: bytes("0") }] });
    await waitForSyncStarted();
    const later: Array<Promise<TxnResult>> = [];
    for (let index = 1; index <= 3; index++) {
      later.push(
        store.txn({
          compares: [{ key: "s/1", modRevision: 0 }],
          writes: [{ type: "put", key: `s/${String(index)}`, value: bytes("x") }],
        }),
      );
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // Held: not applied while the sync runs (a read does not see them and waits for nothing of theirs).
    expect(store.stats.groupCommits - commitsBefore).toBe(1);
    release();
    expect(await store.get("s/1")).toBeUndefined();
    const [firstResult, ...laterResults] = await Promise.all([first, ...later]);
    expect(store.stats.groupCommits - commitsBefore).toBe(2);
    expect(store.walSyncs - syncsBefore).toBe(2);
    // Serial equivalence inside the held batch: s/1 is written by the first of them, so the compare of the other two fails.
    expect(laterResults.map((result) => result.succeeded)).toEqual([true, false, false]);
    expect(revisionOf(laterResults[0] as TxnResult)).toBe(revisionOf(firstResult as TxnResult) + 1);
  });

  it("txns held behind a sync that fails are refused without being applied", async () => {
    const database = await temporaryDatabase();
    cleanups.push(database.remove);
    let failRunning: ((error: Error) => void) | undefined;
    let armed = false;
    const store = await createSqliteMetadataStore({
      path: database.path,
      beforeWalSync: () => (armed ? new Promise<void>((_resolve, reject) => (failRunning = reject)) : undefined),
    });
    cleanups.push(() => store.close());
    armed = true;
    const first = store.txn({ compares: [], writes: [{ type: "put", key: "h/0", value: bytes("0") }] });
    for (let spin = 0; failRunning === undefined; spin++) {
      if (spin > 10_000) throw new Error("no WAL sync started");
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const held = store.txn({ compares: [], writes: [{ type: "put", key: "h/1", value: bytes("1") }] });
    failRunning(new Error("EIO: injected"));
    expect(
      await first.then(
        () => undefined,
        (error: unknown) => error,
      ),
    ).toBeInstanceOf(MetadataAmbiguousError);
    const refused = await held.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(NereusError.hasCode(refused, ErrorCode.METADATA_UNAVAILABLE)).toBe(true);
    expect(MetadataAmbiguousError.isAmbiguous(refused)).toBe(false);
  });

  it("a failed WAL sync makes the covered writes ambiguous and the store refuses further work until reopened", async () => {
    const { store, gate, path: databasePath } = await gatedStore();
    gate.fail = new Error("EIO: injected");
    const failure = await store.txn({ compares: [], writes: [{ type: "put", key: "e/k", value: bytes("v") }] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MetadataAmbiguousError);
    const refused = await store.get("e/k").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(NereusError.hasCode(refused, ErrorCode.METADATA_UNAVAILABLE)).toBe(true);
    expect((refused as NereusError).retryable).toBe(false);
    await store.close();
    const reopened = await createSqliteMetadataStore({ path: databasePath });
    cleanups.push(() => reopened.close());
    // The write reached the WAL before the sync failed; after a clean reopen it is there (the outcome was ambiguous).
    expect(text((await reopened.get("e/k"))?.value)).toBe("v");
  });
});

describe("SqliteMetadataStore os-buffered durability", () => {
  it("never datasyncs, still commits and keeps the data across a reopen; rejects an unknown durability", async () => {
    const database = await temporaryDatabase();
    try {
      const store = await createSqliteMetadataStore({
        path: database.path,
        durability: "os-buffered",
        beforeWalSync: () => {
          throw new Error("os-buffered must not sync");
        },
      });
      const results = await Promise.all(
        ["a", "b"].map((key) =>
          store.txn({ compares: [], writes: [{ type: "put", key: `o/${key}`, value: bytes(key) }] }),
        ),
      );
      expect(results.every((result) => result.succeeded)).toBe(true);
      expect(text((await store.get("o/b"))?.value)).toBe("b");
      expect(store.walSyncs).toBe(0);
      await store.close();
      const reopened = await createSqliteMetadataStore({ path: database.path });
      expect(text((await reopened.get("o/a"))?.value)).toBe("a");
      await reopened.close();
      const failure = await createSqliteMetadataStore({ path: database.path, durability: "sometimes" as never }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(NereusError.hasCode(failure, ErrorCode.INVALID_ARGUMENT)).toBe(true);
    } finally {
      await database.remove();
    }
  });
});
