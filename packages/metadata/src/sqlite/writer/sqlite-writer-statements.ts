// The prepared statements of the writer thread's connection (sqlite-writer-worker.ts), with the shapes of the
// rows they read. Schema: table `meta` (name → integer: `revision`, `next_lease_id`), table `kv` (key, value,
// mod_revision, create_revision, lease_id), table `leases` (id, ttl_ms, expires_at); see sqlite-metadata-store.ts.
import type Database from "better-sqlite3";

/** A key as the thread reads it back for a failed compare (sent to the main thread as is). */
export interface KvRow {
  readonly key: string;
  readonly value: Uint8Array;
  readonly mod_revision: number;
  readonly create_revision: number;
}

const KV_COLUMNS = "key, value, mod_revision, create_revision";

type Statement<Parameters extends unknown[], Row = unknown> = Database.Statement<Parameters, Row>;

/** The writer thread's statements, by what they do. */
export interface WriterStatements {
  readonly selectMeta: Statement<[string], { readonly value: unknown }>;
  readonly updateMeta: Statement<[number, string]>;
  readonly selectKey: Statement<[string], KvRow>;
  readonly selectRevision: Statement<[string], { readonly mod_revision: number }>;
  readonly selectValue: Statement<[string], { readonly value: Buffer }>;
  readonly upsert: Statement<[string, Buffer, number, number, string | null]>;
  readonly deleteKey: Statement<[string]>;
  readonly insertLease: Statement<[string, number, number]>;
  readonly selectLease: Statement<[string], { readonly ttl_ms: number; readonly expires_at: number }>;
  readonly renewLease: Statement<[number, string]>;
  readonly deleteLease: Statement<[string]>;
  readonly selectExpiredIds: Statement<[number], { readonly id: string }>;
  readonly selectLeaseKeys: Statement<[string], { readonly key: string }>;
  readonly deleteLeaseKeys: Statement<[string]>;
}

/** Prepares every statement the writer thread runs on `db`. */
export function prepareWriterStatements(db: Database.Database): WriterStatements {
  return {
    selectMeta: db.prepare<[string], { readonly value: unknown }>("SELECT value FROM meta WHERE name = ?"),
    updateMeta: db.prepare<[number, string]>("UPDATE meta SET value = ? WHERE name = ?"),
    selectKey: db.prepare<[string], KvRow>(`SELECT ${KV_COLUMNS} FROM kv WHERE key = ?`),
    selectRevision: db.prepare<[string], { readonly mod_revision: number }>(
      "SELECT mod_revision FROM kv WHERE key = ?",
    ),
    selectValue: db.prepare<[string], { readonly value: Buffer }>("SELECT value FROM kv WHERE key = ?"),
    upsert: db.prepare<[string, Buffer, number, number, string | null]>(
      "INSERT INTO kv (key, value, mod_revision, create_revision, lease_id) VALUES (?, ?, ?, ?, ?) " +
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value, mod_revision = excluded.mod_revision, lease_id = excluded.lease_id",
    ),
    deleteKey: db.prepare<[string]>("DELETE FROM kv WHERE key = ?"),
    insertLease: db.prepare<[string, number, number]>("INSERT INTO leases (id, ttl_ms, expires_at) VALUES (?, ?, ?)"),
    selectLease: db.prepare<[string], { readonly ttl_ms: number; readonly expires_at: number }>(
      "SELECT ttl_ms, expires_at FROM leases WHERE id = ?",
    ),
    renewLease: db.prepare<[number, string]>("UPDATE leases SET expires_at = ? WHERE id = ?"),
    deleteLease: db.prepare<[string]>("DELETE FROM leases WHERE id = ?"),
    selectExpiredIds: db.prepare<[number], { readonly id: string }>(
      "SELECT id FROM leases WHERE expires_at <= ? ORDER BY expires_at, id",
    ),
    selectLeaseKeys: db.prepare<[string], { readonly key: string }>("SELECT key FROM kv WHERE lease_id = ?"),
    deleteLeaseKeys: db.prepare<[string]>("DELETE FROM kv WHERE lease_id = ?"),
  };
}
