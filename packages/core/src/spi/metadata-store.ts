// MetadataStore SPI (version 1): a linearizable, revisioned key-value store with multi-key transactions.
// Modelled on etcd v3 so that the etcd implementation is a thin mapping; SQLite and in-memory stores emulate it.
// Keys are UTF-8 strings built by the key helpers (safe components only); values are opaque bytes owned by the
// caller (stores copy on write and return fresh arrays on read). What a store may offer beyond the minimal contract
// sits in one optional object, `MetadataStore.accelerations` (docs/architecture.md §2.1).
import type { DurabilityGate } from "./durability-gate.js";

/** Version of this SPI. Implementations expose it so mismatches fail at wiring time. */
export const METADATA_STORE_SPI_VERSION = 1;

/** One stored key with its revisions. */
export interface KeyValue {
  readonly key: string;
  readonly value: Uint8Array;
  /** Store-wide revision of the last write of this key; strictly increasing across the store; never reused. */
  readonly modRevision: number;
  /** Store-wide revision at which this incarnation of the key was created. */
  readonly createRevision: number;
}

/**
 * A condition of a transaction: the key's current `modRevision` must equal `modRevision`.
 * `modRevision: 0` means "the key is absent" (put-if-absent).
 */
export interface RevisionCompare {
  readonly key: string;
  readonly modRevision: number;
}

/**
 * A condition of a transaction: the key's current value must be exactly `value` (byte equality; an absent key
 * never matches). Stores that declare {@link MetadataStoreAccelerations.orderedTxns} use it to chain a txn behind one still in
 * flight: the value it will write is known before its revision is.
 */
export interface ValueCompare {
  readonly key: string;
  readonly value: Uint8Array;
}

/** One condition of a transaction. */
export type TxnCompare = RevisionCompare | ValueCompare;

/** True for a {@link ValueCompare}. */
export function isValueCompare(compare: TxnCompare): compare is ValueCompare {
  return (compare as Partial<ValueCompare>).value !== undefined;
}

export type WriteOp =
  | { readonly type: "put"; readonly key: string; readonly value: Uint8Array; readonly leaseId?: string }
  | { readonly type: "delete"; readonly key: string };

export interface TxnRequest {
  /** All must hold for `writes` to apply (atomically, at one new revision). */
  readonly compares: readonly TxnCompare[];
  readonly writes: readonly WriteOp[];
  /** Keys whose current values are returned when the compares fail (the etcd `Else: Get(k)` branch). */
  readonly readOnFailure?: readonly string[];
  /**
   * A physical write this transaction depends on (see `DurabilityGate`): the store applies the transaction only once
   * the gate opened, and when the gate fails it does not apply it and throws a `NereusError` with
   * `details.ambiguous === false`. Not part of what is stored.
   */
  readonly after?: DurabilityGate;
}

export type TxnResult =
  | { readonly succeeded: true; readonly revision: number }
  | {
      readonly succeeded: false;
      /** Current values of `readOnFailure` keys (absent keys are missing from the map). */
      readonly current: ReadonlyMap<string, KeyValue>;
    };

export interface ScanOptions {
  /** Exclusive lower bound: continue after this key (for pagination). */
  readonly startAfter?: string;
  /** Inclusive lower bound (ignored if `startAfter` is given and greater). */
  readonly startAt?: string;
  /** Maximum number of items (>= 1). */
  readonly limit: number;
  readonly signal?: AbortSignal;
}

export interface ScanPage {
  readonly items: readonly KeyValue[];
  /** True when more keys under the prefix follow the last item. */
  readonly more: boolean;
}

export interface OperationOptions {
  readonly signal?: AbortSignal;
}

export interface WatchEvent {
  readonly type: "put" | "delete";
  readonly key: string;
  readonly modRevision: number;
}

/** A watch subscription: events are hints only (may be dropped, duplicated or collapsed); never correctness. */
export interface WatchHandle {
  close(): Promise<void>;
}

/**
 * The metadata SPI. Invariants every implementation guarantees (checked by the conformance suite in
 * `@nereus/core/testing`):
 * - Linearizable: a `get`/`scan` issued after a write completed observes it (no stale reads).
 * - Every successful write transaction gets one new store-wide revision; all its writes carry that `modRevision`.
 * - `txn` is atomic: either every write applies or none does; compares are evaluated at the same revision.
 * - A deleted and recreated key gets a new, higher `modRevision` (no ABA through revisions).
 * - `scan` returns keys with the given prefix in ascending byte order of their UTF-8 encoding.
 * - Errors: an operation that provably did not apply throws `NereusError(METADATA_UNAVAILABLE)` with
 *   `details.ambiguous === false`; one whose response was lost (it may or may not have applied) throws
 *   `MetadataAmbiguousError`. Callers resolve ambiguity by reloading, never by guessing.
 */
export interface MetadataStore {
  readonly spiVersion: typeof METADATA_STORE_SPI_VERSION;
  /**
   * Optional accelerations (see {@link MetadataStoreAccelerations}); absent on stores that offer none (etcd). The
   * object is fixed for the store's lifetime. Callers must work without it.
   */
  readonly accelerations?: MetadataStoreAccelerations;
  get(key: string, options?: OperationOptions): Promise<KeyValue | undefined>;
  /** Reads several keys at one revision (absent keys are missing from the map). */
  getMany(keys: readonly string[], options?: OperationOptions): Promise<ReadonlyMap<string, KeyValue>>;
  scan(prefix: string, options: ScanOptions): Promise<ScanPage>;
  txn(request: TxnRequest, options?: OperationOptions): Promise<TxnResult>;
  /** Grants a lease that expires `ttlMs` after its last keep-alive; keys put with it are deleted on expiry. */
  grantLease(ttlMs: number, options?: OperationOptions): Promise<Lease>;
  /** Subscribes to changes under a prefix. Hints only. */
  watch(prefix: string, onEvent: (event: WatchEvent) => void): Promise<WatchHandle>;
  /** Idempotent. After close every operation fails with `STORAGE_CLOSED`. */
  close(): Promise<void>;
}

/**
 * What a `MetadataStore` may offer beyond the minimal contract. None changes what a txn does or what a read returns;
 * a caller must work (more slowly) against a store that offers none of it.
 */
export interface MetadataStoreAccelerations {
  /**
   * A guarantee of single-process stores. When true: txns submitted one after another without awaiting are applied
   * in submission order (each sees the ones before it), and a txn whose outcome was ambiguous can never apply later
   * (its outcome is fixed when the error is thrown; a reload tells which). The append pipeline then sends a group's
   * head CAS right behind the one ahead of it, compared on the head value that one writes (a {@link ValueCompare}),
   * instead of waiting for its answer. Stores without it (etcd: separate requests may apply in any order, and a lost
   * one may apply late) get each head CAS only after the one ahead answered.
   */
  readonly orderedTxns?: boolean;
}

export interface Lease {
  readonly id: string;
  keepAlive(options?: OperationOptions): Promise<void>;
  revoke(options?: OperationOptions): Promise<void>;
}
