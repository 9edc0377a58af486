// Entry point of the BookKeeper client: one ZooKeeper session (ledger metadata, id generation, bookie
// discovery) and one connection per bookie, shared by every ledger handle it creates or opens. Creating a ledger
// writes its metadata before any entry reaches a bookie (bookies garbage-collect data of ledgers without
// metadata); opening with recovery is the only way a new owner stops an old writer.
import { randomBytes } from "node:crypto";
import { ErrorCode, NereusError } from "@nereus/core";
import { createDigestManager } from "../digest/digest-manager.js";
import type { DigestType } from "../digest/digest-type.js";
import { deriveMasterKey, passwordBytes } from "../digest/master-key.js";
import { BookieRegistry } from "../metadata/bookie-registry.js";
import { ZooKeeperLedgerIdGenerator } from "../metadata/ledger-id-generator.js";
import type { LedgerMetadata } from "../metadata/ledger-metadata.js";
import { ZooKeeperLedgerMetadataStore, type VersionedLedgerMetadata } from "../metadata/ledger-metadata-store.js";
import { ZooKeeperSession } from "../zookeeper/zookeeper-session.js";
import { BookieClient } from "./bookie-client.js";
import { LedgerEntryReader } from "./ledger-entry-reader.js";
import { LedgerHandle, type LedgerHandleContext } from "./ledger-handle.js";
import { recoverLedger } from "./ledger-recovery.js";
import { chooseBookies } from "./placement.js";
import { ReadOnlyLedgerHandle } from "./read-only-ledger-handle.js";

/** How to reach a BookKeeper cluster. */
export interface BookKeeperClientOptions {
  /** ZooKeeper connect string, e.g. "127.0.0.1:2181". */
  readonly zooKeeperConnectString: string;
  /** Ledgers root in ZooKeeper (default "/ledgers"). */
  readonly ledgersRoot?: string;
  readonly zooKeeperSessionTimeoutMs?: number;
  /** Bookie TCP connect deadline (default 5 000 ms). */
  readonly connectTimeoutMs?: number;
  /** Deadline of one bookie request (default 10 000 ms); an add that misses it triggers an ensemble change. */
  readonly requestTimeoutMs?: number;
}

/** Parameters of a new ledger. */
export interface CreateLedgerOptions {
  /** Bookies per segment (default 3). */
  readonly ensembleSize?: number;
  /** Replicas per entry (default 2). */
  readonly writeQuorumSize?: number;
  /** Acknowledgements per entry (default 2). */
  readonly ackQuorumSize?: number;
  /** Ledger password (default empty, as Pulsar). Strings are UTF-8. */
  readonly password?: string | Uint8Array;
  /** Default CRC32C. */
  readonly digestType?: DigestType;
  readonly customMetadata?: Readonly<Record<string, Uint8Array>>;
  /** Create with this id instead of generating one; fails with METADATA_CONDITION_FAILED if it exists. */
  readonly ledgerId?: bigint;
  readonly signal?: AbortSignal;
}

/** How to open an existing ledger. */
export interface OpenLedgerOptions {
  /** true: fence the ledger, recover its tail and close it (the only way to stop another writer). */
  readonly recovery: boolean;
  /** Must equal the ledger's password (default empty). */
  readonly password?: string | Uint8Array;
  readonly signal?: AbortSignal;
}

export interface ClientCallOptions {
  readonly signal?: AbortSignal;
}

function positiveToken(): bigint {
  const token = randomBytes(8).readBigUInt64BE(0) & ((1n << 63n) - 1n);
  return token === 0n ? 1n : token;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/**
 * A BookKeeper client.
 *
 * Invariants: metadata of a created ledger exists before its first add is sent; ledger ids come from the
 * cluster's own id generator (never reused); `close()` closes the ZooKeeper session and every bookie connection
 * and is idempotent; handles must not be used after their client is closed.
 */
export class BookKeeperClient {
  readonly #session: ZooKeeperSession;
  readonly #context: LedgerHandleContext;
  readonly #ids: ZooKeeperLedgerIdGenerator;
  #closed = false;

  constructor(options: BookKeeperClientOptions) {
    const root = options.ledgersRoot ?? "/ledgers";
    this.#session = new ZooKeeperSession(options.zooKeeperConnectString, {
      ...(options.zooKeeperSessionTimeoutMs === undefined
        ? {}
        : { sessionTimeoutMs: options.zooKeeperSessionTimeoutMs }),
    });
    const registry = new BookieRegistry(this.#session, root);
    this.#context = {
      registry,
      store: new ZooKeeperLedgerMetadataStore(this.#session, root),
      bookies: new BookieClient(registry, {
        ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
        ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
      }),
    };
    this.#ids = new ZooKeeperLedgerIdGenerator(this.#session, root);
  }

  #checkOpen(): void {
    if (this.#closed) throw new NereusError(ErrorCode.STORAGE_CLOSED, "BookKeeper client is closed");
  }

  /** Ids of the bookies registered as writable right now. */
  writableBookies(options: ClientCallOptions = {}): Promise<string[]> {
    this.#checkOpen();
    return this.#context.registry.writableBookies(options);
  }

  /** Creates a ledger (metadata first, OPEN, one segment at entry 0) and returns its writer. */
  async createLedger(options: CreateLedgerOptions = {}): Promise<LedgerHandle> {
    this.#checkOpen();
    const ensembleSize = options.ensembleSize ?? 3;
    const writeQuorumSize = options.writeQuorumSize ?? 2;
    const ackQuorumSize = options.ackQuorumSize ?? 2;
    if (
      ![ensembleSize, writeQuorumSize, ackQuorumSize].every(Number.isInteger) ||
      !(ensembleSize >= writeQuorumSize && writeQuorumSize >= ackQuorumSize && ackQuorumSize >= 1)
    ) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `quorums must satisfy ensemble ≥ write quorum ≥ ack quorum ≥ 1 (got ${String(ensembleSize)}/${String(writeQuorumSize)}/${String(ackQuorumSize)})`,
      );
    }
    const call = options.signal === undefined ? {} : { signal: options.signal };
    const password = passwordBytes(options.password ?? "");
    const digestType = options.digestType ?? "CRC32C";
    const ensemble = chooseBookies(await this.#context.registry.writableBookies(call), ensembleSize);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const ledgerId = options.ledgerId ?? (await this.#ids.generate(call));
      const metadata: LedgerMetadata = {
        ensembleSize,
        writeQuorumSize,
        ackQuorumSize,
        state: "OPEN",
        lastEntryId: -1,
        length: 0,
        segments: [{ firstEntryId: 0, ensemble }],
        digestType,
        password,
        customMetadata: options.customMetadata ?? {},
        cToken: positiveToken(),
      };
      const created = await this.#context.store.create(ledgerId, metadata, call);
      if (created.ok) {
        return new LedgerHandle(this.#context, {
          ledgerId,
          metadata,
          version: created.version,
          digest: createDigestManager(digestType, password),
          masterKey: deriveMasterKey(password),
        });
      }
      if (options.ledgerId !== undefined) {
        throw new NereusError(ErrorCode.METADATA_CONDITION_FAILED, `ledger ${String(ledgerId)} already exists`, {
          retryable: false,
          details: { ledgerId: String(ledgerId), reason: "ledgerExists" },
        });
      }
    }
    throw new NereusError(
      ErrorCode.METADATA_INVARIANT_VIOLATION,
      "generated ledger ids kept colliding with existing ledgers",
    );
  }

  /**
   * Opens a ledger for reading. With `recovery: true` the ledger is fenced, its tail recovered and it is closed
   * first (see ledger-recovery.ts); the old writer's next add fails with FENCED_APPEND.
   * @throws PRIMARY_WAL_TARGET_NOT_FOUND when the ledger does not exist; PRIMARY_WAL_READ_FAILED (not retryable)
   *   when the password differs from the ledger's.
   */
  async openLedger(ledgerId: bigint, options: OpenLedgerOptions): Promise<ReadOnlyLedgerHandle> {
    this.#checkOpen();
    const call = options.signal === undefined ? {} : { signal: options.signal };
    const current = await this.#context.store.read(ledgerId, call);
    if (current === undefined) {
      throw new NereusError(ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND, `ledger ${String(ledgerId)} does not exist`, {
        retryable: false,
        details: { ledgerId: String(ledgerId) },
      });
    }
    const password = passwordBytes(options.password ?? "");
    if (!equalBytes(password, current.metadata.password)) {
      throw new NereusError(ErrorCode.PRIMARY_WAL_READ_FAILED, `wrong password for ledger ${String(ledgerId)}`, {
        retryable: false,
        details: { ledgerId: String(ledgerId) },
      });
    }
    const digest = createDigestManager(current.metadata.digestType, password);
    let opened: VersionedLedgerMetadata = current;
    let lastAddConfirmed: number;
    if (options.recovery) {
      opened = (await recoverLedger(this.#context, ledgerId, current, digest, deriveMasterKey(password), call)).closed;
      lastAddConfirmed = opened.metadata.lastEntryId;
    } else if (current.metadata.state === "CLOSED") {
      lastAddConfirmed = current.metadata.lastEntryId;
    } else {
      lastAddConfirmed = (
        await new LedgerEntryReader(this.#context.bookies, ledgerId, digest).probeLastEntries(current.metadata, call)
      ).lastAddConfirmed;
    }
    return new ReadOnlyLedgerHandle(this.#context, {
      ledgerId,
      metadata: opened.metadata,
      version: opened.version,
      digest,
      lastAddConfirmed,
    });
  }

  /** The metadata of a ledger, or `undefined` when it does not exist. */
  getLedgerMetadata(ledgerId: bigint, options: ClientCallOptions = {}): Promise<VersionedLedgerMetadata | undefined> {
    this.#checkOpen();
    return this.#context.store.read(ledgerId, options);
  }

  /** Every ledger id the cluster's metadata holds (a walk of the ledgers root; see the metadata store). */
  listLedgerIds(options: ClientCallOptions = {}): AsyncGenerator<bigint> {
    this.#checkOpen();
    return this.#context.store.listLedgerIds(options);
  }

  /**
   * Deletes a ledger's metadata; bookies garbage-collect its entries on their next GC cycle. Returns false when
   * it did not exist. Not conditional on the ledger's state (as BookKeeper's own delete).
   */
  deleteLedger(ledgerId: bigint, options: ClientCallOptions = {}): Promise<boolean> {
    this.#checkOpen();
    return this.#context.store.delete(ledgerId, options);
  }

  /** Closes the ZooKeeper session and the bookie connections (idempotent). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#context.bookies.close();
    await this.#session.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Creates a client for the cluster whose metadata lives at `options.ledgersRoot` in ZooKeeper. */
export function createBookKeeperClient(options: BookKeeperClientOptions): BookKeeperClient {
  return new BookKeeperClient(options);
}
