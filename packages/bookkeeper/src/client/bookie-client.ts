// Typed bookie operations over a pool of BookieConnections (one per bookie id, addresses resolved through the
// BookieRegistry): add, read (plain, fencing, recovery), LAC read/write. Statuses are interpreted here: OK and
// "no such entry/ledger" are values, everything else is a NereusError from errors/map-bookie-error.ts.
import { ErrorCode, NereusError } from "@nereus/core";
import { mapBookieStatus } from "../errors/map-bookie-error.js";
import type { BookieRegistry } from "../metadata/bookie-registry.js";
import { AddFlag, ReadFlag, type BookieRequestBody, type BookieResponse } from "../protocol/bookie-messages.js";
import { StatusCode } from "../protocol/status-code.js";
import { BookieConnection, type BookieConnectionOptions } from "./bookie-connection.js";

/** Header priority the Java client gives recovery traffic. */
const HIGH_PRIORITY = 1;

export interface BookieCallOptions {
  readonly signal?: AbortSignal;
}

/** A read answer: the stored entry body, or a definite "not here". */
export type BookieReadResult =
  | { readonly found: true; readonly body: Uint8Array; readonly maxLac?: number }
  | { readonly found: false; readonly status: "ENOENTRY" | "ENOLEDGER" };

/** A READ_LAC answer: the explicit LAC record and/or the last stored entry, or a definite "nothing". */
export type BookieReadLacResult =
  | { readonly found: true; readonly lacBody?: Uint8Array; readonly lastEntryBody?: Uint8Array }
  | { readonly found: false; readonly status: "ENOENTRY" | "ENOLEDGER" };

/**
 * Bookie operations for ledger handles.
 *
 * Invariants: one connection per bookie id for the client's lifetime (re-established on demand after a break);
 * an operation rejects only with NereusError; `close()` closes every connection and is idempotent.
 */
export class BookieClient {
  readonly #registry: BookieRegistry;
  readonly #options: BookieConnectionOptions;
  readonly #connections = new Map<string, BookieConnection | Promise<BookieConnection>>();
  #closed = false;

  constructor(registry: BookieRegistry, options: BookieConnectionOptions = {}) {
    this.#registry = registry;
    this.#options = options;
  }

  #connection(bookieId: string, options: BookieCallOptions): BookieConnection | Promise<BookieConnection> {
    if (this.#closed) throw new NereusError(ErrorCode.STORAGE_CLOSED, "BookKeeper client is closed");
    const existing = this.#connections.get(bookieId);
    if (existing !== undefined) return existing;
    const resolving = this.#registry.resolve(bookieId, options).then((address) => {
      const connection = new BookieConnection(bookieId, address, this.#options);
      this.#connections.set(bookieId, connection);
      return connection;
    });
    this.#connections.set(bookieId, resolving);
    resolving.catch(() => {
      if (this.#connections.get(bookieId) === resolving) this.#connections.delete(bookieId);
    });
    return resolving;
  }

  async #send(
    bookieId: string,
    body: BookieRequestBody,
    options: BookieCallOptions & { priority?: number },
  ): Promise<BookieResponse> {
    const connection = await this.#connection(bookieId, options);
    return connection.send(body, options);
  }

  /** Stores one packaged entry; resolves when the bookie acknowledged it (journaled). */
  async addEntry(
    bookieId: string,
    request: {
      ledgerId: bigint;
      entryId: number;
      masterKey: Uint8Array;
      body: readonly Uint8Array[];
      recovery?: boolean;
    },
    options: BookieCallOptions = {},
  ): Promise<void> {
    const response = await this.#send(
      bookieId,
      {
        type: "add",
        ledgerId: request.ledgerId,
        entryId: request.entryId,
        masterKey: request.masterKey,
        body: request.body,
        ...(request.recovery === true ? { flag: AddFlag.RECOVERY_ADD } : {}),
      },
      { ...options, ...(request.recovery === true ? { priority: HIGH_PRIORITY } : {}) },
    );
    const status = response.addResponse?.status ?? response.status;
    if (status !== StatusCode.EOK)
      throw mapBookieStatus(status, "write", { bookieId, ledgerId: request.ledgerId, entryId: request.entryId });
  }

  /**
   * Reads one entry (`entryId = -1`: the bookie's last entry of the ledger). With `fenceKey` the read fences the
   * ledger on this bookie (recovery), sent with high priority.
   */
  async readEntry(
    bookieId: string,
    request: { ledgerId: bigint; entryId: number; fenceKey?: Uint8Array },
    options: BookieCallOptions = {},
  ): Promise<BookieReadResult> {
    const fence = request.fenceKey !== undefined;
    const response = await this.#send(
      bookieId,
      {
        type: "read",
        ledgerId: request.ledgerId,
        entryId: request.entryId,
        ...(fence ? { flag: ReadFlag.FENCE_LEDGER, masterKey: request.fenceKey } : {}),
      },
      { ...options, ...(fence ? { priority: HIGH_PRIORITY } : {}) },
    );
    const read = response.readResponse;
    const status = read?.status ?? response.status;
    if (status === StatusCode.ENOENTRY) return { found: false, status: "ENOENTRY" };
    if (status === StatusCode.ENOLEDGER) return { found: false, status: "ENOLEDGER" };
    if (status !== StatusCode.EOK)
      throw mapBookieStatus(status, "read", { bookieId, ledgerId: request.ledgerId, entryId: request.entryId });
    if (read?.body === undefined) {
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_READ_FAILED,
        `bookie ${bookieId} answered a read of entry ${String(request.entryId)} without a body`,
        { retryable: true },
      );
    }
    return { found: true, body: read.body, ...(read.maxLac === undefined ? {} : { maxLac: read.maxLac }) };
  }

  /** Reads the explicit LAC record and the last entry a bookie holds for a ledger (v3 READ_LAC). */
  async readLac(bookieId: string, ledgerId: bigint, options: BookieCallOptions = {}): Promise<BookieReadLacResult> {
    const response = await this.#send(bookieId, { type: "readLac", ledgerId }, options);
    const read = response.readLacResponse;
    const status = read?.status ?? response.status;
    if (status === StatusCode.ENOENTRY) return { found: false, status: "ENOENTRY" };
    if (status === StatusCode.ENOLEDGER) return { found: false, status: "ENOLEDGER" };
    if (status !== StatusCode.EOK) throw mapBookieStatus(status, "read", { bookieId, ledgerId });
    return {
      found: true,
      ...(read?.lacBody === undefined ? {} : { lacBody: read.lacBody }),
      ...(read?.lastEntryBody === undefined ? {} : { lastEntryBody: read.lastEntryBody }),
    };
  }

  /** Stores an explicit LAC record on a bookie (v3 WRITE_LAC). */
  async writeLac(
    bookieId: string,
    request: { ledgerId: bigint; lac: number; masterKey: Uint8Array; body: Uint8Array },
    options: BookieCallOptions = {},
  ): Promise<void> {
    const response = await this.#send(bookieId, { type: "writeLac", ...request }, options);
    const status = response.writeLacResponse?.status ?? response.status;
    if (status !== StatusCode.EOK) throw mapBookieStatus(status, "write", { bookieId, ledgerId: request.ledgerId });
  }

  /** Closes every connection (idempotent). */
  async close(): Promise<void> {
    this.#closed = true;
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(
      connections.map(async (connection) => (await Promise.resolve(connection).catch(() => undefined))?.close()),
    );
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
