// Embedded MetadataStore over one SQLite file (better-sqlite3): the store of the zero-infrastructure setup. It
// emulates etcd's revision model: table `meta` holds the global revision counter, table `kv` each key with its
// mod/create revisions and lease, table `leases` the leases. Writes run on a writer thread (sqlite-writer-thread.ts)
// that owns the only writing connection; the event loop keeps a connection for reads. Txns are group-committed:
// the txns submitted in one synchronous run of JavaScript (until the microtask queue drains) go to the thread as one
// operation, and the thread takes every operation queued while it was busy into its next round: each txn in its own
// savepoint (its own revision, compares and failure) inside ONE `BEGIN IMMEDIATE` SQLite transaction, so the result
// is the same as running them one after another. Durability: WAL journal with synchronous=NORMAL plus a datasync of
// the `-wal` file by the thread after each round; a txn resolves, its watch events fire and reads return only once
// everything they could observe is durable. A failing COMMIT or a failed sync leaves every mutating txn of the round
// ambiguous; after a failed sync the store refuses further work.
// Leases expire lazily (checked by reads, see LEASE_CHECK_INTERVAL_MS) and by a periodic sweep, which runs a writer
// round only when a lease in the table is due. Watches are in-process listeners: they see this store's writes only,
// never another process's.
// With `cacheReads` (a store that alone writes its file), gets and scans are answered from what earlier reads read
// until the writer thread starts its next round (sqlite-read-cache.ts).
// Buffers: values are bound (SQLite copies them) and read back into fresh Uint8Arrays (the cache answers copies).
// A full disk: a failing COMMIT (SQLITE_FULL) fails its round only, so writes resume once there is room; an open that
// fails for lack of space frees the store's space reserve and tries again (sqlite-space-reserve.ts).
import {
  MetadataAmbiguousError,
  awaitDurabilityGate,
  durabilityGateFailed,
  type NereusError,
  METADATA_STORE_SPI_VERSION,
  type KeyValue,
  type Lease,
  type MetadataStore,
  type MetadataStoreAccelerations,
  type OperationOptions,
  type ScanOptions,
  type ScanPage,
  type TxnRequest,
  type TxnResult,
  type WatchEvent,
  type WatchHandle,
} from "@nereus/core";
import { checkMetadataRequest, MetadataStoreErrors, PrefixWatchers } from "@nereus/core/internal";
import type Database from "better-sqlite3";
import { loadBetterSqlite3 } from "./load-better-sqlite3.js";
import { mapSqliteError } from "./map-sqlite-error.js";
import { SqliteReadCache, type SqliteReadCacheStats } from "./sqlite-read-cache.js";
import { ensureSpaceReserve, isNoSpaceError, releaseSpaceReserve } from "./sqlite-space-reserve.js";
import {
  GATE_TIMEOUT_MS,
  type WriterFailure,
  type WriterOperation,
  type WriterOutcome,
  type WriterTxn,
} from "./writer/sqlite-writer-protocol.js";
import {
  type BeforeWalSync,
  type RoundSettlement,
  SqliteWriterThread,
  type SqliteWriterTimings,
} from "./sqlite-writer-thread.js";
import { prefixUpperBound, scanLowerBound } from "../key-range/utf8-key-range.js";

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
  /**
   * How long the writer waits for the physical write a txn depends on (`TxnRequest.after` with shared words)
   * before it refuses that txn as not applied (default 30,000 ms; a positive integer up to 2^31 - 1).
   */
  readonly gateTimeoutMs?: number;
  /**
   * Keep what `get` and `scan` read until this store's writer thread starts its next round (sqlite-read-cache.ts):
   * repeated reads of unchanged keys and ranges skip SQLite. Only for a store that is the only writer of its file —
   * no other store object or process may write it while this one is open (default false).
   */
  readonly cacheReads?: boolean;
}

const SCHEMA_VERSION = 1;

/**
 * After a read found no expired lease, the reads of the next LEASE_CHECK_INTERVAL_MS skip the check (an SQLite query
 * each; on the benchmark's read path a query costs 30-100 us when it is the first in a while), or of less when a lease
 * in the table or one this store is granting expires sooner. A lease that another connection to the same file grants
 * meanwhile is therefore seen expired up to this much late (etcd's lessor checks expiries every 500 ms).
 */
const LEASE_CHECK_INTERVAL_MS = 100;

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

/** A txn waiting to be sent to the writer thread. */
interface QueuedTxn {
  readonly request: TxnRequest;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (result: TxnResult) => void;
  readonly reject: (error: unknown) => void;
}

interface KvRow {
  readonly key: string;
  readonly value: Uint8Array;
  readonly mod_revision: number;
  readonly create_revision: number;
}

/** A txn's result as the writer thread sends it (a failed compare's read-back as rows). */
type RawTxnResult =
  | { readonly succeeded: true; readonly revision: number }
  | { readonly succeeded: false; readonly current: readonly KvRow[] };

/**
 * Opens (or creates) the database file. Throws non-ambiguous `METADATA_UNAVAILABLE` when it cannot, and
 * `DEPENDENCY_UNAVAILABLE` (before touching the file) when the optional peer dependency better-sqlite3 is missing.
 */
export async function createSqliteMetadataStore(options: SqliteMetadataStoreOptions): Promise<SqliteMetadataStore> {
  return SqliteMetadataStore.open(options);
}

/**
 * `MetadataStore` over SQLite. Invariants beyond the SPI's: the revision counter is stored and survives restarts and
 * deletes (revisions are never reused); a txn that returned is durable (durability "fsync"); an error raised before
 * COMMIT applied nothing, one raised by COMMIT (or its datasync) of a mutating txn is `MetadataAmbiguousError`.
 */
export class SqliteMetadataStore implements MetadataStore, AsyncDisposable {
  readonly spiVersion = METADATA_STORE_SPI_VERSION;
  /**
   * `orderedTxns`: txns reach the one writer thread in submission order and apply in it (a gate the thread cannot
   * wait on is awaited before queueing, so such a txn may apply after later ones); an ambiguous round's outcome is
   * fixed when it is reported (the thread is gone or every later operation is refused).
   */
  readonly accelerations: MetadataStoreAccelerations = { orderedTxns: true };
  readonly #db: Database.Database;
  readonly #writer: SqliteWriterThread;
  readonly #clock: () => number;
  readonly #statements: ReturnType<typeof prepare>;
  readonly #watchers = new PrefixWatchers();
  readonly #sweepTimer: NodeJS.Timeout;
  /** With `cacheReads`: what reads read, kept until the writer thread's next round. */
  readonly #cache: SqliteReadCache | undefined;
  /**
   * Reads before this clock reading skip the expired-lease check. Invariant: at most the earliest expiry of every
   * lease in the table when it was last checked and of every lease this store granted since (see
   * LEASE_CHECK_INTERVAL_MS).
   */
  #leaseCheckAt = Number.NEGATIVE_INFINITY;
  /** Expiries of the grants submitted and not settled yet (not in the table a check reads). */
  readonly #pendingGrants = new Map<symbol, number>();
  /** Txns submitted since the last send to the writer thread, in order. */
  #queuedTxns: QueuedTxn[] = [];
  #sendQueued = false;
  #closed = false;

  /** Group commits run (SQLite transactions that carried txns) and the txns they carried. */
  get stats(): { readonly groupCommits: number; readonly txns: number } {
    return { groupCommits: this.#writer.groupCommits, txns: this.#writer.txns };
  }

  /** How long the writer thread's rounds, gate waits and `-wal` datasyncs took so far (see `SqliteWriterTimings`). */
  ioTimings(): SqliteWriterTimings {
    return this.#writer.timings();
  }

  /** Datasyncs of the `-wal` file so far (fewer than commits under load: concurrent commits share one). */
  get walSyncs(): number {
    return this.#writer.walSyncs;
  }

  /** Hits and misses of the read cache; undefined without `cacheReads`. */
  get readCacheStats(): SqliteReadCacheStats | undefined {
    return this.#cache?.stats;
  }

  private constructor(db: Database.Database, writer: SqliteWriterThread, options: SqliteMetadataStoreOptions) {
    this.#db = db;
    this.#writer = writer;
    this.#clock = options.clock ?? Date.now;
    this.#statements = prepare(db);
    this.#cache = options.cacheReads === true ? new SqliteReadCache() : undefined;
    this.#sweepTimer = setInterval(() => {
      if (this.#closed || this.#writer.failure !== undefined) return;
      void this.#sweepLeases().catch(() => undefined);
    }, options.leaseSweepIntervalMs ?? 1_000);
    this.#sweepTimer.unref();
  }

  /**
   * Same as {@link createSqliteMetadataStore}. An open that fails for lack of space is tried once more after the
   * store's space reserve was removed; an open with room keeps a reserve beside the database file.
   */
  static async open(options: SqliteMetadataStoreOptions): Promise<SqliteMetadataStore> {
    try {
      return await SqliteMetadataStore.#openOnce(options);
    } catch (error) {
      if (
        options.path === ":memory:" ||
        !isNoSpaceError(rootCause(error)) ||
        !(await releaseSpaceReserve(options.path))
      )
        throw error;
    }
    return SqliteMetadataStore.#openOnce(options);
  }

  static async #openOnce(options: SqliteMetadataStoreOptions): Promise<SqliteMetadataStore> {
    let db: Database.Database | undefined;
    let writer: SqliteWriterThread | undefined;
    const durability = options.durability ?? "fsync";
    if (durability !== "fsync" && durability !== "os-buffered") {
      throw MetadataStoreErrors.invalid(`durability must be "fsync" or "os-buffered", got ${String(durability)}`);
    }
    const gateTimeoutMs = options.gateTimeoutMs ?? GATE_TIMEOUT_MS;
    if (!Number.isSafeInteger(gateTimeoutMs) || gateTimeoutMs < 1 || gateTimeoutMs > 0x7fff_ffff) {
      throw MetadataStoreErrors.invalid(
        `gateTimeoutMs must be a positive integer of at most 2147483647, got ${String(options.gateTimeoutMs)}`,
      );
    }
    const Sqlite = await loadBetterSqlite3();
    try {
      db = new Sqlite(options.path);
      db.pragma("busy_timeout = 5000");
      const journalMode = db.pragma("journal_mode = WAL", { simple: true });
      if (journalMode !== "wal") throw new Error(`could not enable WAL journal mode (got ${String(journalMode)})`);
      db.pragma("synchronous = NORMAL");
      const encoding = db.pragma("encoding", { simple: true });
      if (encoding !== "UTF-8") throw new Error(`database encoding is ${String(encoding)}, keys need UTF-8 byte order`);
      db.exec(SCHEMA);
      const version = (db.prepare("SELECT value FROM meta WHERE name = 'schema_version'").get() as { value: number })
        .value;
      if (version !== SCHEMA_VERSION) throw new Error(`unsupported metadata schema version ${version}`);
      const store: { current?: SqliteMetadataStore } = {};
      writer = await SqliteWriterThread.start({
        path: options.path,
        sync: durability === "fsync",
        gateTimeoutMs,
        ...(options.beforeWalSync === undefined ? {} : { beforeWalSync: options.beforeWalSync }),
        onEvents: (events) => {
          if (store.current !== undefined) store.current.#watchers.notify(events);
        },
      });
      store.current = new SqliteMetadataStore(db, writer, options);
      // The first round expires what expired while the store was closed and makes the schema durable.
      await store.current.#submitWrite("open", { kind: "expire" });
      if (options.path !== ":memory:") await ensureSpaceReserve(options.path);
      return store.current;
    } catch (error) {
      await writer?.close().catch(() => undefined);
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
      const cache = this.#cache;
      const epoch = cache === undefined ? 0 : this.#writer.rounds;
      const known = cache?.get(epoch, key);
      if (known !== undefined) return known ?? undefined;
      const row = this.#statements.selectKey.get(key) as KvRow | undefined;
      const found = row === undefined ? undefined : toKeyValue(row);
      cache?.putKey(epoch, key, found);
      return found;
    });
  }

  async getMany(keys: readonly string[], options: OperationOptions = {}): Promise<ReadonlyMap<string, KeyValue>> {
    this.#enter(options.signal);
    checkMetadataRequest.keys(keys);
    return this.#read("getMany", () =>
      this.#db
        .transaction(() => {
          const found = new Map<string, KeyValue>();
          for (const key of keys) {
            const row = this.#statements.selectKey.get(key) as KvRow | undefined;
            if (row !== undefined) found.set(key, toKeyValue(row));
          }
          return found;
        })
        .deferred(),
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
      const cache = this.#cache;
      const epoch = cache === undefined ? 0 : this.#writer.rounds;
      const known = cache?.scan(epoch, prefix, bound, options.limit);
      if (known !== undefined) return known;
      const parameters = upper === undefined ? [bound.key, options.limit + 1] : [bound.key, upper, options.limit + 1];
      const items = (statement.all(...parameters) as KvRow[]).map(toKeyValue);
      const more = items.length > options.limit;
      cache?.putScan(epoch, prefix, bound, items, !more);
      return { items: more ? items.slice(0, options.limit) : items, more };
    });
  }

  /** Queued for the group commit of this turn of the event loop (see the module comment). */
  async txn(request: TxnRequest, options: OperationOptions = {}): Promise<TxnResult> {
    this.#enter(options.signal);
    checkMetadataRequest.txn(request);
    // A gate the writer thread cannot wait on is awaited here, before the txn is queued.
    if (request.after !== undefined && request.after.accelerations?.shared === undefined) {
      await awaitDurabilityGate(request.after, "sqlite txn");
      this.#enter(options.signal);
    }
    return new Promise<TxnResult>((resolve, reject) => {
      this.#queuedTxns.push({ request, signal: options.signal, resolve, reject });
      if (!this.#sendQueued) {
        this.#sendQueued = true;
        queueMicrotask(() => this.#sendQueuedTxns());
      }
    });
  }

  async grantLease(ttlMs: number, options: OperationOptions = {}): Promise<Lease> {
    this.#enter(options.signal);
    checkMetadataRequest.ttl(ttlMs);
    const now = this.#clock();
    const ttl = Math.ceil(ttlMs);
    // Before the lease exists (and until its grant settled): reads check again by the time it expires.
    const grant = Symbol("grant");
    this.#pendingGrants.set(grant, now + ttl);
    this.#leaseCheckAt = Math.min(this.#leaseCheckAt, now + ttl);
    let id: string;
    try {
      id = String(await this.#submitWrite("grantLease", { kind: "grant", ttlMs: ttl }, now));
    } finally {
      this.#pendingGrants.delete(grant);
    }
    return {
      id,
      keepAlive: async (keepAliveOptions: OperationOptions = {}) => {
        this.#enter(keepAliveOptions.signal);
        await this.#submitWrite("keepAlive", { kind: "keepAlive", leaseId: id });
      },
      revoke: async (revokeOptions: OperationOptions = {}) => {
        this.#enter(revokeOptions.signal);
        await this.#submitWrite("revoke", { kind: "revoke", leaseId: id });
      },
    };
  }

  async watch(prefix: string, onEvent: (event: WatchEvent) => void): Promise<WatchHandle & AsyncDisposable> {
    this.#enter(undefined);
    checkMetadataRequest.prefix(prefix);
    return this.#watchers.add(prefix, onEvent);
  }

  /** Idempotent: stops the sweep, ends the watches, stops the writer thread and closes the database. */
  async close(): Promise<void> {
    if (this.#closed) return;
    // Txns already accepted are committed (or fail) before the database closes.
    this.#sendQueuedTxns();
    this.#closed = true;
    clearInterval(this.#sweepTimer);
    await this.#writer.close().catch(() => undefined);
    this.#watchers.clear();
    this.#db.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #enter(signal: AbortSignal | undefined): void {
    if (this.#closed) throw MetadataStoreErrors.closed();
    const failure = this.#writer.failure;
    if (failure !== undefined) throw this.#poisoned(failure);
    if (signal?.aborted === true) throw MetadataStoreErrors.cancelled(signal);
  }

  /**
   * Reads now (after expiring leases that are due), returns once everything the read could have observed is
   * durable: the writer thread commits before it syncs, so a read may see a round whose sync is still running.
   */
  async #read<T>(operation: string, read: () => T): Promise<T> {
    let value: T;
    try {
      const now = this.#clock();
      if (now >= this.#leaseCheckAt) {
        const earliest = (this.#statements.selectEarliestExpiry.get() as { at: number | null }).at;
        if (earliest !== null && earliest <= now) await this.#expireLeases();
        else {
          let next = Math.min(now + LEASE_CHECK_INTERVAL_MS, earliest ?? Number.POSITIVE_INFINITY);
          for (const expiry of this.#pendingGrants.values()) next = Math.min(next, expiry);
          this.#leaseCheckAt = next;
        }
      }
      value = read();
    } catch (error) {
      throw mapSqliteError(error, { operation, failedAtCommit: false });
    }
    await this.#writer.barrier();
    const failure = this.#writer.failure;
    if (failure !== undefined) throw this.#poisoned(failure);
    return value;
  }

  /**
   * The periodic sweep: one round of the writer thread only when a lease in the table is due by this store's clock,
   * so an idle store neither wakes its writer thread nor datasyncs its `-wal` every period.
   */
  async #sweepLeases(): Promise<void> {
    const earliest = (this.#statements.selectEarliestExpiry.get() as { at: number | null }).at;
    if (earliest !== null && earliest <= this.#clock()) await this.#expireLeases();
  }

  /** Deletes expired leases and their keys (one round of the writer thread). */
  async #expireLeases(): Promise<void> {
    await this.#submitWrite("expireLeases", { kind: "expire" });
  }

  /** A direct (non-txn) write: lease grant, renewal, revocation, expiry. Resolves with its value once durable. */
  async #submitWrite(operation: string, write: WriterOperation, now = this.#clock()): Promise<unknown> {
    const settlement = await this.#writer.submit(write, now);
    const failure = settlementFailure(settlement);
    if (failure !== undefined) throw this.#roundError(operation, settlement, failure, false);
    const outcome = settlement.outcome;
    if (outcome?.error !== undefined) throw this.#outcomeError(operation, outcome.error);
    return outcome?.value;
  }

  /** Sends the queued txns to the writer thread as one operation; a txn whose caller aborted first is dropped. */
  #sendQueuedTxns(): void {
    this.#sendQueued = false;
    const queued = this.#queuedTxns.filter((item) => {
      if (item.signal?.aborted !== true) return true;
      item.reject(MetadataStoreErrors.cancelled(item.signal));
      return false;
    });
    this.#queuedTxns = [];
    // One operation per gated txn (with the ungated ones after it): the writer thread commits the operations whose
    // gates opened without waiting for a later one's.
    let start = 0;
    for (let end = 1; end <= queued.length; end++) {
      if (end < queued.length && queued[end]?.request.after?.accelerations?.shared === undefined) continue;
      this.#submitTxns(queued.slice(start, end));
      start = end;
    }
  }

  #submitTxns(queued: readonly QueuedTxn[]): void {
    if (queued.length === 0) return;
    void this.#writer
      .submit({ kind: "txns", txns: queued.map((item) => writerTxn(item.request)) }, this.#clock())
      .then((settlement) => {
        const failure = settlementFailure(settlement);
        const outcomes = (settlement.outcome?.value ?? []) as readonly WriterOutcome[];
        queued.forEach((item, index) => {
          const outcome = outcomes[index];
          const raw = outcome?.value as RawTxnResult | undefined;
          if (failure !== undefined) {
            // A lost thread may have committed the round before it died: any txn with writes is then unknown.
            const wrote =
              item.request.writes.length > 0 &&
              (settlement.lost !== undefined || (settlement.bodyDone && raw !== undefined && raw.succeeded));
            item.reject(this.#roundError("txn", settlement, failure, wrote));
          } else if (outcome === undefined || outcome.error !== undefined || raw === undefined) {
            item.reject(
              this.#outcomeError(
                "txn",
                outcome?.error ?? { kind: "error", message: "the writer thread answered too few txns" },
              ),
            );
          } else {
            try {
              item.resolve(toTxnResult(raw));
            } catch (error) {
              item.reject(error);
            }
          }
        });
      });
  }

  /** The error of an operation whose round failed as a whole; `wrote`: it would have changed something. */
  #roundError(operation: string, settlement: RoundSettlement, failure: WriterFailure, wrote: boolean): NereusError {
    if (settlement.refused !== undefined) return this.#poisoned(this.#writer.failure ?? failure);
    if (settlement.lost !== undefined) {
      const error = new Error(failure.kind === "lost" ? failure.message : "the SQLite writer thread was lost");
      return wrote || operation !== "txn"
        ? new MetadataAmbiguousError(`sqlite ${operation}: ${error.message}, the outcome is unknown`, error)
        : MetadataStoreErrors.unavailable(`sqlite ${operation}: ${error.message}`, error, false);
    }
    if (settlement.syncError !== undefined)
      return syncFailure(operation, this.#failureCause(failure), operation === "txn" ? wrote : true);
    return mapSqliteError(toError(failure), { operation, failedAtCommit: operation === "txn" && wrote });
  }

  #outcomeError(operation: string, failure: WriterFailure): NereusError {
    if (failure.kind === "lease-not-found") return MetadataStoreErrors.leaseNotFound(failure.leaseId);
    if (failure.kind === "invariant") return MetadataStoreErrors.invariant(failure.message);
    if (failure.kind === "gate") return durabilityGateFailed(`sqlite ${operation}`, new Error(failure.message));
    return mapSqliteError(toError(failure), { operation, failedAtCommit: false });
  }

  /** Refusal of any work after the writer thread failed (a failed datasync, or the thread died). */
  #poisoned(failure: WriterFailure): NereusError {
    const what = failure.kind === "lost" ? "the writer thread was lost" : "syncing the WAL failed earlier";
    return MetadataStoreErrors.unavailable(
      `sqlite metadata store: ${what}; reopen the store`,
      this.#failureCause(failure),
      false,
    );
  }

  /** The error to name as the cause of a failed sync (the test seam's own error when the seam failed it). */
  #failureCause(failure: WriterFailure): unknown {
    if (failure.kind === "error" && failure.code === "ESEAM" && this.#writer.seamError !== undefined)
      return this.#writer.seamError;
    return toError(failure);
  }
}

/** The error at the end of `error`'s cause chain. */
function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 8 && current instanceof Error && current.cause !== undefined; depth++)
    current = current.cause;
  return current;
}

/** What the writer thread gets of a txn: the request without its gate's promise (the shared words go along). */
function writerTxn(request: TxnRequest): WriterTxn {
  if (request.after === undefined) return request;
  const { after, ...rest } = request;
  const shared = after.accelerations?.shared;
  return shared === undefined ? rest : { ...rest, gate: shared };
}

/** The failure that ended an operation's whole round, if any. */
function settlementFailure(settlement: RoundSettlement): WriterFailure | undefined {
  return settlement.refused ?? settlement.lost ?? settlement.commitError ?? settlement.syncError;
}

/** An Error carrying the description's message and SQLite code (what mapSqliteError reads). */
function toError(failure: WriterFailure): Error {
  const message = "message" in failure ? failure.message : `lease ${failure.leaseId} not found`;
  const error = new Error(message);
  if (failure.kind === "error" && failure.name !== undefined) error.name = failure.name;
  if (failure.kind === "error" && failure.code !== undefined) Object.assign(error, { code: failure.code });
  return error;
}

function toTxnResult(raw: RawTxnResult): TxnResult {
  if (raw.succeeded) return { succeeded: true, revision: raw.revision };
  const current = new Map<string, KeyValue>();
  for (const row of raw.current) current.set(row.key, toKeyValue(row));
  return { succeeded: false, current };
}

/** A failed WAL sync: writes it covered may or may not have survived (ambiguous); a read simply failed. */
function syncFailure(operation: string, error: unknown, wrote: boolean): NereusError {
  if (wrote)
    return new MetadataAmbiguousError(
      `sqlite ${operation}: syncing the WAL failed, the outcome is unknown: ${String(error)}`,
      error,
    );
  return MetadataStoreErrors.unavailable(`sqlite ${operation}: syncing the WAL failed: ${String(error)}`, error, false);
}

/** The read statements of the event loop's connection (the writer thread prepares its own). */
function prepare(db: Database.Database) {
  const columns = "key, value, mod_revision, create_revision";
  return {
    selectKey: db.prepare(`SELECT ${columns} FROM kv WHERE key = ?`),
    scanFrom: db.prepare(`SELECT ${columns} FROM kv WHERE key >= ? ORDER BY key LIMIT ?`),
    scanAfter: db.prepare(`SELECT ${columns} FROM kv WHERE key > ? ORDER BY key LIMIT ?`),
    scanFromBelow: db.prepare(`SELECT ${columns} FROM kv WHERE key >= ? AND key < ? ORDER BY key LIMIT ?`),
    scanAfterBelow: db.prepare(`SELECT ${columns} FROM kv WHERE key > ? AND key < ? ORDER BY key LIMIT ?`),
    selectEarliestExpiry: db.prepare("SELECT MIN(expires_at) AS at FROM leases"),
  };
}

function toKeyValue(row: KvRow): KeyValue {
  if (!Number.isSafeInteger(row.mod_revision) || !Number.isSafeInteger(row.create_revision) || row.mod_revision <= 0) {
    throw MetadataStoreErrors.invariant(`stored key ${row.key} has invalid revisions`);
  }
  return {
    key: row.key,
    value: new Uint8Array(row.value),
    modRevision: row.mod_revision,
    createRevision: row.create_revision,
  };
}
