// In-memory reference ObjectStore: exact SPI v1 semantics (create-only puts, CRC32C kept per object, exact ranged
// reads, prefix listing in UTF-8 byte order with continuation) plus fault injection and call counters for tests.
// Calls apply synchronously at the moment they are made, so concurrently started calls are linearized in call
// order. Not a production store: no persistence, no size limits.
// Buffers: bodies are copied on put and every read returns a fresh copy.
import { crc32c } from "../bytes/crc32c.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { checkObjectRequest, objectRangeOutside } from "../spi/check-object-request.js";
import { FaultRules, type FaultRule } from "./fault-rules.js";
import {
  OBJECT_STORE_SPI_VERSION,
  type ObjectInfo,
  type ObjectIoOptions,
  type ObjectListPage,
  type ObjectStore,
} from "../spi/object-store.js";

/** The most keys one `list` page returns (S3's ListObjectsV2 maximum). */

/** Operations a fault rule can target. */
export type ObjectStoreFaultOp = "put" | "get";

/**
 * How a matched call fails:
 * - `fail-before-apply`: throws `OBJECT_UPLOAD_FAILED` (put) or `OBJECT_READ_FAILED` (get), retryable, with
 *   `details.mayHaveApplied === false`; nothing is stored.
 * - `apply-then-lose-response`: the call runs (a put creates the object when the key is absent), then its response
 *   is lost: a put throws retryable `OBJECT_UPLOAD_FAILED` with `details.mayHaveApplied === true` (what a real store
 *   raises when it could not resolve a lost response by reading back); a get throws `OBJECT_READ_FAILED`.
 * - `corrupt-read` (get only): the read returns its bytes with one bit flipped (bit 0 of the middle byte), as
 *   corruption on disk or in transit would. A zero-length read has nothing to corrupt.
 */
export type ObjectStoreFaultMode = "fail-before-apply" | "apply-then-lose-response" | "corrupt-read";

/** One fault rule. Rules are matched in insertion order; the first match is consumed. */
export interface ObjectStoreFaultRule extends FaultRule<ObjectStoreFaultMode> {
  readonly op: ObjectStoreFaultOp;
  /** Narrows the rule to calls on matching keys. */
  readonly when?: (key: string) => boolean;
}

/** The fault rules of one store. Invariant: a rule fires at most `times` times, on calls it matches, in order. */
export class ObjectStoreFaults extends FaultRules<ObjectStoreFaultMode, ObjectStoreFaultRule> {
  /** Arms a rule. Throws `TypeError` on a bad `times` or on `corrupt-read` for puts. */
  override add(rule: ObjectStoreFaultRule): void {
    if (rule.op === "put" && rule.mode === "corrupt-read") {
      throw new TypeError("corrupt-read applies to get only (a store validates the CRC32C of every upload)");
    }
    super.add(rule);
  }

  /** Consumes the first rule matching `op` and `key` and returns its mode, or `undefined` when none matches. */
  take(op: ObjectStoreFaultOp, key: string): ObjectStoreFaultMode | undefined {
    return this.takeFirst((rule) => rule.op === op && (rule.when === undefined || rule.when(key)));
  }
}

/** Counters of calls that reached the store (after the closed/aborted/argument checks, faults included). */
export class ObjectStoreStats {
  puts = 0;
  /** Puts that created their object (including ones whose response a fault then lost). */
  created = 0;
  gets = 0;
  heads = 0;
  lists = 0;
  /** `deleteMany` calls. */
  deletes = 0;
  /** Body bytes of created objects. */
  bytesWritten = 0;
  /** Bytes returned (or lost by a fault) by gets. */
  bytesRead = 0;

  /** Sets every counter back to zero. */
  reset(): void {
    this.puts = 0;
    this.created = 0;
    this.gets = 0;
    this.heads = 0;
    this.lists = 0;
    this.deletes = 0;
    this.bytesWritten = 0;
    this.bytesRead = 0;
  }
}

interface StoredObject {
  readonly key: string;
  readonly keyBytes: Buffer;
  readonly body: Uint8Array;
  readonly crc32c: number;
}

/**
 * The reference `ObjectStore`. Invariants (the SPI's, exactly): a key is created at most once and never
 * overwritten, and a later `putIfAbsent` of an existing key reports `{ created: false }` whatever its bytes; ranged
 * reads return exactly the requested bytes or fail; listings are in UTF-8 byte order and a continuation token
 * resumes strictly after the last key returned. Deleting a key makes it absent again (a new put may create it).
 * Fault injection: `faults`; call counters: `stats`.
 */
export class InMemoryObjectStore implements ObjectStore, AsyncDisposable {
  readonly spiVersion = OBJECT_STORE_SPI_VERSION;
  /** Armed faults; see `ObjectStoreFaultMode` for what each mode does. */
  readonly faults = new ObjectStoreFaults();
  /** Counters of calls that reached the store. */
  readonly stats = new ObjectStoreStats();

  readonly #objects = new Map<string, StoredObject>();
  #closed = false;

  async putIfAbsent(
    key: string,
    body: Uint8Array,
    options: ObjectIoOptions = {},
  ): Promise<{ readonly created: boolean }> {
    this.#enter("put", options.signal);
    checkKey(key);
    if (!(body instanceof Uint8Array)) throw invalid("object body must be a Uint8Array");
    this.stats.puts += 1;
    const fault = this.faults.take("put", key);
    if (fault === "fail-before-apply") {
      throw new NereusError(ErrorCode.OBJECT_UPLOAD_FAILED, `injected fault: put of ${key} failed before it applied`, {
        retryable: true,
        details: { key, injected: true, mayHaveApplied: false },
      });
    }
    let created = false;
    if (!this.#objects.has(key)) {
      const copy = body.slice();
      this.#objects.set(key, { key, keyBytes: Buffer.from(key, "utf8"), body: copy, crc32c: crc32c(copy) });
      this.stats.created += 1;
      this.stats.bytesWritten += copy.length;
      created = true;
    }
    if (fault === "apply-then-lose-response") {
      throw new NereusError(ErrorCode.OBJECT_UPLOAD_FAILED, `injected fault: response of put ${key} was lost`, {
        retryable: true,
        details: { key, injected: true, mayHaveApplied: true },
      });
    }
    return { created };
  }

  async get(
    key: string,
    range?: { readonly offset: number; readonly length: number },
    options: ObjectIoOptions = {},
  ): Promise<Uint8Array> {
    this.#enter("get", options.signal);
    checkKey(key);
    if (range !== undefined) checkObjectRequest.range(range);
    this.stats.gets += 1;
    const fault = this.faults.take("get", key);
    if (fault === "fail-before-apply") {
      throw new NereusError(ErrorCode.OBJECT_READ_FAILED, `injected fault: get of ${key} failed`, {
        retryable: true,
        details: { key, injected: true },
      });
    }
    const stored = this.#objects.get(key);
    if (stored === undefined) throw notFound(key);
    let bytes: Uint8Array;
    if (range === undefined) {
      bytes = stored.body.slice();
    } else {
      if (range.offset + range.length > stored.body.length) throw objectRangeOutside(key, range, stored.body.length);
      bytes = stored.body.slice(range.offset, range.offset + range.length);
    }
    this.stats.bytesRead += bytes.length;
    if (fault === "apply-then-lose-response") {
      throw new NereusError(ErrorCode.OBJECT_READ_FAILED, `injected fault: response of get ${key} was lost`, {
        retryable: true,
        details: { key, injected: true },
      });
    }
    if (fault === "corrupt-read" && bytes.length > 0) {
      const middle = Math.floor(bytes.length / 2);
      bytes[middle] = (bytes[middle] ?? 0) ^ 1;
    }
    return bytes;
  }

  async head(key: string, options: ObjectIoOptions = {}): Promise<ObjectInfo | undefined> {
    this.#enter("head", options.signal);
    checkKey(key);
    this.stats.heads += 1;
    const stored = this.#objects.get(key);
    return stored === undefined ? undefined : { key, size: stored.body.length, crc32c: stored.crc32c };
  }

  async list(
    prefix: string,
    options: ObjectIoOptions & { readonly continuationToken?: string; readonly limit?: number } = {},
  ): Promise<ObjectListPage> {
    this.#enter("list", options.signal);
    if (typeof prefix !== "string") throw invalid("list prefix must be a string");
    const limit = checkObjectRequest.listLimit(options.limit);
    const after = options.continuationToken === undefined ? undefined : Buffer.from(options.continuationToken, "utf8");
    this.stats.lists += 1;
    const matching = [...this.#objects.values()]
      .filter(
        (stored) =>
          stored.key.startsWith(prefix) && (after === undefined || Buffer.compare(stored.keyBytes, after) > 0),
      )
      .sort((left, right) => Buffer.compare(left.keyBytes, right.keyBytes));
    const page = matching.slice(0, limit);
    const items = page.map((stored): ObjectInfo => ({
      key: stored.key,
      size: stored.body.length,
      crc32c: stored.crc32c,
    }));
    const last = page.at(-1);
    return matching.length > limit && last !== undefined ? { items, continuationToken: last.key } : { items };
  }

  async deleteMany(keys: readonly string[], options: ObjectIoOptions = {}): Promise<void> {
    this.#enter("delete", options.signal);
    for (const key of keys) checkKey(key);
    this.stats.deletes += 1;
    for (const key of keys) this.#objects.delete(key);
  }

  /** Idempotent. Every later call fails with `STORAGE_CLOSED`. */
  async close(): Promise<void> {
    this.#closed = true;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #enter(operation: string, signal: AbortSignal | undefined): void {
    if (this.#closed) {
      throw new NereusError(ErrorCode.STORAGE_CLOSED, `object store is closed (${operation})`, { retryable: false });
    }
    if (signal?.aborted === true) {
      throw new NereusError(ErrorCode.CANCELLED, `object ${operation} cancelled before it was sent`, {
        cause: signal.reason,
      });
    }
  }
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}

function notFound(key: string): NereusError {
  return new NereusError(ErrorCode.OBJECT_NOT_FOUND, `object ${key} does not exist`, {
    retryable: false,
    details: { key },
  });
}

function checkKey(key: string): void {
  if (typeof key !== "string" || key.length === 0) throw invalid("object key must be a non-empty string");
}
