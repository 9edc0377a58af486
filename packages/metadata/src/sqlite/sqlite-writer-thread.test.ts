import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMetadataStore } from "./sqlite-metadata-store.js";
import type { WriterOperation } from "./writer/sqlite-writer-protocol.js";
import { SqliteWriterThread } from "./sqlite-writer-thread.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("SqliteWriterThread", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A database file with the store's schema (created by opening and closing a store). */
  async function database(): Promise<string> {
    const directory = await mkdtemp(path.join(tmpdir(), "nereus-sqlite-writer-"));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const file = path.join(directory, "metadata.db");
    await (await createSqliteMetadataStore({ path: file })).close();
    return file;
  }

  it("applies operations in submission order, one round for what queued together, and counts txns and syncs", async () => {
    const file = await database();
    const events: string[] = [];
    const thread = await SqliteWriterThread.start({
      path: file,
      sync: true,
      onEvents: (batch) => events.push(...batch.map((event) => event.key)),
    });
    cleanups.push(() => thread.close());
    const put = (key: string): WriterOperation => ({
      kind: "txns",
      txns: [{ compares: [], writes: [{ type: "put", key, value: bytes(key) }] }],
    });
    const settled = await Promise.all([thread.submit(put("w/a"), Date.now()), thread.submit(put("w/b"), Date.now())]);
    const revisions = settled.map(
      (settlement) => (settlement.outcome?.value as Array<{ value: { revision: number } }>)[0]?.value.revision,
    );
    expect(revisions[1]).toBe((revisions[0] ?? 0) + 1);
    expect(events).toEqual(["w/a", "w/b"]);
    expect(thread.txns).toBe(2);
    expect(thread.walSyncs).toBeGreaterThanOrEqual(1);
    const reader = new Database(file, { readonly: true });
    try {
      expect((reader.prepare("SELECT count(*) AS n FROM kv WHERE key LIKE 'w/%'").get() as { n: number }).n).toBe(2);
    } finally {
      reader.close();
    }
  });

  it("a thread that dies settles every operation in flight as lost and refuses later ones", async () => {
    const file = await database();
    const thread = await SqliteWriterThread.start({ path: file, sync: false, onEvents: () => undefined });
    cleanups.push(() => thread.close());
    // A malformed operation breaks the thread outside any savepoint (the store never sends one).
    const broken = thread.submit({ kind: "txns", txns: null } as unknown as WriterOperation, Date.now());
    const behind = thread.submit({ kind: "expire" }, Date.now());
    const [first, second] = await Promise.all([broken, behind]);
    expect(first.lost?.kind).toBe("lost");
    expect(second.lost?.kind).toBe("lost");
    expect(thread.failure?.kind).toBe("lost");
    const refused = await thread.submit({ kind: "expire" }, Date.now());
    expect(refused.refused).toBeDefined();
    await thread.barrier();
  });
});
