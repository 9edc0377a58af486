// Embedded MetadataStore over one SQLite file (better-sqlite3): the store of the zero-infrastructure setup. It
// emulates etcd's revision model: table `meta` holds the global revision counter, table `kv` each key with its
// mod/create revisions and lease, table `leases` the leases. Txns are group-committed: the txns submitted in one
// synchronous run of JavaScript (until the microtask queue drains) run in submission order, each in its own savepoint
// (its own revision, compares and failure), inside ONE `BEGIN IMMEDIATE` SQLite transaction; the result is the same
// as running them one after another. Txns submitted while a datasync of the `-wal` runs are held and committed
// together when it ends: nothing committed meanwhile could become durable before the next datasync starts anyway, so
// holding them costs no latency and saves SQLite commits (each writes every page it dirtied, two system calls per
// page). Durability: WAL journal with synchronous=NORMAL (a COMMIT does not fsync on the event loop) plus a datasync
// of the `-wal` file on the libuv pool (wal-file-sync.ts; commits made while a sync runs share the next one, which is
// where the fsyncs are grouped); a txn resolves, its watch events fire and reads return
// only once everything they could observe is durable. A failing COMMIT or a failed sync leaves every mutating txn of
// the batch ambiguous; after a failed sync the store refuses further work.
// Leases expire lazily (checked by every call) and by a periodic sweep. Watches are in-process listeners: they see
// this store's writes only, never another process's.
// Buffers: values are bound (SQLite copies them) and read back into fresh Uint8Arrays.
import {
  MetadataAmbiguousError,
  type NereusError,
  METADATA_STORE_SPI_VERSION,
  type KeyValue,
  type Lease,
  type MetadataStore,
  type OperationOptions,
  type ScanOptions,
  type ScanPage,
  type TxnRequest,
  type TxnResult,
  type WatchEvent,
  type WatchHandle,
} from "@nereus/core";
import Database from "better-sqlite3";
import { type BeforeWalSync, BufferedWal, type WalDurability, WalFileSync } from "./wal-file-sync.js";
import { checkMetadataRequest } from "./check-metadata-request.js";
import { mapSqliteError } from "./map-sqlite-error.js";
import { MetadataStoreErrors } from "./metadata-store-errors.js";
import { prefixUpperBound, scanLowerBound } from "./utf8-key-range.js";

export interface SqliteMetadataStoreOptions {
  /** Database file; created (with its schema) when missing. */
  readonly path: string;
  /** Milliseconds clock for lease expiry (default `Date.now`). */
  readonly clock?: () => number;
  /** Period of the background sweep that deletes expired leases' keys (default 1,000 ms; the timer is unref'd). */
  readonly leaseSweepIntervalMs?: number;
  /** Test seam: runs before each datasync of the `-wal` file; a throw fails the sync like an I/O error. */
  readonly beforeWalSync?: BeforeWalSync;
  /**
   * "fsync" (default): nothing is released before it is durable on disk. "os-buffered": no datasync — a txn
   * survives a crash of this process but not of the OS or the machine (what Apache Kafka does by default).
   */
  readonly durability?: "fsync" | "os-buffered";
}

const SCHEMA_VERSION = 1;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS kv (
    key TEXT PRIMARY KEY,
    value BLOB NOT NULL,
    mod_revision INTEGER NOT NULL,
    create_revision INTEGER NOT NULL,
    lease_id TEXT
  ) STRICT;
  CREATE INDEX IF NOT EXISTS kv_by_lease ON kv (lease_id) WHERE lease_id IS NOT NULL;
  CREATE TABLE IF NOT EXISTS leases (id TEXT PRIMARY KEY, ttl_ms INTEGER NOT NULL, expires_at INTEGER NOT NULL) STRICT;
  CREATE INDEX IF NOT EXISTS leases_by_expiry ON leases (expires_at);
  INSERT OR IGNORE INTO meta (name, value) VALUES ('schema_version', ${SCHEMA_VERSION}), ('revision', 0), ('next_lease_id', 1);
`;

/** A txn waiting for the next group commit. */
interface QueuedTxn {
  readonly request: TxnRequest;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (result: TxnResult) => void;
  readonly reject: (error: unknown) => void;
}

/** What one queued txn came to inside its group commit. */
type TxnOutcome = { readonly result: TxnResult } | { readonly error: unknown };

interface KvRow {
  readonly key: string;
  readonly value: Buffer;
  readonly mod_revision: number;
  readonly create_revision: number;
}

/** Opens (or creates) the database file. Throws non-ambiguous `METADATA_UNAVAILABLE` when it cannot. */
export async function createSqliteMetadataStore(options: SqliteMetadataStoreOptions): Promise<SqliteMetadataStore> {
  return SqliteMetadataStore.open(options);
}

/**
 * `MetadataStore` over SQLite. Invariants beyond the SPI's: the revision counter is stored and survives restarts and
 * deletes (revisions are never reused); a txn that returned is durable (synchronous=FULL); an error raised before
 * COMMIT applied nothing, one raised by COMMIT of a mutating txn is `MetadataAmbiguousError`.
 */
export class SqliteMetadataStore implements MetadataStore, AsyncDisposable {
  readonly spiVersion = METADATA_STORE_SPI_VERSION;
  readonly #db: Database.Database;
  readonly #walSync: WalDurability;
  readonly #clock: () => number;
  readonly #statements: ReturnType<typeof prepare>;
  /** Transaction wrappers built once (a nested call runs as a savepoint). */
  readonly #applyInSavepoint: Database.Transaction<(request: TxnRequest) => TxnResult>;
  readonly #applyBatch: Database.Transaction<(queued: readonly QueuedTxn[], outcomes: TxnOutcome[]) => void>;
  readonly #watchers = new Set<{ readonly prefix: string; readonly onEvent: (event: WatchEvent) => void }>();
  readonly #sweepTimer: NodeJS.Timeout;
  /** Events of the SQLite transaction in progress; delivered after it commits, dropped if it rolls back. */
  #pendingEvents: WatchEvent[] = [];
  /** Txns submitted since the last group commit, in order. */
  #queuedTxns: QueuedTxn[] = [];
  /** A group commit is queued (as a microtask) and has not run yet. */
  #groupCommitQueued = false;
  #closed = false;
  /** Group commits run (SQLite transactions that carried queued txns) and the txns they carried. */
  readonly stats = { groupCommits: 0, txns: 0 };

  /** Datasyncs of the `-wal` file so far (fewer than commits under load: concurrent commits share one). */
  get walSyncs(): number {
    return this.#walSync.syncs;
  }

  private constructor(db: Database.Database, walSync: WalDurability, options: SqliteMetadataStoreOptions) {
    this.#db = db;
    this.#walSync = walSync;
    this.#clock = options.clock ?? Date.now;
    this.#statements = prepare(db);
    this.#applyInSavepoint = db.transaction((request: TxnRequest): TxnResult => this.#applyTxn(request));
    this.#applyBatch = db.transaction((queued: readonly QueuedTxn[], outcomes: TxnOutcome[]): void => this.#runBatch(queued, outcomes));
    this.#sweepTimer = setInterval(() => {
      try {
        this.#expireLeases();
      } catch {
        // The next call expires them (and reports the error if it persists).
      }
    }, options.leaseSweepIntervalMs ?? 1_000);
    this.#sweepTimer.unref();
  }

  /** Same as {@link createSqliteMetadataStore}. */
  static async open(options: SqliteMetadataStoreOptions): Promise<SqliteMetadataStore> {
    let db: Database.Database | undefined;
    const durability = options.durability ?? "fsync";
    if (durability !== "fsync" && durability !== "os-buffered") {
      throw MetadataStoreErrors.invalid(`durability must be "fsync" or "os-buffered", got ${String(durability)}`);
    }
    try {
      db = new Database(options.path);
      db.pragma("busy_timeout = 5000");
      const journalMode = db.pragma("journal_mode = WAL", { simple: true });
      if (journalMode !== "wal") throw new Error(`could not enable WAL journal mode (got ${String(journalMode)})`);
      // Commits append to the -wal file without fsync; WalFileSync makes them durable before anyone sees them.
      db.pragma("synchronous = NORMAL");
      const encoding = db.pragma("encoding", { simple: true });
      if (encoding !== "UTF-8") throw new Error(`database encoding is ${String(encoding)}, keys need UTF-8 byte order`);
      db.exec(SCHEMA);
      const version = (db.prepare("SELECT value FROM meta WHERE name = 'schema_version'").get() as { value: number }).value;
      if (version !== SCHEMA_VERSION) throw new Error(`unsupported metadata schema version ${version}`);
      // The schema statements above wrote to the WAL, so the -wal file exists.
      const walSync = durability === "fsync" ? await WalFileSync.open(`${options.path}-wal`, options.beforeWalSync) : new BufferedWal();
      await walSync.request();
      const store = new SqliteMetadataStore(db, walSync, options);
      store.#expireLeases();
      return store;
    } catch (error) {
      db?.close();
      if (error instanceof Error && !("code" in error)) {
        throw MetadataStoreErrors.unavailable(`sqlite metadata store ${options.path}: ${error.message}`, error, false);
      }
      throw mapSqliteError(error, { operation: "open", failedAtCommit: false });
    }
  }

  async get(key: string, options: OperationOptions = {}): Promise<KeyValue | undefined> {
    this.#enter(options.signal);
    checkMetadataRequest.key(key);
    return this.#read("get", () => {
      const row = this.#statements.selectKey.get(key) as KvRow | undefined;
      return row === undefined ? undefined : toKeyValue(row);
    });
  }

  async getMany(keys: readonly string[], options: OperationOptions = {}): Promise<ReadonlyMap<string, KeyValue>> {
    this.#enter(options.signal);
    checkMetadataRequest.keys(keys);
    return this.#read("getMany", () =>
      this.#db.transaction(() => {
        const found = new Map<string, KeyValue>();
        for (const key of keys) {
          const row = this.#statements.selectKey.get(key) as KvRow | undefined;
          if (row !== undefined) found.set(key, toKeyValue(row));
        }
        return found;
      }).deferred(),
    );
  }

  async scan(prefix: string, options: ScanOptions): Promise<ScanPage> {
    this.#enter(options.signal);
    checkMetadataRequest.scan(prefix, options);
    const bound = scanLowerBound(prefix, options.startAt, options.startAfter);
    const upper = prefixUpperBound(prefix);
    const statement =
      upper === undefined
        ? bound.exclusive
          ? this.#statements.scanAfter
          : this.#statements.scanFrom
        : bound.exclusive
          ? this.#statements.scanAfterBelow
          : this.#statements.scanFromBelow;
    return this.#read("scan", () => {
      const parameters = upper === undefined ? [bound.key, options.limit + 1] : [bound.key, upper, options.limit + 1];
      const rows = statement.all(...parameters) as KvRow[];
      const more = rows.length > options.limit;
      return { items: rows.slice(0, options.limit).map(toKeyValue), more };
    });
  }

  /** Queued for the group commit of this turn of the event loop (see the module comment). */
  async txn(request: TxnRequest, options: OperationOptions = {}): Promise<TxnResult> {
    this.#enter(options.signal);
    checkMetadataRequest.txn(request);
    return new Promise<TxnResult>((resolve, reject) => {
      this.#queuedTxns.push({ request, signal: options.signal, resolve, reject });
      if (!this.#groupCommitQueued) {
        this.#groupCommitQueued = true;
        const running = this.#walSync.running;
        if (running === undefined) queueMicrotask(() => this.#commitQueuedTxns());
        else {
          // Held until the running datasync ends (see the module comment).
          const commit = (): void => this.#commitQueuedTxns();
          running.then(commit, commit);
        }
      }
    });
  }

  async grantLease(ttlMs: number, options: OperationOptions = {}): Promise<Lease> {
    this.#enter(options.signal);
    checkMetadataRequest.ttl(ttlMs);
    const grant = this.#db.transaction((): string => {
      const next = (this.#statements.selectMeta.get("next_lease_id") as { value: number }).value;
      this.#statements.updateMeta.run(next + 1, "next_lease_id");
      const id = String(next);
      this.#statements.insertLease.run(id, Math.ceil(ttlMs), this.#clock() + Math.ceil(ttlMs));
      return id;
    });
    const id = await this.#write("grantLease", () => grant.immediate(), () => false);
    return {
      id,
      keepAlive: async (keepAliveOptions: OperationOptions = {}) => {
        this.#enter(keepAliveOptions.signal);
        const renew = this.#db.transaction((): void => {
          const now = this.#clock();
          const lease = this.#statements.selectLease.get(id) as { ttl_ms: number; expires_at: number } | undefined;
          // An expired lease is gone even if no sweep has deleted it yet.
          if (lease === undefined || lease.expires_at <= now) throw MetadataStoreErrors.leaseNotFound(id);
          this.#statements.renewLease.run(now + lease.ttl_ms, id);
        });
        await this.#write("keepAlive", () => renew.immediate(), () => false);
      },
      revoke: async (revokeOptions: OperationOptions = {}) => {
        this.#enter(revokeOptions.signal);
        const revoke = this.#db.transaction((): void => this.#dropLease(id));
        await this.#write("revoke", () => revoke.immediate(), () => false);
      },
    };
  }

  async watch(prefix: string, onEvent: (event: WatchEvent) => void): Promise<WatchHandle & AsyncDisposable> {
    this.#enter(undefined);
    checkMetadataRequest.prefix(prefix);
    const watcher = { prefix, onEvent };
    this.#watchers.add(watcher);
    const close = async (): Promise<void> => {
      this.#watchers.delete(watcher);
    };
    return { close, [Symbol.asyncDispose]: close };
  }

  /** Idempotent: stops the sweep, ends the watches and closes the database (checkpointing the WAL). */
  async close(): Promise<void> {
    if (this.#closed) return;
    // Txns already accepted are committed (or fail) before the database closes.
    this.#commitQueuedTxns();
    this.#closed = true;
    clearInterval(this.#sweepTimer);
    await this.#walSync.barrier().catch(() => undefined);
    this.#watchers.clear();
    this.#db.close();
    await this.#walSync.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #enter(signal: AbortSignal | undefined): void {
    if (this.#closed) throw MetadataStoreErrors.closed();
    if (this.#walSync.failure !== undefined) {
      throw MetadataStoreErrors.unavailable(`sqlite metadata store: syncing the WAL failed earlier; reopen the store`, this.#walSync.failure, false);
    }
    if (signal?.aborted === true) throw MetadataStoreErrors.cancelled(signal);
  }

  /** Reads now, returns once everything the read could have observed is durable. */
  async #read<T>(operation: string, read: () => T): Promise<T> {
    let value: T;
    try {
      this.#expireLeases();
      value = read();
    } catch (error) {
      throw mapSqliteError(error, { operation, failedAtCommit: false });
    }
    await this.#durable(operation, false);
    return value;
  }

  /** A direct (non-txn) write: lease grant, renewal, revocation. Resolves once durable. */
  async #write<T>(operation: string, write: () => T, failedAtCommit: () => boolean): Promise<T> {
    const result = this.#writeNow(operation, write, failedAtCommit);
    await this.#durable(operation, true);
    return result;
  }

  #writeNow<T>(operation: string, write: () => T, failedAtCommit: () => boolean): T {
    this.#pendingEvents = [];
    let result: T;
    try {
      result = write();
    } catch (error) {
      this.#pendingEvents = [];
      throw mapSqliteError(error, { operation, failedAtCommit: failedAtCommit() });
    }
    this.#flushEvents(this.#pendingEvents);
    return result;
  }

  /** Waits until every write so far is durable; a failed sync is ambiguous for writes, unavailable for reads. */
  async #durable(operation: string, wrote: boolean): Promise<void> {
    try {
      await (wrote ? this.#walSync.request() : this.#walSync.barrier());
    } catch (error) {
      throw syncFailure(operation, error, wrote);
    }
  }

  /**
   * Runs every queued txn in one SQLite transaction. A txn whose caller aborted before this point is dropped
   * (CANCELLED, nothing applied); one that throws (an unknown lease) rolls back only its savepoint; if BEGIN fails
   * nothing applied, if COMMIT fails every txn that would have written is ambiguous.
   */
  #commitQueuedTxns(): void {
    this.#groupCommitQueued = false;
    const queued = this.#queuedTxns.filter((item) => {
      if (item.signal?.aborted !== true) return true;
      item.reject(MetadataStoreErrors.cancelled(item.signal));
      return false;
    });
    this.#queuedTxns = [];
    if (queued.length === 0) return;
    const earlierFailure = this.#walSync.failure;
    if (earlierFailure !== undefined) {
      // The datasync these txns were held behind failed: the store refuses work, and nothing of theirs applied.
      const error = MetadataStoreErrors.unavailable(`sqlite metadata store: syncing the WAL failed earlier; reopen the store`, earlierFailure, false);
      for (const item of queued) item.reject(error);
      return;
    }
    const outcomes: TxnOutcome[] = [];
    this.#pendingEvents = [];
    this.stats.groupCommits += 1;
    this.stats.txns += queued.length;
    try {
      this.#applyBatch.immediate(queued, outcomes);
    } catch (error) {
      // Every outcome is recorded only once the body ran to its end: then the failure came from COMMIT.
      const bodyDone = outcomes.length === queued.length;
      this.#pendingEvents = [];
      queued.forEach((item, index) => {
        const outcome = outcomes[index];
        const wrote = bodyDone && outcome !== undefined && "result" in outcome && outcome.result.succeeded && item.request.writes.length > 0;
        item.reject(mapSqliteError(error, { operation: "txn", failedAtCommit: wrote }));
      });
      return;
    }
    const events = this.#pendingEvents;
    this.#pendingEvents = [];
    this.#walSync.request().then(
      () => {
        this.#flushEvents(events);
        queued.forEach((item, index) => {
          const outcome = outcomes[index];
          if (outcome !== undefined && "result" in outcome) item.resolve(outcome.result);
          else item.reject(mapSqliteError(outcome?.error, { operation: "txn", failedAtCommit: false }));
        });
      },
      (error: unknown) => {
        queued.forEach((item, index) => {
          const outcome = outcomes[index];
          const wrote = outcome !== undefined && "result" in outcome && outcome.result.succeeded && item.request.writes.length > 0;
          item.reject(syncFailure("txn", error, wrote));
        });
      },
    );
  }

  /** Body of a group commit (one SQLite transaction): each txn in its own savepoint, outcomes in order. */
  #runBatch(queued: readonly QueuedTxn[], outcomes: TxnOutcome[]): void {
    this.#expireLeasesInTransaction();
    for (const item of queued) {
      const eventsBefore = this.#pendingEvents.length;
      try {
        outcomes.push({ result: this.#applyInSavepoint(item.request) });
      } catch (error) {
        this.#pendingEvents.length = eventsBefore;
        outcomes.push({ error });
      }
    }
  }

  #applyTxn(request: TxnRequest): TxnResult {
    const statements = this.#statements;
    for (const compare of request.compares) {
      const row = statements.selectRevision.get(compare.key) as { mod_revision: number } | undefined;
      if ((row?.mod_revision ?? 0) !== compare.modRevision) {
        const current = new Map<string, KeyValue>();
        for (const key of request.readOnFailure ?? []) {
          const found = statements.selectKey.get(key) as KvRow | undefined;
          if (found !== undefined) current.set(key, toKeyValue(found));
        }
        return { succeeded: false, current };
      }
    }
    for (const write of request.writes) {
      if (write.type === "put" && write.leaseId !== undefined && statements.selectLease.get(write.leaseId) === undefined) {
        throw MetadataStoreErrors.leaseNotFound(write.leaseId);
      }
    }
    const current = this.#revision();
    const revision = current + 1;
    let changed = false;
    for (const write of request.writes) {
      if (write.type === "put") {
        const value = Buffer.from(write.value.buffer, write.value.byteOffset, write.value.byteLength);
        // `revision` becomes the create revision only if the key is new: the upsert keeps an existing key's.
        statements.upsert.run(write.key, value, revision, revision, write.leaseId ?? null);
        this.#pendingEvents.push({ type: "put", key: write.key, modRevision: revision });
        changed = true;
      } else if (statements.deleteKey.run(write.key).changes > 0) {
        this.#pendingEvents.push({ type: "delete", key: write.key, modRevision: revision });
        changed = true;
      }
    }
    if (!changed) return { succeeded: true, revision: current };
    statements.updateMeta.run(revision, "revision");
    return { succeeded: true, revision };
  }

  #revision(): number {
    const value = (this.#statements.selectMeta.get("revision") as { value: number }).value;
    if (!Number.isSafeInteger(value) || value < 0) throw MetadataStoreErrors.invariant(`stored revision ${value} is invalid`);
    return value;
  }

  /** Outside any transaction: deletes expired leases (if any) in one immediate transaction (synced like any write). */
  #expireLeases(): void {
    if (this.#statements.selectExpired.get(this.#clock()) === undefined) return;
    this.#writeNow("expireLeases", () => this.#db.transaction(() => this.#expireLeasesInTransaction()).immediate(), () => false);
    this.#walSync.request().catch(() => undefined);
  }

  #expireLeasesInTransaction(): void {
    const expired = this.#statements.selectExpiredIds.all(this.#clock()) as { id: string }[];
    for (const { id } of expired) this.#dropLease(id);
  }

  /** Deletes a lease and its keys (one revision for all of them, like etcd's revocation). Absent lease: no-op. */
  #dropLease(id: string): void {
    const statements = this.#statements;
    if (statements.deleteLease.run(id).changes === 0) return;
    const keys = statements.selectLeaseKeys.all(id) as { key: string }[];
    if (keys.length === 0) return;
    const revision = this.#revision() + 1;
    statements.deleteLeaseKeys.run(id);
    statements.updateMeta.run(revision, "revision");
    for (const { key } of keys) this.#pendingEvents.push({ type: "delete", key, modRevision: revision });
  }

  #flushEvents(events: readonly WatchEvent[]): void {
    if (events.length === 0) return;
    for (const watcher of this.#watchers) {
      const matching = events.filter((event) => event.key.startsWith(watcher.prefix));
      if (matching.length === 0) continue;
      queueMicrotask(() => {
        for (const event of matching) {
          if (!this.#watchers.has(watcher)) return;
          try {
            watcher.onEvent(event);
          } catch {
            // Watch events are hints; a throwing listener must not break the store.
          }
        }
      });
    }
  }
}

/** A failed WAL sync: writes it covered may or may not have survived (ambiguous); a read simply failed. */
function syncFailure(operation: string, error: unknown, wrote: boolean): NereusError {
  if (wrote) return new MetadataAmbiguousError(`sqlite ${operation}: syncing the WAL failed, the outcome is unknown: ${String(error)}`, error);
  return MetadataStoreErrors.unavailable(`sqlite ${operation}: syncing the WAL failed: ${String(error)}`, error, false);
}

function prepare(db: Database.Database) {
  const columns = "key, value, mod_revision, create_revision";
  return {
    selectMeta: db.prepare("SELECT value FROM meta WHERE name = ?"),
    updateMeta: db.prepare("UPDATE meta SET value = ? WHERE name = ?"),
    selectKey: db.prepare(`SELECT ${columns} FROM kv WHERE key = ?`),
    selectRevision: db.prepare("SELECT mod_revision, create_revision FROM kv WHERE key = ?"),
    upsert: db.prepare(
      `INSERT INTO kv (key, value, mod_revision, create_revision, lease_id) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, mod_revision = excluded.mod_revision, lease_id = excluded.lease_id`,
    ),
    deleteKey: db.prepare("DELETE FROM kv WHERE key = ?"),
    scanFrom: db.prepare(`SELECT ${columns} FROM kv WHERE key >= ? ORDER BY key LIMIT ?`),
    scanAfter: db.prepare(`SELECT ${columns} FROM kv WHERE key > ? ORDER BY key LIMIT ?`),
    scanFromBelow: db.prepare(`SELECT ${columns} FROM kv WHERE key >= ? AND key < ? ORDER BY key LIMIT ?`),
    scanAfterBelow: db.prepare(`SELECT ${columns} FROM kv WHERE key > ? AND key < ? ORDER BY key LIMIT ?`),
    insertLease: db.prepare("INSERT INTO leases (id, ttl_ms, expires_at) VALUES (?, ?, ?)"),
    selectLease: db.prepare("SELECT ttl_ms, expires_at FROM leases WHERE id = ?"),
    renewLease: db.prepare("UPDATE leases SET expires_at = ? WHERE id = ?"),
    deleteLease: db.prepare("DELETE FROM leases WHERE id = ?"),
    selectExpired: db.prepare("SELECT 1 FROM leases WHERE expires_at <= ? LIMIT 1"),
    selectExpiredIds: db.prepare("SELECT id FROM leases WHERE expires_at <= ? ORDER BY expires_at, id"),
    selectLeaseKeys: db.prepare("SELECT key FROM kv WHERE lease_id = ?"),
    deleteLeaseKeys: db.prepare("DELETE FROM kv WHERE lease_id = ?"),
  };
}

function toKeyValue(row: KvRow): KeyValue {
  if (!Number.isSafeInteger(row.mod_revision) || !Number.isSafeInteger(row.create_revision) || row.mod_revision <= 0) {
    throw MetadataStoreErrors.invariant(`stored key ${row.key} has invalid revisions`);
  }
  return { key: row.key, value: new Uint8Array(row.value), modRevision: row.mod_revision, createRevision: row.create_revision };
}
