// In-memory reference MetadataStore: exact SPI v1 semantics (one global revision counter, atomic multi-key txns,
// prefix scans in UTF-8 byte order, leases on an injectable clock, watch hints) plus fault injection and call
// counters for tests. Leases expire lazily: the first call at or after the expiry deletes the lease's keys.
// Not a production store: no persistence, no size limits beyond etcd's per-txn operation cap.
// Buffers: values are copied on write and every read returns fresh copies.
import { bytesEqual } from "../bytes/compare-bytes.js";
import { ErrorCode } from "../errors/error-code.js";
import { MetadataAmbiguousError } from "../errors/metadata-ambiguous-error.js";
import { NereusError } from "../errors/nereus-error.js";
import { awaitDurabilityGate } from "../spi/durability-gate.js";
import { checkMetadataRequest } from "../spi/check-metadata-request.js";
import { MetadataStoreErrors } from "../spi/metadata-store-errors.js";
import { PrefixWatchers } from "../spi/prefix-watchers.js";
import {
  METADATA_STORE_SPI_VERSION,
  isValueCompare,
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
} from "../spi/metadata-store.js";
import { MetadataFaults, type MetadataFaultOp } from "./metadata-faults.js";
import { MetadataStoreStats } from "./metadata-store-stats.js";

/** etcd's default `--max-txn-ops`: each of compares, writes and `readOnFailure` may hold at most this many entries. */

export interface InMemoryMetadataStoreOptions {
  /** Milliseconds clock used for lease expiry (default `Date.now`). Tests advance it to expire leases. */
  readonly clock?: () => number;
  /** What the store declares as `accelerations.orderedTxns` (default true; false makes the append pipeline wait for each CAS). */
  readonly orderedTxns?: boolean;
}

interface Entry {
  readonly key: string;
  readonly keyBytes: Buffer;
  value: Uint8Array;
  modRevision: number;
  createRevision: number;
  leaseId: string | undefined;
}

interface LeaseState {
  readonly ttlMs: number;
  expiresAt: number;
  readonly keys: Set<string>;
}

/**
 * The reference `MetadataStore`. Invariants (the SPI's, exactly): revisions start at 0 and every txn that changes
 * something takes the next one for all its writes; compares and `readOnFailure` see the same state; deleting and
 * re-creating a key yields a higher `modRevision`; scans are in UTF-8 byte order. Calls apply synchronously at the
 * moment they are made, so concurrently started calls are linearized in call order.
 * Fault injection: `faults`; call counters: `stats`; state for assertions: `snapshot()`.
 */
export class InMemoryMetadataStore implements MetadataStore, AsyncDisposable {
  readonly spiVersion = METADATA_STORE_SPI_VERSION;
  /** Calls apply when made (a gated txn once its gate opened); no fault mode applies a txn after its error. */
  readonly accelerations: MetadataStoreAccelerations;
  /** Armed faults; see `MetadataFaultMode` for what each mode does. */
  readonly faults = new MetadataFaults();
  /** Counters of calls that reached the store. */
  readonly stats = new MetadataStoreStats();

  readonly #clock: () => number;
  readonly #entries = new Map<string, Entry>();
  /** Entries sorted by UTF-8 key bytes. */
  readonly #sorted: Entry[] = [];
  readonly #leases = new Map<string, LeaseState>();
  readonly #watchers = new PrefixWatchers();
  /** Rejecters of calls hung by a fault; `close()` rejects them. */
  readonly #hung = new Set<(error: Error) => void>();
  #revision = 0;
  #nextLeaseId = 1;
  #closed = false;

  constructor(options: InMemoryMetadataStoreOptions = {}) {
    this.#clock = options.clock ?? Date.now;
    this.accelerations = { orderedTxns: options.orderedTxns ?? true };
  }

  async get(key: string, options: OperationOptions = {}): Promise<KeyValue | undefined> {
    this.#enter(options.signal);
    checkMetadataRequest.key(key);
    this.stats.gets += 1;
    return this.#run("get", key, options.signal, () => {
      const entry = this.#entries.get(key);
      return entry === undefined ? undefined : toKeyValue(entry);
    });
  }

  async getMany(keys: readonly string[], options: OperationOptions = {}): Promise<ReadonlyMap<string, KeyValue>> {
    this.#enter(options.signal);
    checkMetadataRequest.keys(keys);
    this.stats.getManys += 1;
    return this.#run("getMany", keys, options.signal, () => this.#read(keys));
  }

  async scan(prefix: string, options: ScanOptions): Promise<ScanPage> {
    this.#enter(options.signal);
    checkMetadataRequest.scan(prefix, options);
    this.stats.scans += 1;
    return this.#run("scan", prefix, options.signal, () => this.#scan(prefix, options));
  }

  async txn(request: TxnRequest, options: OperationOptions = {}): Promise<TxnResult> {
    this.#enter(options.signal);
    checkMetadataRequest.txn(request);
    if (request.after !== undefined) {
      await awaitDurabilityGate(request.after, "txn");
      this.#enter(options.signal);
    }
    this.stats.txns += 1;
    return this.#run("txn", request, options.signal, () => this.#apply(request));
  }

  async grantLease(ttlMs: number, options: OperationOptions = {}): Promise<Lease> {
    this.#enter(options.signal);
    checkMetadataRequest.ttl(ttlMs);
    this.stats.roundTrips += 1;
    this.#expireLeases();
    const id = String(this.#nextLeaseId++);
    this.#leases.set(id, { ttlMs, expiresAt: this.#clock() + ttlMs, keys: new Set() });
    return {
      id,
      keepAlive: async (keepAliveOptions: OperationOptions = {}) => {
        this.#enter(keepAliveOptions.signal);
        this.stats.roundTrips += 1;
        this.#expireLeases();
        const lease = this.#leases.get(id);
        if (lease === undefined) throw MetadataStoreErrors.leaseNotFound(id);
        lease.expiresAt = this.#clock() + lease.ttlMs;
      },
      revoke: async (revokeOptions: OperationOptions = {}) => {
        this.#enter(revokeOptions.signal);
        this.stats.roundTrips += 1;
        this.#expireLeases();
        this.#dropLease(id);
      },
    };
  }

  async watch(prefix: string, onEvent: (event: WatchEvent) => void): Promise<WatchHandle & AsyncDisposable> {
    this.#enter(undefined);
    checkMetadataRequest.prefix(prefix);
    this.stats.roundTrips += 1;
    return this.#watchers.add(prefix, onEvent);
  }

  /** Idempotent. Rejects calls hung by a fault with `STORAGE_CLOSED` and ends every watch. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watchers.clear();
    const hung = [...this.#hung];
    this.#hung.clear();
    for (const reject of hung) reject(MetadataStoreErrors.closed());
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * The current contents (after lease expiry at the current clock), in UTF-8 key order, as fresh copies.
   * For test assertions; works after `close()` too. Does not count as a call.
   */
  snapshot(): Map<string, KeyValue> {
    this.#expireLeases();
    return new Map(this.#sorted.map((entry) => [entry.key, toKeyValue(entry)]));
  }

  #enter(signal: AbortSignal | undefined): void {
    if (this.#closed) throw MetadataStoreErrors.closed();
    if (signal?.aborted === true) throw MetadataStoreErrors.cancelled(signal);
  }

  /** Counts the round trip, applies the armed fault (if any) and otherwise runs `execute`. */
  async #run<T>(op: MetadataFaultOp, request: unknown, signal: AbortSignal | undefined, execute: () => T): Promise<T> {
    this.stats.roundTrips += 1;
    const fault = this.faults.take(op, request);
    if (fault === "fail-before-apply") {
      throw new NereusError(ErrorCode.METADATA_UNAVAILABLE, `injected fault: ${op} failed before it applied`, {
        details: { ambiguous: false, injected: true },
      });
    }
    if (fault === "hang-until-aborted") return this.#hang(op, signal);
    this.#expireLeases();
    const result = execute();
    if (fault === "apply-then-lose-response") {
      if (op === "txn") throw new MetadataAmbiguousError("injected fault: txn applied but its response was lost");
      throw new NereusError(ErrorCode.METADATA_UNAVAILABLE, `injected fault: ${op} response was lost`, {
        details: { ambiguous: false, injected: true },
      });
    }
    return result;
  }

  #hang<T>(op: MetadataFaultOp, signal: AbortSignal | undefined): Promise<T> {
    return new Promise<T>((_resolve, reject) => {
      const onAbort = (): void => {
        this.#hung.delete(rejectHung);
        const cancelled = new NereusError(ErrorCode.CANCELLED, `${op} cancelled while in flight`, {
          cause: signal?.reason,
        });
        reject(op === "txn" ? new MetadataAmbiguousError("txn cancelled while in flight", cancelled) : cancelled);
      };
      const rejectHung = (error: Error): void => {
        signal?.removeEventListener("abort", onAbort);
        reject(error);
      };
      this.#hung.add(rejectHung);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  #read(keys: readonly string[]): Map<string, KeyValue> {
    const found = new Map<string, KeyValue>();
    for (const key of keys) {
      const entry = this.#entries.get(key);
      if (entry !== undefined) found.set(key, toKeyValue(entry));
    }
    return found;
  }

  #scan(prefix: string, options: ScanOptions): ScanPage {
    let index = lowerBound(this.#sorted, Buffer.from(prefix, "utf8"), false);
    if (options.startAt !== undefined) {
      index = Math.max(index, lowerBound(this.#sorted, Buffer.from(options.startAt, "utf8"), false));
    }
    if (options.startAfter !== undefined) {
      index = Math.max(index, lowerBound(this.#sorted, Buffer.from(options.startAfter, "utf8"), true));
    }
    const items: KeyValue[] = [];
    for (; index < this.#sorted.length; index++) {
      const entry = this.#sorted[index];
      if (entry === undefined || !entry.key.startsWith(prefix)) break;
      if (items.length === options.limit) return { items, more: true };
      items.push(toKeyValue(entry));
    }
    return { items, more: false };
  }

  #apply(request: TxnRequest): TxnResult {
    for (const compare of request.compares) {
      const entry = this.#entries.get(compare.key);
      const holds = isValueCompare(compare)
        ? entry !== undefined && bytesEqual(entry.value, compare.value)
        : (entry?.modRevision ?? 0) === compare.modRevision;
      if (!holds) {
        return { succeeded: false, current: this.#read(request.readOnFailure ?? []) };
      }
    }
    for (const write of request.writes) {
      if (write.type === "put" && write.leaseId !== undefined && !this.#leases.has(write.leaseId)) {
        throw MetadataStoreErrors.leaseNotFound(write.leaseId);
      }
    }
    const revision = this.#revision + 1;
    const events: WatchEvent[] = [];
    for (const write of request.writes) {
      if (write.type === "put") {
        this.#put(write.key, write.value, write.leaseId, revision);
        events.push({ type: "put", key: write.key, modRevision: revision });
      } else if (this.#delete(write.key)) {
        events.push({ type: "delete", key: write.key, modRevision: revision });
      }
    }
    if (events.length > 0) {
      this.#revision = revision;
      this.#watchers.notify(events);
    }
    return { succeeded: true, revision: this.#revision };
  }

  #put(key: string, value: Uint8Array, leaseId: string | undefined, revision: number): void {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      entry = {
        key,
        keyBytes: Buffer.from(key, "utf8"),
        value,
        modRevision: revision,
        createRevision: revision,
        leaseId,
      };
      this.#entries.set(key, entry);
      this.#sorted.splice(lowerBound(this.#sorted, entry.keyBytes, false), 0, entry);
    } else if (entry.leaseId !== undefined) {
      this.#leases.get(entry.leaseId)?.keys.delete(key);
    }
    entry.value = Uint8Array.from(value);
    entry.modRevision = revision;
    entry.leaseId = leaseId;
    if (leaseId !== undefined) this.#leases.get(leaseId)?.keys.add(key);
  }

  #delete(key: string): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    this.#sorted.splice(lowerBound(this.#sorted, entry.keyBytes, false), 1);
    if (entry.leaseId !== undefined) this.#leases.get(entry.leaseId)?.keys.delete(key);
    return true;
  }

  /** Deletes every expired lease with its keys (one revision per lease, like etcd's lease revocation). */
  #expireLeases(): void {
    const now = this.#clock();
    for (const [id, lease] of this.#leases) {
      if (lease.expiresAt <= now) this.#dropLease(id);
    }
  }

  #dropLease(id: string): void {
    const lease = this.#leases.get(id);
    if (lease === undefined) return;
    this.#leases.delete(id);
    if (lease.keys.size === 0) return;
    const revision = this.#revision + 1;
    const events: WatchEvent[] = [];
    for (const key of [...lease.keys]) {
      if (this.#delete(key)) events.push({ type: "delete", key, modRevision: revision });
    }
    this.#revision = revision;
    this.#watchers.notify(events);
  }
}

function toKeyValue(entry: Entry): KeyValue {
  return {
    key: entry.key,
    value: Uint8Array.from(entry.value),
    modRevision: entry.modRevision,
    createRevision: entry.createRevision,
  };
}

/** Index of the first entry whose key bytes are >= `bytes` (or > `bytes` when `exclusive`). */
function lowerBound(sorted: readonly Entry[], bytes: Buffer, exclusive: boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = Buffer.compare((sorted[middle] as Entry).keyBytes, bytes);
    if (order < 0 || (exclusive && order === 0)) low = middle + 1;
    else high = middle;
  }
  return low;
}
