// Promise-based ZooKeeper access for the ledger metadata code, over node-zookeeper-client: one client connection,
// re-created after session expiry, every call bounded by an AbortSignal plus a default operation timeout.
// Expected outcomes (no node, node exists, bad version, not empty) are values; everything else is mapped once to
// METADATA_UNAVAILABLE. An abandoned (aborted) call may still be applied by the server: callers resolve that
// ambiguity by re-reading, never by assuming.
import { ErrorCode, NereusError } from "@nereus/core";
import { abortError, mapZooKeeperError } from "../errors/map-bookie-error.js";
import {
  nodeZooKeeperClient,
  type ZooKeeperClient as Client,
  type ZooKeeperException,
  type ZooKeeperStat as Stat,
} from "./node-zookeeper-client.js";

const { CreateMode, Exception, createClient } = nodeZooKeeperClient;

/** Options of a ZooKeeper session. */
export interface ZooKeeperSessionOptions {
  /** Session timeout requested from the server (default 30 000 ms). */
  readonly sessionTimeoutMs?: number;
  /** Deadline of each call without an explicit signal, connection wait included (default 15 000 ms). */
  readonly operationTimeoutMs?: number;
}

export interface ZooKeeperCallOptions {
  readonly signal?: AbortSignal;
}

/** A znode's data and the stat facts the metadata code uses. */
export interface ZNodeData {
  readonly data: Uint8Array;
  /** The znode version: the compare-and-set token of ledger metadata. */
  readonly version: number;
  /** Creation time (ms since the epoch), the ledger ctime when the metadata does not store one. */
  readonly ctimeMs: number;
}

export type CreateResult =
  { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: "exists" | "noParent" };
export type SetDataResult =
  { readonly ok: true; readonly version: number } | { readonly ok: false; readonly reason: "badVersion" | "noNode" };
export type RemoveResult =
  { readonly ok: true } | { readonly ok: false; readonly reason: "badVersion" | "noNode" | "notEmpty" };

/** Node creation modes this client needs. */
export type ZNodeMode = "persistent" | "ephemeralSequential";

/**
 * One ZooKeeper connection.
 *
 * Invariants: calls run in the order issued on one connection; after `close()` every call rejects with
 * STORAGE_CLOSED; a session expiry transparently starts a new session for later calls (ephemeral nodes of the
 * old session are gone, which only matters for id generation, whose nodes are transient anyway).
 */
export class ZooKeeperSession {
  readonly #connectString: string;
  readonly #sessionTimeoutMs: number;
  readonly #operationTimeoutMs: number;
  #client: Client | undefined;
  #connected: Promise<void> | undefined;
  #closed = false;

  constructor(connectString: string, options: ZooKeeperSessionOptions = {}) {
    this.#connectString = connectString;
    this.#sessionTimeoutMs = options.sessionTimeoutMs ?? 30_000;
    this.#operationTimeoutMs = options.operationTimeoutMs ?? 15_000;
  }

  /** The connect string (host:port[,host:port...][/chroot]). */
  get connectString(): string {
    return this.#connectString;
  }

  #ensureClient(): { client: Client; connected: Promise<void> } {
    if (this.#closed) throw new NereusError(ErrorCode.STORAGE_CLOSED, "ZooKeeper session is closed");
    if (this.#client === undefined || this.#connected === undefined) {
      const client = createClient(this.#connectString, {
        sessionTimeout: this.#sessionTimeoutMs,
        spinDelay: 200,
        retries: 1,
      });
      const connected = new Promise<void>((resolve) => client.once("connected", () => resolve()));
      connected.catch(() => undefined);
      client.on("expired", () => {
        if (this.#client === client) {
          this.#client = undefined;
          this.#connected = undefined;
        }
        client.close();
      });
      client.connect();
      this.#client = client;
      this.#connected = connected;
    }
    return { client: this.#client, connected: this.#connected };
  }

  async #call<T>(
    operation: string,
    path: string,
    options: ZooKeeperCallOptions,
    run: (client: Client, settle: (error: ZooKeeperException | null, value?: T) => void) => void,
    expected: ReadonlyMap<number, () => T> = new Map(),
  ): Promise<T> {
    const signal =
      options.signal === undefined
        ? AbortSignal.timeout(this.#operationTimeoutMs)
        : AbortSignal.any([options.signal, AbortSignal.timeout(this.#operationTimeoutMs)]);
    if (signal.aborted) throw abortError(signal, `ZooKeeper ${operation} ${path}`);
    const { client, connected } = this.#ensureClient();
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(abortError(signal, `ZooKeeper ${operation} ${path}`));
      signal.addEventListener("abort", onAbort, { once: true });
      connected.then(
        () => {
          if (signal.aborted) return;
          try {
            run(client, (error, value) => {
              signal.removeEventListener("abort", onAbort);
              if (error === null || error === undefined) resolve(value as T);
              else {
                const outcome = expected.get(typeof error.code === "number" ? error.code : Number.NaN);
                if (outcome !== undefined) resolve(outcome());
                else reject(mapZooKeeperError(error, operation, path));
              }
            });
          } catch (error) {
            signal.removeEventListener("abort", onAbort);
            reject(mapZooKeeperError(error, operation, path));
          }
        },
        (error: unknown) => reject(mapZooKeeperError(error, operation, path)),
      );
    });
  }

  /** Creates `path`; with `createParents`, missing parents are created (persistent, empty) and the create retried. */
  async create(
    path: string,
    data: Uint8Array,
    options: ZooKeeperCallOptions & { mode?: ZNodeMode; createParents?: boolean } = {},
  ): Promise<CreateResult> {
    const mode = options.mode === "ephemeralSequential" ? CreateMode.EPHEMERAL_SEQUENTIAL : CreateMode.PERSISTENT;
    const attempt = () =>
      this.#call<CreateResult>(
        "create",
        path,
        options,
        (client, settle) =>
          client.create(path, Buffer.from(data.buffer, data.byteOffset, data.byteLength), mode, (error, created) =>
            settle(error, { ok: true, path: created }),
          ),
        new Map<number, () => CreateResult>([
          [Exception.NODE_EXISTS, () => ({ ok: false, reason: "exists" })],
          [Exception.NO_NODE, () => ({ ok: false, reason: "noParent" })],
        ]),
      );
    const first = await attempt();
    if (first.ok || first.reason !== "noParent" || options.createParents !== true) return first;
    await this.#createParents(path, options);
    return attempt();
  }

  async #createParents(path: string, options: ZooKeeperCallOptions): Promise<void> {
    const parts = path.split("/").filter((part) => part !== "");
    let current = "";
    for (const part of parts.slice(0, -1)) {
      current += `/${part}`;
      const result = await this.create(current, new Uint8Array(0), { ...options, mode: "persistent" });
      if (!result.ok && result.reason === "noParent")
        throw mapZooKeeperError(new Error("parent vanished while creating"), "create", current);
    }
  }

  /** Data and version of `path`, or `undefined` when it does not exist. */
  getData(path: string, options: ZooKeeperCallOptions = {}): Promise<ZNodeData | undefined> {
    return this.#call<ZNodeData | undefined>(
      "getData",
      path,
      options,
      (client, settle) =>
        client.getData(path, (error, data, stat) =>
          settle(
            error,
            error === null
              ? {
                  data: data === null || data === undefined ? new Uint8Array(0) : new Uint8Array(data),
                  version: stat.version,
                  ctimeMs: ctimeOf(stat),
                }
              : undefined,
          ),
        ),
      new Map([[Exception.NO_NODE, () => undefined]]),
    );
  }

  /** Compare-and-set write: succeeds only when the znode is at `version` (-1 = any). */
  setData(path: string, data: Uint8Array, version: number, options: ZooKeeperCallOptions = {}): Promise<SetDataResult> {
    return this.#call<SetDataResult>(
      "setData",
      path,
      options,
      (client, settle) =>
        client.setData(path, Buffer.from(data.buffer, data.byteOffset, data.byteLength), version, (error, stat) =>
          settle(error, error === null ? { ok: true, version: stat.version } : undefined),
        ),
      new Map<number, () => SetDataResult>([
        [Exception.BAD_VERSION, () => ({ ok: false, reason: "badVersion" })],
        [Exception.NO_NODE, () => ({ ok: false, reason: "noNode" })],
      ]),
    );
  }

  /** Conditional delete: succeeds only when the znode is at `version` (-1 = any). */
  remove(path: string, version: number, options: ZooKeeperCallOptions = {}): Promise<RemoveResult> {
    return this.#call<RemoveResult>(
      "delete",
      path,
      options,
      (client, settle) => client.remove(path, version, (error) => settle(error, { ok: true })),
      new Map<number, () => RemoveResult>([
        [Exception.BAD_VERSION, () => ({ ok: false, reason: "badVersion" })],
        [Exception.NO_NODE, () => ({ ok: false, reason: "noNode" })],
        [Exception.NOT_EMPTY, () => ({ ok: false, reason: "notEmpty" })],
      ]),
    );
  }

  /** Child names of `path`, or `undefined` when it does not exist. */
  getChildren(path: string, options: ZooKeeperCallOptions = {}): Promise<string[] | undefined> {
    return this.#call<string[] | undefined>(
      "getChildren",
      path,
      options,
      (client, settle) => client.getChildren(path, (error, children) => settle(error, children)),
      new Map([[Exception.NO_NODE, () => undefined]]),
    );
  }

  /** Whether `path` exists. */
  exists(path: string, options: ZooKeeperCallOptions = {}): Promise<boolean> {
    return this.#call<boolean>("exists", path, options, (client, settle) =>
      client.exists(path, (error, stat) => settle(error, stat !== null && stat !== undefined)),
    );
  }

  /** Closes the connection (idempotent). Ephemeral nodes of the session disappear. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#client?.close();
      this.#client = undefined;
      this.#connected = undefined;
    }
    return Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function ctimeOf(stat: Stat): number {
  const ctime = stat.ctime;
  return Number(Buffer.from(ctime).readBigInt64BE(0));
}
