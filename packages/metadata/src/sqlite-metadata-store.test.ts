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
