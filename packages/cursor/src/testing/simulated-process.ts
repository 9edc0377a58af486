// One simulated broker process over shared stores, for fault tests: every durable step it takes (a metadata
// transaction, a snapshot object put, a stream trim) is counted, and one chosen step can lose its response
// (core's FaultInjectingMetadataStore applies the transaction and throws MetadataAmbiguousError) or crash the
// process just before or just after it applied. A crashed process fails every later call at once, as a dead
// broker would never send it; the data stays for the next process to open.
import {
  ErrorCode,
  type KeyValue,
  type Lease,
  type MetadataStore,
  NereusError,
  type ObjectInfo,
  type ObjectIoOptions,
  type ObjectListPage,
  type ObjectStore,
  type OperationOptions,
  type PutOptions,
  type ScanOptions,
  type ScanPage,
  type TxnRequest,
  type TxnResult,
  type WatchEvent,
  type WatchHandle,
} from "@nereus/core";
import { FaultInjectingMetadataStore } from "@nereus/core/testing";
import type { CursorStreamAccess } from "../store/cursor-store-options.js";

/** A durable step of a cursor operation. */
export type DurableStep = "metadata txn" | "object put" | "object delete" | "stream trim";

/**
 * What happens at the armed step: `lose-response` (metadata transactions only) applies it and loses the answer;
 * `crash-before` kills the process instead of sending it; `crash-after` applies it, then kills the process.
 */
export type StepFault = "lose-response" | "crash-before" | "crash-after";

/** The shared stores a process runs over (never closed by it). */
export interface SharedStores {
  readonly metadata: MetadataStore;
  readonly objects: ObjectStore;
  readonly streams: CursorStreamAccess;
}

/** Stores of one process with step counting, one armed fault and a kill switch. */
export class SimulatedProcess {
  readonly metadata: MetadataStore;
  readonly objects: ObjectStore;
  readonly streams: CursorStreamAccess;
  /** The durable steps taken since the last `countFromHere`, in order. */
  readonly steps: DurableStep[] = [];
  readonly #faulty: FaultInjectingMetadataStore;
  #armed: { readonly step: number; readonly fault: StepFault } | undefined;
  #crashed = false;

  constructor(shared: SharedStores) {
    this.#faulty = new FaultInjectingMetadataStore(shared.metadata);
    this.metadata = new ProcessMetadataStore(this, this.#faulty);
    this.objects = new ProcessObjectStore(this, shared.objects);
    const inner = shared.streams;
    this.streams = {
      getHead: (streamId, options) => this.read(() => inner.getHead(streamId, options)),
      trim: (streamId, offset, options) => this.durable("stream trim", () => inner.trim(streamId, offset, options)),
    };
  }

  /** True once the armed crash happened. */
  get crashed(): boolean {
    return this.#crashed;
  }

  /** Starts a new step count (and disarms). */
  countFromHere(): void {
    this.steps.length = 0;
    this.#armed = undefined;
  }

  /** Arms `fault` at durable step `step` (1-based, counted from the last `countFromHere`). */
  arm(step: number, fault: StepFault): void {
    this.#armed = { step, fault };
  }

  /** Runs a read unless the process is dead. */
  async read<T>(call: () => Promise<T>): Promise<T> {
    this.#checkAlive();
    return call();
  }

  /** Runs durable step `kind`, applying the armed fault when this is its step. */
  async durable<T>(kind: DurableStep, call: () => Promise<T>): Promise<T> {
    this.#checkAlive();
    this.steps.push(kind);
    const armed = this.#armed;
    if (armed === undefined || armed.step !== this.steps.length) return call();
    this.#armed = undefined;
    switch (armed.fault) {
      case "lose-response":
        if (kind !== "metadata txn") throw new TypeError(`a lost response is injected on metadata txns, not a ${kind}`);
        this.#faulty.faults.add({ op: "txn", mode: "apply-then-lose-response" });
        return call();
      case "crash-before":
        this.#crashed = true;
        throw this.#deadError();
      case "crash-after":
        await call().catch(() => undefined);
        this.#crashed = true;
        throw this.#deadError();
    }
  }

  #checkAlive(): void {
    if (this.#crashed) throw this.#deadError();
  }

  #deadError(): NereusError {
    return new NereusError(ErrorCode.STORAGE_CLOSED, "the simulated process crashed", { retryable: false });
  }
}

/** The metadata store a simulated process sees. */
class ProcessMetadataStore implements MetadataStore {
  readonly spiVersion: MetadataStore["spiVersion"];
  readonly accelerations: MetadataStore["accelerations"];
  readonly #process: SimulatedProcess;
  readonly #inner: MetadataStore;

  constructor(process: SimulatedProcess, inner: MetadataStore) {
    this.#process = process;
    this.#inner = inner;
    this.spiVersion = inner.spiVersion;
    this.accelerations = inner.accelerations;
  }

  get(key: string, options?: OperationOptions): Promise<KeyValue | undefined> {
    return this.#process.read(() => this.#inner.get(key, options));
  }

  getMany(keys: readonly string[], options?: OperationOptions): Promise<ReadonlyMap<string, KeyValue>> {
    return this.#process.read(() => this.#inner.getMany(keys, options));
  }

  scan(prefix: string, options: ScanOptions): Promise<ScanPage> {
    return this.#process.read(() => this.#inner.scan(prefix, options));
  }

  txn(request: TxnRequest, options?: OperationOptions): Promise<TxnResult> {
    return this.#process.durable("metadata txn", () => this.#inner.txn(request, options));
  }

  grantLease(ttlMs: number, options?: OperationOptions): Promise<Lease> {
    return this.#process.read(() => this.#inner.grantLease(ttlMs, options));
  }

  watch(prefix: string, onEvent: (event: WatchEvent) => void): Promise<WatchHandle> {
    return this.#process.read(() => this.#inner.watch(prefix, onEvent));
  }

  /** The shared store stays open. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The object store a simulated process sees. */
class ProcessObjectStore implements ObjectStore {
  readonly spiVersion: ObjectStore["spiVersion"];
  readonly #process: SimulatedProcess;
  readonly #inner: ObjectStore;

  constructor(process: SimulatedProcess, inner: ObjectStore) {
    this.#process = process;
    this.#inner = inner;
    this.spiVersion = inner.spiVersion;
  }

  putIfAbsent(key: string, body: Uint8Array, options?: PutOptions): Promise<{ readonly created: boolean }> {
    return this.#process.durable("object put", () => this.#inner.putIfAbsent(key, body, options));
  }

  get(
    key: string,
    range?: { readonly offset: number; readonly length: number },
    options?: ObjectIoOptions,
  ): Promise<Uint8Array> {
    return this.#process.read(() => this.#inner.get(key, range, options));
  }

  head(key: string, options?: ObjectIoOptions): Promise<ObjectInfo | undefined> {
    return this.#process.read(() => this.#inner.head(key, options));
  }

  list(
    prefix: string,
    options?: ObjectIoOptions & { readonly continuationToken?: string; readonly limit?: number },
  ): Promise<ObjectListPage> {
    return this.#process.read(() => this.#inner.list(prefix, options));
  }

  deleteMany(keys: readonly string[], options?: ObjectIoOptions): Promise<void> {
    return this.#process.durable("object delete", () => this.#inner.deleteMany(keys, options));
  }

  /** The shared store stays open. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
