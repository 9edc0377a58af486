// Test-only MetadataStore wrapper that injects response loss into a real store (etcd, SQLite, in-memory): a matching
// transaction is applied by the real store and then its response is "lost" (the caller sees MetadataAmbiguousError),
// exactly what a dropped connection after commit looks like. Everything else passes through; counts transactions.
import {
  MetadataAmbiguousError,
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

export interface TxnFaultRule {
  /** Which transactions the rule applies to. */
  readonly when: (request: TxnRequest) => boolean;
  /** How many matching transactions lose their response (default 1). */
  times?: number;
}

/**
 * Delegates to `inner`; `loseResponseOf` arms a fault. Never closes `inner` (the owner does). Declares the inner
 * store's `accelerations.orderedTxns`: every txn reaches the inner store in call order, and a lost response is one
 * that applied.
 */
export class FaultInjectingMetadataStore implements MetadataStore {
  readonly spiVersion = 1 as const;
  readonly accelerations: MetadataStoreAccelerations;
  readonly inner: MetadataStore;
  txns = 0;
  lostResponses = 0;
  readonly #rules: TxnFaultRule[] = [];

  constructor(inner: MetadataStore) {
    this.inner = inner;
    this.accelerations = { orderedTxns: inner.accelerations?.orderedTxns === true };
  }

  /** The next `times` transactions matching `when` apply, then throw MetadataAmbiguousError. */
  loseResponseOf(when: (request: TxnRequest) => boolean, times = 1): void {
    this.#rules.push({ when, times });
  }

  get(key: string, options?: OperationOptions): Promise<KeyValue | undefined> {
    return this.inner.get(key, options);
  }

  getMany(keys: readonly string[], options?: OperationOptions): Promise<ReadonlyMap<string, KeyValue>> {
    return this.inner.getMany(keys, options);
  }

  scan(prefix: string, options: ScanOptions): Promise<ScanPage> {
    return this.inner.scan(prefix, options);
  }

  async txn(request: TxnRequest, options?: OperationOptions): Promise<TxnResult> {
    this.txns += 1;
    const index = this.#rules.findIndex((rule) => rule.when(request));
    const result = await this.inner.txn(request, options);
    if (index >= 0) {
      const rule = this.#rules[index] as TxnFaultRule;
      rule.times = (rule.times ?? 1) - 1;
      if (rule.times <= 0) this.#rules.splice(index, 1);
      this.lostResponses += 1;
      throw new MetadataAmbiguousError(
        `injected fault: the transaction applied (succeeded: ${String(result.succeeded)}) but its response was lost`,
      );
    }
    return result;
  }

  grantLease(ttlMs: number, options?: OperationOptions): Promise<Lease> {
    return this.inner.grantLease(ttlMs, options);
  }

  watch(prefix: string, onEvent: (event: WatchEvent) => void): Promise<WatchHandle> {
    return this.inner.watch(prefix, onEvent);
  }

  async close(): Promise<void> {
    // The wrapped store belongs to the test stack.
  }
}
