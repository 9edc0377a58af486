// ObjectStore over S3 (@aws-sdk/client-s3 v3): create-only PUTs (`If-None-Match: *`) with a CRC32C the server
// validates, whole-object reads verified against the stored CRC32C, exact ranged reads, HEAD, batched deletes and
// prefix listing. Works with AWS and S3-compatible servers that enforce conditional PUTs (s3proxy 4.x); call
// `verifyCreateOnlySupport()` at start-up to refuse servers that silently overwrite.
// Does not retry create-only PUTs through the SDK (a blind retry could report 412 for our own write); ambiguous
// PUTs are resolved here by reading the object back. Buffers: bodies are not retained; reads return fresh arrays.
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { GetObjectCommandOutput, S3Client, S3ClientConfig } from "@aws-sdk/client-s3";
import {
  ErrorCode,
  NereusError,
  OBJECT_STORE_SPI_VERSION,
  crc32c,
  type ObjectInfo,
  type ObjectIoOptions,
  type PutOptions,
  type ObjectListPage,
  type ObjectStore,
} from "@nereus/core";
import { checkObjectRequest, objectRangeOutside } from "@nereus/core/internal";
import { MAX_OBJECT_KEY_BYTES, assertListPrefix, assertObjectKey } from "./object-keys/assert-object-key.js";
import { bodyCrc32c } from "./object-store/body-crc32c.js";
import { crc32cFromBase64, crc32cToBase64 } from "./crc32c-base64.js";
import { loadS3Sdk, type S3Sdk } from "./load-s3-sdk.js";
import { classifyPutFailure, mapS3Error, s3ErrorStatus, type S3Operation } from "./map-s3-error.js";
import { StoreLifecycle } from "./object-store/store-lifecycle.js";

/** Keys per DeleteObjects request (the S3 maximum). */
const DELETE_BATCH_SIZE = 1000;
/** PUT transmissions per `putIfAbsent` call (the first one plus retries after ambiguous failures or 409s). */
const MAX_PUT_TRANSMISSIONS = 3;
const CONFLICT_BACKOFF_MS = 50;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_ATTEMPTS = 3;

export interface S3ObjectStoreOptions {
  /** Custom endpoint for S3-compatible servers, e.g. `http://127.0.0.1:9000`. Omit for AWS. */
  readonly endpoint?: string;
  readonly region: string;
  readonly bucket: string;
  /** Static credentials; omit to use the SDK's default provider chain. */
  readonly credentials?: {
    readonly accessKeyId: string;
    readonly secretAccessKey: string;
    readonly sessionToken?: string;
  };
  /** Path-style addressing (`endpoint/bucket/key`), required by most S3-compatible servers. */
  readonly forcePathStyle?: boolean;
  /** Prepended verbatim to every key (e.g. `"cluster-a/"`); listings return keys without it. */
  readonly keyPrefix?: string;
  /** Deadline of each S3 request (default 30 s). A PUT that times out is resolved by reading back. */
  readonly requestTimeoutMs?: number;
  /** SDK attempts for idempotent requests (GET, HEAD, LIST, DELETE; default 3). Create-only PUTs always use 1. */
  readonly maxAttempts?: number;
  /**
   * Custom request handler of the AWS SDK (agents, proxies), e.g. a `NodeHttpHandler` of `@smithy/node-http-handler`;
   * passed to the SDK as its `requestHandler`. Shared by the store's clients and destroyed by `close()`. Typed
   * loosely so that these published types do not depend on the optional SDK package.
   */
  readonly requestHandler?: object;
}

/** The options' settings after validation, with defaults. */
interface CheckedSettings {
  readonly keyPrefix: string;
  readonly requestTimeoutMs: number;
  readonly maxAttempts: number;
}

type PutOutcome =
  { readonly kind: "created" } | { readonly kind: "exists" | "conflict" | "ambiguous"; readonly error: unknown };

/**
 * An `ObjectStore` over one S3 bucket. Invariants (beyond the SPI's):
 * - every PUT carries `If-None-Match: *` and the body's CRC32C, and is sent by a client with SDK retries off;
 * - after a PUT transmission that may have applied (network error, timeout, 5xx), the object is read back: our
 *   exact bytes ⇒ `{ created: true }`, other bytes ⇒ `{ created: false }`, absent ⇒ the PUT is sent again;
 *   a 412 on the first transmission is `{ created: false }` without comparing;
 * - whole-object reads are checked against the stored CRC32C when the server returns one; ranged reads are checked
 *   for exact length only (servers do not return checksums for ranges: the caller's format verifies them);
 * - a `putIfAbsent` that fails with `details.mayHaveApplied === true` may have created the object.
 */
export class S3ObjectStore implements ObjectStore, AsyncDisposable {
  readonly spiVersion = OBJECT_STORE_SPI_VERSION;
  readonly bucket: string;
  readonly keyPrefix: string;

  /** The loaded @aws-sdk/client-s3 module (load-s3-sdk.ts): the command classes. */
  readonly #sdk: S3Sdk;
  readonly #client: S3Client;
  /** Same configuration with `maxAttempts: 1`: used for every create-only PUT. */
  readonly #putClient: S3Client;
  readonly #requestTimeoutMs: number;
  readonly #lifecycle = new StoreLifecycle("S3 object store");
  readonly #endpointLabel: string;

  private constructor(options: S3ObjectStoreOptions, settings: CheckedSettings, sdk: S3Sdk) {
    const { keyPrefix, requestTimeoutMs, maxAttempts } = settings;
    this.bucket = options.bucket;
    this.keyPrefix = keyPrefix;
    this.#sdk = sdk;
    this.#requestTimeoutMs = requestTimeoutMs;
    this.#endpointLabel = options.endpoint ?? `AWS S3 (${options.region})`;
    const config: S3ClientConfig = {
      region: options.region,
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      ...(options.credentials === undefined ? {} : { credentials: { ...options.credentials } }),
      ...(options.requestHandler === undefined
        ? {}
        : { requestHandler: options.requestHandler as S3ClientConfig["requestHandler"] }),
      forcePathStyle: options.forcePathStyle ?? false,
      // The store computes, sends and verifies CRC32C itself (and never sends aws-chunked bodies).
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    };
    this.#client = new sdk.S3Client({ ...config, maxAttempts });
    this.#putClient = new sdk.S3Client({ ...config, maxAttempts: 1 });
  }

  /**
   * Same as {@link createS3ObjectStore}: checks the options (`INVALID_ARGUMENT`), then loads @aws-sdk/client-s3
   * (`DEPENDENCY_UNAVAILABLE` when it is not installed). No request is sent.
   */
  static async open(options: S3ObjectStoreOptions): Promise<S3ObjectStore> {
    const settings = checkOptions(options);
    return new S3ObjectStore(options, settings, await loadS3Sdk());
  }

  async putIfAbsent(key: string, body: Uint8Array, options: PutOptions = {}): Promise<{ readonly created: boolean }> {
    return this.#lifecycle.run("put", options.signal, async () => {
      const fullKey = this.#fullKey(key);
      if (!(body instanceof Uint8Array)) throw invalid("object body must be a Uint8Array");
      const checksum = crc32cToBase64(bodyCrc32c(body, options.crc32c));
      let possiblySent = false;
      let lastError: unknown;
      for (let transmission = 1; transmission <= MAX_PUT_TRANSMISSIONS; transmission++) {
        const outcome = await this.#sendPut(this.#putClient, fullKey, body, checksum, options.signal, possiblySent);
        if (outcome.kind === "created") return { created: true };
        lastError = outcome.error;
        if (outcome.kind === "exists") {
          if (!possiblySent) return { created: false };
          return { created: await this.#storedBytesEqual(fullKey, body, options.signal, outcome.error) };
        }
        if (outcome.kind === "conflict") {
          await delay(CONFLICT_BACKOFF_MS * transmission, undefined, { signal: options.signal }).catch(() => undefined);
          continue;
        }
        possiblySent = true;
        const stored = await this.#readBackAfterAmbiguousPut(fullKey, options.signal, outcome.error);
        if (stored !== undefined) return { created: equalBytes(stored, body) };
      }
      throw new NereusError(
        ErrorCode.OBJECT_UPLOAD_FAILED,
        `S3 put of ${fullKey} in bucket ${this.bucket} did not complete after ${String(MAX_PUT_TRANSMISSIONS)} transmissions`,
        {
          retryable: true,
          cause: lastError,
          details: { key: fullKey, bucket: this.bucket, mayHaveApplied: possiblySent },
        },
      );
    });
  }

  async get(
    key: string,
    range?: { readonly offset: number; readonly length: number },
    options: ObjectIoOptions = {},
  ): Promise<Uint8Array> {
    return this.#lifecycle.run("get", options.signal, async () => {
      const fullKey = this.#fullKey(key);
      if (range === undefined) return this.#getWhole(fullKey, options.signal);
      checkObjectRequest.range(range);
      if (range.length === 0) {
        const info = await this.#head(fullKey, options.signal);
        if (info === undefined) throw notFound(fullKey, this.bucket);
        if (range.offset > info.size) throw objectRangeOutside(fullKey, range, info.size);
        return new Uint8Array(0);
      }
      return this.#getRange(fullKey, range, options.signal);
    });
  }

  async head(key: string, options: ObjectIoOptions = {}): Promise<ObjectInfo | undefined> {
    return this.#lifecycle.run("head", options.signal, async () => {
      const info = await this.#head(this.#fullKey(key), options.signal);
      return info === undefined ? undefined : { ...info, key };
    });
  }

  async list(
    prefix: string,
    options: ObjectIoOptions & { readonly continuationToken?: string; readonly limit?: number } = {},
  ): Promise<ObjectListPage> {
    return this.#lifecycle.run("list", options.signal, async () => {
      assertListPrefix(prefix);
      const limit = checkObjectRequest.listLimit(options.limit);
      const fullPrefix = this.keyPrefix + prefix;
      const output = await this.#send("list", undefined, options.signal, (abortSignal) =>
        this.#client.send(
          new this.#sdk.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: fullPrefix,
            MaxKeys: limit,
            ...(options.continuationToken === undefined ? {} : { ContinuationToken: options.continuationToken }),
          }),
          { abortSignal },
        ),
      );
      const items: ObjectInfo[] = [];
      for (const entry of output.Contents ?? []) {
        if (entry.Key === undefined || !entry.Key.startsWith(fullPrefix)) {
          throw new NereusError(
            ErrorCode.OBJECT_READ_FAILED,
            `S3 listing of ${fullPrefix} returned a key outside the prefix`,
            {
              retryable: false,
              details: { bucket: this.bucket, prefix: fullPrefix, key: entry.Key },
            },
          );
        }
        items.push({ key: entry.Key.slice(this.keyPrefix.length), size: entry.Size ?? 0 });
      }
      const token = output.IsTruncated === true ? output.NextContinuationToken : undefined;
      return token === undefined ? { items } : { items, continuationToken: token };
    });
  }

  async deleteMany(keys: readonly string[], options: ObjectIoOptions = {}): Promise<void> {
    return this.#lifecycle.run("delete", options.signal, async () => {
      const fullKeys = keys.map((key) => this.#fullKey(key));
      for (let start = 0; start < fullKeys.length; start += DELETE_BATCH_SIZE) {
        const batch = fullKeys.slice(start, start + DELETE_BATCH_SIZE);
        const output = await this.#send("delete", undefined, options.signal, (abortSignal) =>
          this.#client.send(
            new this.#sdk.DeleteObjectsCommand({
              Bucket: this.bucket,
              Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
            }),
            { abortSignal },
          ),
        );
        const failures = (output.Errors ?? []).filter((failure) => failure.Code !== "NoSuchKey");
        if (failures.length > 0) {
          throw new NereusError(
            ErrorCode.OBJECT_UPLOAD_FAILED,
            `S3 could not delete ${String(failures.length)} of ${String(batch.length)} object(s) in bucket ${this.bucket}`,
            {
              retryable: true,
              details: {
                bucket: this.bucket,
                failures: failures.slice(0, 10).map((failure) => ({ key: failure.Key, code: failure.Code })),
              },
            },
          );
        }
      }
    });
  }

  /**
   * Start-up probe: PUTs a fresh probe key twice with `If-None-Match: *` and requires the second to be refused
   * with 412. Throws `NereusError(UNSUPPORTED_STORAGE_PROFILE)` when the server accepts the overwrite or does not
   * implement conditional PUTs (the object WAL must not run there without external fencing); other failures are
   * the usual mapped errors. Deletes the probe key afterwards (best effort).
   */
  async verifyCreateOnlySupport(options: ObjectIoOptions = {}): Promise<void> {
    return this.#lifecycle.run("probe", options.signal, async () => {
      const fullKey = this.#fullKey(`_nereus/create-only-probe/${randomUUID()}`);
      const unsupported = (reason: string, cause?: unknown): NereusError =>
        new NereusError(
          ErrorCode.UNSUPPORTED_STORAGE_PROFILE,
          `S3 endpoint ${this.#endpointLabel}, bucket ${this.bucket}, does not enforce create-only PUTs (If-None-Match: *): ${reason}. ` +
            "The object WAL needs a store that refuses to overwrite; use one that supports conditional writes.",
          {
            retryable: false,
            cause,
            details: { bucket: this.bucket, endpoint: this.#endpointLabel, probeKey: fullKey },
          },
        );
      try {
        for (const attempt of ["first", "second"] as const) {
          const body = new TextEncoder().encode(`nereus create-only probe ${attempt} ${randomUUID()}`);
          let outcome: PutOutcome;
          try {
            outcome = await this.#sendPut(
              this.#putClient,
              fullKey,
              body,
              crc32cToBase64(crc32c(body)),
              options.signal,
              false,
            );
          } catch (error) {
            const status = NereusError.is(error) ? error.details["httpStatus"] : undefined;
            const name = NereusError.is(error) ? error.details["s3Error"] : undefined;
            if (status === 501 || name === "NotImplemented") {
              throw unsupported(`the server answered a conditional PUT with ${String(status)} ${String(name)}`, error);
            }
            throw error;
          }
          if (outcome.kind === "created") {
            if (attempt === "second")
              throw unsupported("a second conditional PUT of the probe key succeeded and overwrote it");
            continue;
          }
          if (outcome.kind === "exists" && attempt === "second") return;
          if (outcome.kind === "exists")
            throw unsupported("the first PUT of a fresh probe key was refused with 412", outcome.error);
          throw mapS3Error(outcome.error, {
            operation: "probe",
            bucket: this.bucket,
            key: fullKey,
            signal: options.signal,
          });
        }
      } finally {
        await this.#client
          .send(
            new this.#sdk.DeleteObjectsCommand({
              Bucket: this.bucket,
              Delete: { Objects: [{ Key: fullKey }], Quiet: true },
            }),
            {
              abortSignal: AbortSignal.timeout(this.#requestTimeoutMs),
            },
          )
          .catch(() => undefined);
      }
    });
  }

  /** Idempotent: refuses new calls, waits for in-flight ones, then releases the HTTP connections. */
  async close(): Promise<void> {
    await this.#lifecycle.close(() => {
      this.#client.destroy();
      this.#putClient.destroy();
    });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #fullKey(key: string): string {
    assertObjectKey(key);
    const fullKey = this.keyPrefix + key;
    if (Buffer.byteLength(fullKey, "utf8") > MAX_OBJECT_KEY_BYTES) {
      throw invalid(`key prefix plus key is longer than ${String(MAX_OBJECT_KEY_BYTES)} UTF-8 bytes`);
    }
    return fullKey;
  }

  /**
   * One create-only PUT transmission. Returns the outcome for the retry loop; throws (mapped) when the server
   * refused definitively or the caller aborted. An unsupported 501/400 answer to the condition is `failed` → thrown.
   */
  async #sendPut(
    client: S3Client,
    fullKey: string,
    body: Uint8Array,
    checksum: string,
    signal: AbortSignal | undefined,
    possiblySent: boolean,
  ): Promise<PutOutcome> {
    const timeout = AbortSignal.timeout(this.#requestTimeoutMs);
    const abortSignal = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    try {
      const output = await client.send(
        new this.#sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: fullKey,
          Body: body,
          ContentLength: body.length,
          IfNoneMatch: "*",
          ChecksumCRC32C: checksum,
        }),
        { abortSignal },
      );
      if (output.ChecksumCRC32C !== undefined && output.ChecksumCRC32C !== checksum) {
        throw new NereusError(
          ErrorCode.OBJECT_CHECKSUM_MISMATCH,
          `S3 stored ${fullKey} with CRC32C ${output.ChecksumCRC32C}, expected ${checksum}`,
          { retryable: false, details: { key: fullKey, bucket: this.bucket, mayHaveApplied: true } },
        );
      }
      return { kind: "created" };
    } catch (error) {
      if (NereusError.is(error)) throw error;
      const kind = classifyPutFailure(error, signal);
      if (kind !== "failed") return { kind, error };
      const mapped = mapS3Error(error, { operation: "put", bucket: this.bucket, key: fullKey, signal });
      if (mapped.code !== ErrorCode.CANCELLED) throw mapped;
      // The caller gave up; the request (or an earlier transmission) may have reached the server.
      throw new NereusError(mapped.code, mapped.message, {
        retryable: false,
        cause: error,
        details: { ...mapped.details, mayHaveApplied: true, earlierTransmissionAmbiguous: possiblySent },
      });
    }
  }

  /** After an ambiguous PUT: the stored bytes, or undefined when the key is absent. Failures say `mayHaveApplied`. */
  async #readBackAfterAmbiguousPut(
    fullKey: string,
    signal: AbortSignal | undefined,
    putError: unknown,
  ): Promise<Uint8Array | undefined> {
    try {
      return await this.#getWhole(fullKey, signal);
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.OBJECT_NOT_FOUND)) return undefined;
      throw ambiguousUpload(fullKey, this.bucket, error, putError);
    }
  }

  /** After a 412 that followed an ambiguous transmission of this call: does the stored object hold exactly `body`? */
  async #storedBytesEqual(
    fullKey: string,
    body: Uint8Array,
    signal: AbortSignal | undefined,
    putError: unknown,
  ): Promise<boolean> {
    let stored: Uint8Array | undefined;
    try {
      stored = await this.#getWhole(fullKey, signal);
    } catch (error) {
      // 412 then 404: the object was deleted in between; it was there, and it may have been ours.
      throw ambiguousUpload(fullKey, this.bucket, error, putError);
    }
    return equalBytes(stored, body);
  }

  async #getWhole(fullKey: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const { output, bytes } = await this.#getObject(fullKey, undefined, signal);
    if (output.ContentLength !== undefined && output.ContentLength !== bytes.length) {
      throw new NereusError(
        ErrorCode.OBJECT_READ_FAILED,
        `S3 get of ${fullKey} returned ${String(bytes.length)} of ${String(output.ContentLength)} byte(s)`,
        { retryable: true, details: { key: fullKey, bucket: this.bucket } },
      );
    }
    if (output.ChecksumCRC32C !== undefined && output.ChecksumType !== "COMPOSITE") {
      const expected = crc32cFromBase64(output.ChecksumCRC32C);
      const actual = crc32c(bytes);
      if (expected !== actual) {
        throw new NereusError(
          ErrorCode.OBJECT_CHECKSUM_MISMATCH,
          `object ${fullKey} in bucket ${this.bucket} does not match its stored CRC32C`,
          { retryable: false, details: { key: fullKey, bucket: this.bucket, expected, actual } },
        );
      }
    }
    return bytes;
  }

  async #getRange(
    fullKey: string,
    range: { readonly offset: number; readonly length: number },
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array> {
    const { output, bytes } = await this.#getObject(fullKey, range, signal);
    const total = totalFromContentRange(output.ContentRange);
    if (output.ContentRange === undefined) {
      // The server ignored the Range header and sent the whole object.
      if (range.offset + range.length > bytes.length) throw objectRangeOutside(fullKey, range, bytes.length);
      return bytes.slice(range.offset, range.offset + range.length);
    }
    if (bytes.length === range.length) return bytes;
    if (total !== undefined && range.offset + range.length > total) throw objectRangeOutside(fullKey, range, total);
    throw new NereusError(
      ErrorCode.OBJECT_READ_FAILED,
      `S3 ranged get of ${fullKey} returned ${String(bytes.length)} of ${String(range.length)} byte(s)`,
      { retryable: true, details: { key: fullKey, bucket: this.bucket, contentRange: output.ContentRange } },
    );
  }

  async #getObject(
    fullKey: string,
    range: { readonly offset: number; readonly length: number } | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ output: GetObjectCommandOutput; bytes: Uint8Array }> {
    return this.#send("get", fullKey, signal, async (abortSignal) => {
      const output = await this.#client.send(
        new this.#sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: fullKey,
          ...(range === undefined
            ? { ChecksumMode: "ENABLED" }
            : { Range: `bytes=${String(range.offset)}-${String(range.offset + range.length - 1)}` }),
        }),
        { abortSignal },
      );
      const body = output.Body;
      const bytes = body === undefined ? new Uint8Array(0) : await body.transformToByteArray();
      return { output, bytes };
    });
  }

  async #head(fullKey: string, signal: AbortSignal | undefined): Promise<Omit<ObjectInfo, "key"> | undefined> {
    try {
      const output = await this.#send("head", fullKey, signal, (abortSignal) =>
        this.#client.send(
          new this.#sdk.HeadObjectCommand({ Bucket: this.bucket, Key: fullKey, ChecksumMode: "ENABLED" }),
          {
            abortSignal,
          },
        ),
      );
      const size = output.ContentLength ?? 0;
      return output.ChecksumCRC32C === undefined || output.ChecksumType === "COMPOSITE"
        ? { size }
        : { size, crc32c: crc32cFromBase64(output.ChecksumCRC32C) };
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.OBJECT_NOT_FOUND)) return undefined;
      throw error;
    }
  }

  /** Runs one SDK call under the per-request timeout and the caller's signal; maps any failure once. */
  async #send<T>(
    operation: S3Operation,
    fullKey: string | undefined,
    signal: AbortSignal | undefined,
    call: (abortSignal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const timeout = AbortSignal.timeout(this.#requestTimeoutMs);
    try {
      return await call(signal === undefined ? timeout : AbortSignal.any([signal, timeout]));
    } catch (error) {
      throw mapS3Error(error, {
        operation,
        bucket: this.bucket,
        ...(fullKey === undefined ? {} : { key: fullKey }),
        signal,
        timedOut: timeout.aborted && signal?.aborted !== true && s3ErrorStatus(error) === undefined,
      });
    }
  }
}

/**
 * Creates an `S3ObjectStore`: checks the options (`INVALID_ARGUMENT`), then loads the optional peer dependency
 * @aws-sdk/client-s3 (`DEPENDENCY_UNAVAILABLE`, naming it, when it is not installed). No request is sent until the
 * first call; see `verifyCreateOnlySupport()`.
 */
export async function createS3ObjectStore(options: S3ObjectStoreOptions): Promise<S3ObjectStore> {
  return S3ObjectStore.open(options);
}

/** Validates the options before anything is loaded or sent; fills in the defaults. */
function checkOptions(options: S3ObjectStoreOptions): CheckedSettings {
  if (typeof options.bucket !== "string" || options.bucket.length === 0)
    throw invalid("bucket must be a non-empty string");
  if (typeof options.region !== "string" || options.region.length === 0)
    throw invalid("region must be a non-empty string");
  const keyPrefix = options.keyPrefix ?? "";
  if (keyPrefix !== "") assertListPrefix(keyPrefix);
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isSafeInteger(requestTimeoutMs) || requestTimeoutMs < 1) {
    throw invalid(`requestTimeoutMs must be a positive integer, got ${String(options.requestTimeoutMs)}`);
  }
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) {
    throw invalid(`maxAttempts must be a positive integer, got ${String(options.maxAttempts)}`);
  }
  return { keyPrefix, requestTimeoutMs, maxAttempts };
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}

function notFound(fullKey: string, bucket: string): NereusError {
  return new NereusError(ErrorCode.OBJECT_NOT_FOUND, `object ${fullKey} in bucket ${bucket} does not exist`, {
    retryable: false,
    details: { key: fullKey, bucket },
  });
}

function ambiguousUpload(fullKey: string, bucket: string, readError: unknown, putError: unknown): NereusError {
  return new NereusError(
    ErrorCode.OBJECT_UPLOAD_FAILED,
    `S3 put of ${fullKey} in bucket ${bucket} may have applied, and reading it back failed`,
    {
      retryable: true,
      cause: readError,
      details: { key: fullKey, bucket, mayHaveApplied: true, putError: String(putError) },
    },
  );
}

/** The total size from `Content-Range: bytes a-b/total`, when present and numeric. */
function totalFromContentRange(contentRange: string | undefined): number | undefined {
  const match = contentRange === undefined ? null : /\/(\d+)$/.exec(contentRange);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function equalBytes(left: Uint8Array, right: Uint8Array): boolean {
  return Buffer.from(left.buffer, left.byteOffset, left.byteLength).equals(
    Buffer.from(right.buffer, right.byteOffset, right.byteLength),
  );
}
