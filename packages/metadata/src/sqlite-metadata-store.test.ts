import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
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
  return { store: await createSqliteMetadataStore({ path: database.path }), prefix: "conformance/", cleanup: database.remove };
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
    const next = await reopened.txn({ compares: [{ key: "k/gone", modRevision: 0 }], writes: [{ type: "put", key: "k/gone", value: bytes("y") }] });
    expect(revisionOf(next)).toBe(revisionOf(deleted) + 1);
  });

  it("opens the file in WAL mode with synchronous=FULL and the documented schema", async () => {
    const { store, path: file } = await open();
    await store.txn({ compares: [], writes: [{ type: "put", key: "k", value: bytes("v") }] });
    const inspector = new Database(file, { readonly: true });
    try {
      expect(inspector.pragma("journal_mode", { simple: true })).toBe("wal");
      const columns = (inspector.prepare("PRAGMA table_info(kv)").all() as { name: string }[]).map((column) => column.name);
      expect(columns).toEqual(["key", "value", "mod_revision", "create_revision", "lease_id"]);
      expect(inspector.prepare("SELECT value FROM meta WHERE name = 'revision'").get()).toEqual({ value: 1 });
    } finally {
      inspector.close();
    }
  });

  it("two stores on one file share the revision counter and see each other's writes", async () => {
    const first = await open();
    const second = await open({}, first.path);
    const created = await first.store.txn({ compares: [{ key: "k", modRevision: 0 }], writes: [{ type: "put", key: "k", value: bytes("1") }] });
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
    await expect(lease.keepAlive()).rejects.toSatisfy((error) => NereusError.hasCode(error, ErrorCode.METADATA_CONDITION_FAILED));
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
    const error = await createSqliteMetadataStore({ path: "/nonexistent-directory/for/nereus/metadata.db" }).catch((caught: unknown) => caught);
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

  it("commits the txns of one turn of the event loop in one SQLite transaction, each with its own revision, in order", async () => {
    const store = await openStore();
    const before = { ...store.stats };
    const results = await Promise.all(
      ["a", "b", "c", "d"].map((key) => store.txn({ compares: [], writes: [{ type: "put", key: `g/${key}`, value: bytes(key) }] })),
    );
    expect(store.stats.groupCommits - before.groupCommits).toBe(1);
    expect(store.stats.txns - before.txns).toBe(4);
    const revisions = results.map(revisionOf);
    expect(revisions).toEqual([revisions[0] ?? 0, (revisions[0] ?? 0) + 1, (revisions[0] ?? 0) + 2, (revisions[0] ?? 0) + 3]);
    expect((await store.get("g/c"))?.modRevision).toBe(revisions[2]);
  });

  it("a txn sees the writes of the txns before it in the same batch (serial equivalence)", async () => {
    const store = await openStore();
    const first = store.txn({ compares: [{ key: "s/k", modRevision: 0 }], writes: [{ type: "put", key: "s/k", value: bytes("one") }] });
    const second = store.txn({ compares: [{ key: "s/k", modRevision: 0 }], writes: [{ type: "put", key: "s/k", value: bytes("two") }], readOnFailure: ["s/k"] });
    const won = revisionOf(await first);
    const lost = await second;
    expect(lost.succeeded).toBe(false);
    if (!lost.succeeded) expect(lost.current.get("s/k")?.modRevision).toBe(won);
    expect(text((await store.get("s/k"))?.value)).toBe("one");
  });

  it("a txn that fails inside the batch (unknown lease) fails alone; the others commit", async () => {
    const store = await openStore();
    const ok1 = store.txn({ compares: [], writes: [{ type: "put", key: "f/1", value: bytes("1") }] });
    const bad = store.txn({ compares: [], writes: [{ type: "put", key: "f/2", value: bytes("2"), leaseId: "999999" }] });
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
    const cancelled = store.txn({ compares: [], writes: [{ type: "put", key: "c/x", value: bytes("x") }] }, { signal: controller.signal });
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
