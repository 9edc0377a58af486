// Test-only ObjectStore wrapper over a real store (S3, filesystem, in-memory): counts calls and bytes, and can make a
// put apply and then lose its response (the caller sees a retryable OBJECT_UPLOAD_FAILED with
// `details.mayHaveApplied === true`), so the retry meets the real store's create-only check (412 on S3); make a
// delete apply and lose its response, or fail before reaching the store; or be in an outage (`outage = true`):
// every call fails before reaching the store, retryable, until the outage ends.
import {
  ErrorCode,
  NereusError,
  OBJECT_STORE_SPI_VERSION,
  type ObjectInfo,
  type ObjectIoOptions,
  type ObjectListPage,
  type ObjectStore,
} from "@nereus/core";

export class CountingObjectStoreStats {
  puts = 0;
  putBytes = 0;
  gets = 0;
  getBytes = 0;
  heads = 0;
  lists = 0;
  /** Keys passed to `deleteMany` (a retried delete counts again). */
  deletedKeys = 0;
}

/** Delegates to `inner`. Never closes `inner` (the owner does). */
export class FaultInjectingObjectStore implements ObjectStore {
  readonly spiVersion = OBJECT_STORE_SPI_VERSION;
  readonly inner: ObjectStore;
  readonly stats = new CountingObjectStoreStats();
  #loseNextPuts = 0;
  #loseNextDeletes = 0;
  #failNextDeletes = 0;
  #paused: Promise<void> | undefined;
  /** Gets waiting for `pauseGets` to end. */
  pendingGets = 0;
  /** While true every call fails before reaching `inner` (OBJECT_UPLOAD_FAILED / OBJECT_READ_FAILED, retryable). */
  outage = false;
  /** Calls refused by the outage. */
  refused = 0;

  constructor(inner: ObjectStore) {
    this.inner = inner;
  }

  /** The next `times` puts apply and then lose their response. */
  loseNextPutResponses(times = 1): void {
    this.#loseNextPuts += times;
  }

  /**
   * Until the returned function is called, every get waits before reaching the store (a read in flight: it has
   * resolved its target and waits for the bytes).
   */
  pauseGets(): () => void {
    let resume: () => void = () => undefined;
    const paused = new Promise<void>((resolve) => {
      resume = resolve;
    });
    this.#paused = paused;
    return () => {
      if (this.#paused === paused) this.#paused = undefined;
      resume();
    };
  }

  /** The next `times` deletes apply and then lose their response (retryable OBJECT_UPLOAD_FAILED). */
  loseNextDeleteResponses(times = 1): void {
    this.#loseNextDeletes += times;
  }

  /** The next `times` deletes fail before reaching the store (retryable OBJECT_UPLOAD_FAILED). */
  failNextDeletes(times = 1): void {
    this.#failNextDeletes += times;
  }

  async putIfAbsent(key: string, body: Uint8Array, options?: ObjectIoOptions): Promise<{ readonly created: boolean }> {
    this.#refuse(ErrorCode.OBJECT_UPLOAD_FAILED, key);
    this.stats.puts += 1;
    this.stats.putBytes += body.byteLength;
    const result = await this.inner.putIfAbsent(key, body, options);
    if (this.#loseNextPuts > 0) {
      this.#loseNextPuts -= 1;
      throw new NereusError(
        ErrorCode.OBJECT_UPLOAD_FAILED,
        `injected fault: put of ${key} applied (created: ${String(result.created)}) but its response was lost`,
        {
          retryable: true,
          details: { key, mayHaveApplied: true, injected: true },
        },
      );
    }
    return result;
  }

  async get(
    key: string,
    range?: { readonly offset: number; readonly length: number },
    options?: ObjectIoOptions,
  ): Promise<Uint8Array> {
    this.#refuse(ErrorCode.OBJECT_READ_FAILED, key);
    const paused = this.#paused;
    if (paused !== undefined) {
      this.pendingGets += 1;
      await paused.finally(() => {
        this.pendingGets -= 1;
      });
    }
    this.stats.gets += 1;
    const bytes = await this.inner.get(key, range, options);
    this.stats.getBytes += bytes.byteLength;
    return bytes;
  }

  async head(key: string, options?: ObjectIoOptions): Promise<ObjectInfo | undefined> {
    this.#refuse(ErrorCode.OBJECT_READ_FAILED, key);
    this.stats.heads += 1;
    return this.inner.head(key, options);
  }

  async list(
    prefix: string,
    options?: ObjectIoOptions & { readonly continuationToken?: string; readonly limit?: number },
  ): Promise<ObjectListPage> {
    this.#refuse(ErrorCode.OBJECT_READ_FAILED, prefix);
    this.stats.lists += 1;
    return this.inner.list(prefix, options);
  }

  async deleteMany(keys: readonly string[], options?: ObjectIoOptions): Promise<void> {
    this.#refuse(ErrorCode.OBJECT_UPLOAD_FAILED, keys[0] ?? "");
    if (this.#failNextDeletes > 0) {
      this.#failNextDeletes -= 1;
      throw deleteFault(keys, false);
    }
    this.stats.deletedKeys += keys.length;
    await this.inner.deleteMany(keys, options);
    if (this.#loseNextDeletes > 0) {
      this.#loseNextDeletes -= 1;
      throw deleteFault(keys, true);
    }
  }

  #refuse(code: typeof ErrorCode.OBJECT_UPLOAD_FAILED | typeof ErrorCode.OBJECT_READ_FAILED, key: string): void {
    if (!this.outage) return;
    this.refused += 1;
    throw new NereusError(code, `injected object-store outage: ${key}`, {
      retryable: true,
      details: { key, mayHaveApplied: false, injected: true },
    });
  }

  async close(): Promise<void> {
    // The wrapped store belongs to the test stack.
  }
}

function deleteFault(keys: readonly string[], applied: boolean): NereusError {
  return new NereusError(
    ErrorCode.OBJECT_UPLOAD_FAILED,
    applied
      ? `injected fault: delete of ${keys.join(", ")} applied but its response was lost`
      : `injected fault: delete of ${keys.join(", ")} failed before reaching the store`,
    { retryable: true, details: { mayHaveApplied: applied, injected: true } },
  );
}
