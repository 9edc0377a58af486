// MetadataStore over etcd v3 (etcd3 client): a thin mapping of SPI v1 onto Range/Txn/Lease/Watch. Reads are
// linearizable Ranges; versions are etcd `mod_revision`s (int64 strings parsed to safe integers, failing closed);
// a txn is one etcd Txn with `mod_revision ==` compares (0 = absent, which etcd evaluates against an empty key)
// and `value ==` compares (which etcd fails on an absent key), puts/deletes in Then and Ranges of `readOnFailure` in Else. The client's automatic retries are disabled, so a
// call is sent at most once and a lost response surfaces as MetadataAmbiguousError (map-etcd-error.ts).
// With authentication (etcd/etcd-security-options.ts) the client renews a dropped token on the next call; a new watch
// refused for its stream's dropped token is created again on a new stream once a read renewed the token.
// Not done here: watch resumption after compaction (watches are hints), multi-Raft-group routing.
// Buffers: values are copied into request Buffers on write and out of response Buffers on read.
import {
  ErrorCode,
  METADATA_STORE_SPI_VERSION,
  isValueCompare,
  MetadataAmbiguousError,
  NereusError,
  awaitDurabilityGate,
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
import { checkMetadataRequest, MAX_TXN_OPERATIONS, MetadataStoreErrors, raceAbort } from "@nereus/core/internal";
import type { Etcd3 as Etcd3Client, IKeyValue, IOptions, IRequestOp, IResponseOp, Namespace, Watcher } from "etcd3";
import { type Etcd3, loadEtcd3 } from "./load-etcd3.js";
import { mapEtcdError, type EtcdErrorContext } from "./map-etcd-error.js";
import { connectFailure } from "./etcd/connect-failure.js";
import { etcdClientSecurity, type EtcdAuthOptions, type EtcdTlsOptions } from "./etcd/etcd-security-options.js";
import { prefixRangeEnd, scanLowerBound } from "./key-range/utf8-key-range.js";

export interface EtcdMetadataStoreOptions {
  /** Client URLs, e.g. `["http://127.0.0.1:2379"]`. */
  readonly endpoints: readonly string[];
  /** How long `createEtcdMetadataStore` waits for etcd to answer before failing (default 5,000 ms). */
  readonly dialTimeoutMs?: number;
  /** gRPC deadline of every call (default 10,000 ms). A txn that hits it is ambiguous. */
  readonly requestTimeoutMs?: number;
  /** TLS to etcd (the endpoints must then be `https://`); without it `https://` endpoints trust the system CAs. */
  readonly tls?: EtcdTlsOptions;
  /** User/password authentication; the client re-authenticates when etcd reports its token invalid or expired. */
  readonly auth?: EtcdAuthOptions;
}

type FaultPolicy = NonNullable<NonNullable<IOptions["faultHandling"]>["global"]>;

/** A cockatiel-compatible policy that runs the call once: no retry, no circuit breaker. */
const RUN_ONCE = {
  execute: async (call: (context: { signal: AbortSignal }) => unknown) =>
    call({ signal: new AbortController().signal }),
} as unknown as FaultPolicy;

const ZERO_BYTE = Buffer.from([0]);
/** How etcd refuses a call (or a watch) whose token it no longer knows. */
const INVALID_TOKEN = /invalid auth token/i;
const UTF8 = new TextDecoder("utf-8", { fatal: true });
const LEASE_ID = /^[1-9][0-9]{0,18}$/;

/**
 * Connects to etcd and returns an open store once etcd answered a status call within `dialTimeoutMs`.
 * Throws non-ambiguous `METADATA_UNAVAILABLE` when it does not, and `DEPENDENCY_UNAVAILABLE` (before connecting)
 * when the optional peer dependency etcd3 is missing.
 */
export async function createEtcdMetadataStore(
  options: EtcdMetadataStoreOptions,
  operationOptions: OperationOptions = {},
): Promise<EtcdMetadataStore> {
  return EtcdMetadataStore.connect(options, operationOptions);
}

/**
 * `MetadataStore` over etcd v3. Invariants beyond the SPI's: every call is sent at most once (no client retries);
 * a mutating txn that fails after it may have been sent (deadline, abort, dropped connection, leader change) throws
 * `MetadataAmbiguousError`; lease TTLs are whole seconds (rounded up; etcd enforces a minimum of about 2 s);
 * `getMany` reads more than 128 keys with several Txns pinned to the first one's revision.
 */
export class EtcdMetadataStore implements MetadataStore, AsyncDisposable {
  readonly spiVersion = METADATA_STORE_SPI_VERSION;
  readonly #client: Etcd3Client;
  /** The loaded etcd3 module, whose error classes map-etcd-error.ts tells apart. */
  readonly #etcd: Etcd3;
  readonly #requestTimeoutMs: number;
  readonly #watchers = new Set<Watcher>();
  /** Whether the client authenticates (its watch stream can then outlive its token). */
  readonly #authenticated: boolean;
  /** Where new watches are created: the client, or a fresh namespace once its watch stream's token was dropped. */
  #watchSpace: Namespace;
  #closed = false;

  private constructor(client: Etcd3Client, etcd: Etcd3, requestTimeoutMs: number, authenticated: boolean) {
    this.#client = client;
    this.#watchSpace = client;
    this.#authenticated = authenticated;
    this.#etcd = etcd;
    this.#requestTimeoutMs = requestTimeoutMs;
  }

  /** Same as {@link createEtcdMetadataStore}. */
  static async connect(
    options: EtcdMetadataStoreOptions,
    operationOptions: OperationOptions = {},
  ): Promise<EtcdMetadataStore> {
    if (options.endpoints.length === 0) throw MetadataStoreErrors.invalid("etcd endpoints must not be empty");
    const signal = operationOptions.signal;
    if (signal?.aborted === true) throw MetadataStoreErrors.cancelled(signal);
    const dialTimeoutMs = options.dialTimeoutMs ?? 5_000;
    const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    const security = etcdClientSecurity(options.endpoints, options.tls, options.auth, requestTimeoutMs);
    const etcd = await loadEtcd3();
    const client = new etcd.Etcd3({
      hosts: [...options.endpoints],
      ...security,
      faultHandling: { host: () => RUN_ONCE, global: RUN_ONCE },
    });
    const store = new EtcdMetadataStore(client, etcd, requestTimeoutMs, options.auth !== undefined);
    try {
      // With auth, the client authenticates before this first call: a wrong password fails here.
      await store.#call({ operation: "connect", mutating: false }, signal, () =>
        client.maintenance.status({ deadline: Date.now() + dialTimeoutMs }),
      );
    } catch (error) {
      await store.close();
      if (NereusError.hasCode(error, ErrorCode.CANCELLED)) throw error;
      throw connectFailure(
        error,
        {
          endpoints: options.endpoints,
          dialTimeoutMs,
          username: options.auth?.username,
          tls: options.tls !== undefined,
        },
        etcd,
      );
    }
    return store;
  }

  async get(key: string, options: OperationOptions = {}): Promise<KeyValue | undefined> {
    this.#enter(options.signal);
    checkMetadataRequest.key(key);
    const response = await this.#call({ operation: "get", mutating: false }, options.signal, (callOptions) =>
      this.#client.kv.range({ key: Buffer.from(key, "utf8") }, callOptions),
    );
    const found = response.kvs[0];
    return found === undefined ? undefined : toKeyValue(found);
  }

  async getMany(keys: readonly string[], options: OperationOptions = {}): Promise<ReadonlyMap<string, KeyValue>> {
    this.#enter(options.signal);
    checkMetadataRequest.keys(keys);
    const unique = [...new Set(keys)];
    const found = new Map<string, KeyValue>();
    let revision: string | undefined;
    for (let start = 0; start < unique.length; start += MAX_TXN_OPERATIONS) {
      const success: IRequestOp[] = unique.slice(start, start + MAX_TXN_OPERATIONS).map((key) => ({
        request_range:
          revision === undefined ? { key: Buffer.from(key, "utf8") } : { key: Buffer.from(key, "utf8"), revision },
      }));
      const response = await this.#call({ operation: "getMany", mutating: false }, options.signal, (callOptions) =>
        this.#client.kv.txn({ compare: [], success, failure: [] }, callOptions),
      );
      revision ??= response.header.revision;
      for (const kv of rangedKeyValues(response.responses)) found.set(kv.key, kv);
    }
    return found;
  }

  async scan(prefix: string, options: ScanOptions): Promise<ScanPage> {
    this.#enter(options.signal);
    checkMetadataRequest.scan(prefix, options);
    const bound = scanLowerBound(prefix, options.startAt, options.startAfter);
    let start = Buffer.from(bound.key, "utf8");
    if (bound.exclusive) start = Buffer.concat([start, ZERO_BYTE]);
    if (start.length === 0) start = ZERO_BYTE;
    const end = prefixRangeEnd(Buffer.from(prefix, "utf8"));
    if (!end.equals(ZERO_BYTE) && Buffer.compare(start, end) >= 0) return { items: [], more: false };
    const response = await this.#call({ operation: "scan", mutating: false }, options.signal, (callOptions) =>
      this.#client.kv.range({ key: start, range_end: end, limit: options.limit }, callOptions),
    );
    return { items: response.kvs.map(toKeyValue), more: response.more };
  }

  async txn(request: TxnRequest, options: OperationOptions = {}): Promise<TxnResult> {
    this.#enter(options.signal);
    checkMetadataRequest.txn(request);
    if (request.after !== undefined) {
      await awaitDurabilityGate(request.after, "etcd txn");
      this.#enter(options.signal);
    }
    const success: IRequestOp[] = [];
    let leaseId: string | undefined;
    for (const write of request.writes) {
      const key = Buffer.from(write.key, "utf8");
      if (write.type === "delete") {
        success.push({ request_delete_range: { key } });
        continue;
      }
      if (write.leaseId !== undefined) {
        // etcd lease ids are positive int64s; anything else cannot name a live lease.
        if (!LEASE_ID.test(write.leaseId)) throw MetadataStoreErrors.leaseNotFound(write.leaseId);
        leaseId ??= write.leaseId;
      }
      success.push({ request_put: { key, value: Buffer.from(write.value), lease: write.leaseId ?? 0 } });
    }
    const context: EtcdErrorContext = {
      operation: "txn",
      mutating: request.writes.length > 0,
      ...(leaseId === undefined ? {} : { leaseId }),
    };
    const response = await this.#call(context, options.signal, (callOptions) =>
      this.#client.kv.txn(
        {
          compare: request.compares.map((compare) =>
            isValueCompare(compare)
              ? {
                  key: Buffer.from(compare.key, "utf8"),
                  target: "Value",
                  result: "Equal",
                  value: Buffer.from(compare.value),
                }
              : {
                  key: Buffer.from(compare.key, "utf8"),
                  target: "Mod",
                  result: "Equal",
                  mod_revision: compare.modRevision,
                },
          ),
          success,
          failure: (request.readOnFailure ?? []).map((key) => ({ request_range: { key: Buffer.from(key, "utf8") } })),
        },
        callOptions,
      ),
    );
    if (response.succeeded)
      return { succeeded: true, revision: parseInt64(response.header.revision, "header.revision") };
    const current = new Map<string, KeyValue>();
    for (const kv of rangedKeyValues(response.responses)) current.set(kv.key, kv);
    return { succeeded: false, current };
  }

  async grantLease(ttlMs: number, options: OperationOptions = {}): Promise<Lease> {
    this.#enter(options.signal);
    checkMetadataRequest.ttl(ttlMs);
    const response = await this.#call({ operation: "grantLease", mutating: false }, options.signal, (callOptions) =>
      this.#client.leaseClient.leaseGrant({ TTL: Math.max(1, Math.ceil(ttlMs / 1000)) }, callOptions),
    );
    if (response.error !== "") throw MetadataStoreErrors.unavailable(`etcd grantLease failed: ${response.error}`);
    const id = response.ID;
    return {
      id,
      keepAlive: (keepAliveOptions: OperationOptions = {}) => this.#keepAlive(id, keepAliveOptions.signal),
      revoke: (revokeOptions: OperationOptions = {}) => this.#revoke(id, revokeOptions.signal),
    };
  }

  async watch(prefix: string, onEvent: (event: WatchEvent) => void): Promise<WatchHandle & AsyncDisposable> {
    this.#enter(undefined);
    checkMetadataRequest.prefix(prefix);
    const start = prefix === "" ? ZERO_BYTE : Buffer.from(prefix, "utf8");
    const end = prefixRangeEnd(Buffer.from(prefix, "utf8"));
    let watcher: Watcher;
    try {
      watcher = await this.#startWatcher(start, end);
    } catch (error) {
      if (!this.#authenticated || !INVALID_TOKEN.test(String(error))) {
        throw mapEtcdError(error, { operation: "watch", mutating: false }, this.#etcd);
      }
      // etcd checks a new watch against the token its stream was opened with, and that token was dropped (expired,
      // or the user's password changed). A read renews the client's token, and a new stream carries the new one;
      // the watches already on the old stream keep it.
      await this.#call({ operation: "watch", mutating: false }, undefined, (callOptions) =>
        this.#client.kv.range({ key: start, limit: 1 }, callOptions),
      );
      this.#watchSpace = this.#client.namespace("");
      try {
        watcher = await this.#startWatcher(start, end);
      } catch (retryError) {
        throw mapEtcdError(retryError, { operation: "watch", mutating: false }, this.#etcd);
      }
    }
    this.#watchers.add(watcher);
    const deliver = (type: WatchEvent["type"]) => (kv: IKeyValue) => {
      try {
        onEvent({ type, key: UTF8.decode(kv.key), modRevision: parseInt64(kv.mod_revision, "mod_revision") });
      } catch {
        // A hint that cannot be decoded (foreign key bytes) or a throwing listener is dropped.
      }
    };
    watcher.on("put", deliver("put"));
    watcher.on("delete", deliver("delete"));
    const close = async (): Promise<void> => {
      if (!this.#watchers.delete(watcher)) return;
      await watcher.cancel().catch(() => undefined);
    };
    return { close, [Symbol.asyncDispose]: close };
  }

  /** Idempotent: cancels the watches and closes the gRPC channels. Operations in flight may still settle. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const watchers = [...this.#watchers];
    this.#watchers.clear();
    await Promise.allSettled(watchers.map((watcher) => watcher.cancel()));
    this.#client.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #enter(signal: AbortSignal | undefined): void {
    if (this.#closed) throw MetadataStoreErrors.closed();
    if (signal?.aborted === true) throw MetadataStoreErrors.cancelled(signal);
  }

  /**
   * Sends one call with the request deadline and maps its failure. An abort while in flight settles at once: a read
   * with `CANCELLED`, a mutating txn with `MetadataAmbiguousError` (it may still apply); the call's late result is
   * discarded.
   */
  async #call<T>(
    context: EtcdErrorContext,
    signal: AbortSignal | undefined,
    send: (callOptions: { deadline: number }) => Promise<T>,
  ): Promise<T> {
    let response: Promise<T>;
    try {
      response = send({ deadline: Date.now() + this.#requestTimeoutMs });
    } catch (error) {
      // Thrown while building the call: nothing was sent.
      throw mapEtcdError(error, { ...context, mutating: false }, this.#etcd);
    }
    const mapped = response.catch((error: unknown) => {
      throw mapEtcdError(error, context, this.#etcd);
    });
    return raceAbort(mapped, signal, () => {
      const cancelled = MetadataStoreErrors.cancelledInFlight(context.operation, signal as AbortSignal);
      return context.mutating
        ? new MetadataAmbiguousError(`etcd ${context.operation} cancelled while in flight`, cancelled)
        : cancelled;
    });
  }

  async #keepAlive(id: string, signal: AbortSignal | undefined): Promise<void> {
    this.#enter(signal);
    const ttl = await this.#call(
      { operation: "keepAlive", mutating: false, leaseId: id },
      signal,
      async (callOptions) => {
        const stream = await this.#client.leaseClient.leaseKeepAlive(callOptions);
        return new Promise<string>((resolve, reject) => {
          stream.on("data", (response) => {
            resolve(response.TTL);
            // Half-close: etcd ends the stream cleanly (a cancel would make the client reset its channels).
            stream.end();
          });
          stream.on("error", reject);
          stream.on("end", () => reject(new Error("keep-alive stream ended without a response")));
          stream.write({ ID: id });
        });
      },
    );
    if (ttl === "0") throw MetadataStoreErrors.leaseNotFound(id);
  }

  async #revoke(id: string, signal: AbortSignal | undefined): Promise<void> {
    this.#enter(signal);
    try {
      await this.#call({ operation: "revoke", mutating: false, leaseId: id }, signal, (callOptions) =>
        this.#client.leaseClient.leaseRevoke({ ID: id }, callOptions),
      );
    } catch (error) {
      // Revoking an expired or already revoked lease reached the goal.
      if ((error as { details?: Record<string, unknown> }).details?.["reason"] !== "lease-not-found") throw error;
    }
  }

  /** A watcher on [start, end) once etcd created it; a watcher that failed is abandoned, not awaited. */
  async #startWatcher(start: Buffer, end: Buffer): Promise<Watcher> {
    const watcher = this.#watchSpace.watch().inRange({ start, end }).watcher();
    watcher.on("error", () => {
      // Watches are hints; the etcd3 watch manager reconnects by itself.
    });
    try {
      await this.#whenConnected(watcher);
    } catch (error) {
      // Cancelling a watcher etcd never created waits for an event that may never come: let it settle on its own.
      void watcher.cancel().catch(() => undefined);
      throw error;
    }
    return watcher;
  }

  #whenConnected(watcher: Watcher): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(MetadataStoreErrors.unavailable(`etcd watch not established within ${this.#requestTimeoutMs} ms`)),
        this.#requestTimeoutMs,
      );
      watcher.once("connected", () => {
        clearTimeout(timer);
        resolve();
      });
      watcher.once("error", (error: Error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }
}

/** Parses an etcd int64 (a decimal string) into a safe integer, failing closed on anything else. */
function parseInt64(value: string, field: string): number {
  const parsed = Number(value);
  if (!/^[0-9]{1,16}$/.test(value) || !Number.isSafeInteger(parsed)) {
    throw MetadataStoreErrors.invariant(`etcd ${field} ${JSON.stringify(value)} is not a safe non-negative integer`);
  }
  return parsed;
}

function toKeyValue(kv: IKeyValue): KeyValue {
  let key: string;
  try {
    key = UTF8.decode(kv.key);
  } catch (error) {
    throw MetadataStoreErrors.invariant(
      `etcd returned a key that is not UTF-8: ${kv.key.toString("hex")} (${String(error)})`,
    );
  }
  const modRevision = parseInt64(kv.mod_revision, "mod_revision");
  const createRevision = parseInt64(kv.create_revision, "create_revision");
  if (modRevision <= 0 || createRevision <= 0 || createRevision > modRevision) {
    throw MetadataStoreErrors.invariant(`etcd key ${key} has revisions mod=${modRevision} create=${createRevision}`);
  }
  return { key, value: new Uint8Array(kv.value), modRevision, createRevision };
}

function rangedKeyValues(responses: readonly IResponseOp[]): KeyValue[] {
  return responses.flatMap((response) => (response.response_range?.kvs ?? []).map(toKeyValue));
}
