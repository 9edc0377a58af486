// A MetadataStore decorator that adds the in-memory store's fault rules to ANY store (real etcd, SQLite), so
// fault-driven tests such as the append-history property run unchanged against real services. It never changes
// what the wrapped store stores; it only fails calls before they are sent or drops responses after they applied.
import { ErrorCode } from "../errors/error-code.js";
import { MetadataAmbiguousError } from "../errors/metadata-ambiguous-error.js";
import { NereusError } from "../errors/nereus-error.js";
import type {
  KeyValue,
  Lease,
  MetadataStore,
  MetadataStoreAccelerations,
  OperationOptions,
  ScanOptions,
  ScanPage,
  TxnRequest,
  TxnResult,
  WatchEvent,
  WatchHandle,
} from "../spi/metadata-store.js";
import { MetadataFaults, type MetadataFaultMode, type MetadataFaultOp } from "./metadata-faults.js";

/**
 * Wraps `inner` with `faults` (same rules and modes as `InMemoryMetadataStore.faults`):
 * - `fail-before-apply`: throws non-ambiguous `METADATA_UNAVAILABLE`; the inner store is not called.
 * - `apply-then-lose-response`: calls the inner store, discards its answer, then throws (ambiguous for txns).
 * - `hang-until-aborted`: the inner store is not called; the call rejects when its signal aborts.
 * Closing the wrapper closes the inner store. It declares the inner store's `accelerations.orderedTxns`: it fails, hangs or
 * drops the answer of some calls but forwards the others in the order they were made, and a txn it reports
 * ambiguous has either applied already or was never sent, so the inner store's ordering guarantee still holds.
 */
export class FaultInjectingMetadataStore implements MetadataStore {
  readonly spiVersion: MetadataStore["spiVersion"];
  readonly accelerations: MetadataStoreAccelerations;
  readonly faults = new MetadataFaults();
  readonly #inner: MetadataStore;

  constructor(inner: MetadataStore) {
    this.#inner = inner;
    this.spiVersion = inner.spiVersion;
    this.accelerations = { orderedTxns: inner.accelerations?.orderedTxns === true };
  }

  get(key: string, options?: OperationOptions): Promise<KeyValue | undefined> {
    return this.#call("get", key, options, () => this.#inner.get(key, options));
  }

  getMany(keys: readonly string[], options?: OperationOptions): Promise<ReadonlyMap<string, KeyValue>> {
    return this.#call("getMany", keys, options, () => this.#inner.getMany(keys, options));
  }

  scan(prefix: string, options: ScanOptions): Promise<ScanPage> {
    return this.#call("scan", prefix, options, () => this.#inner.scan(prefix, options));
  }

  txn(request: TxnRequest, options?: OperationOptions): Promise<TxnResult> {
    return this.#call("txn", request, options, () => this.#inner.txn(request, options));
  }

  grantLease(ttlMs: number, options?: OperationOptions): Promise<Lease> {
    return this.#inner.grantLease(ttlMs, options);
  }

  watch(prefix: string, onEvent: (event: WatchEvent) => void): Promise<WatchHandle> {
    return this.#inner.watch(prefix, onEvent);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  async #call<T>(
    op: MetadataFaultOp,
    request: unknown,
    options: OperationOptions | undefined,
    send: () => Promise<T>,
  ): Promise<T> {
    const mode: MetadataFaultMode | undefined = this.faults.take(op, request);
    if (mode === undefined) return send();
    const what = `injected ${mode} on ${op}`;
    switch (mode) {
      case "fail-before-apply":
        throw new NereusError(ErrorCode.METADATA_UNAVAILABLE, what, {
          retryable: true,
          details: { ambiguous: false, injected: true },
        });
      case "apply-then-lose-response":
        await send().catch(() => undefined);
        if (op === "txn") throw new MetadataAmbiguousError(what);
        throw new NereusError(ErrorCode.METADATA_UNAVAILABLE, what, {
          retryable: true,
          details: { ambiguous: false, injected: true },
        });
      case "hang-until-aborted":
        return new Promise<T>((_resolve, reject) => {
          const signal = options?.signal;
          const abort = (): void =>
            reject(
              op === "txn"
                ? new MetadataAmbiguousError(`${what}: aborted`)
                : new NereusError(ErrorCode.CANCELLED, `${what}: aborted`),
            );
          if (signal === undefined) return;
          if (signal.aborted) abort();
          else signal.addEventListener("abort", abort, { once: true });
        });
    }
  }
}
