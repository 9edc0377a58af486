// Bookie discovery from ZooKeeper: writable bookies are the children of `<root>/available` (minus the
// `readonly` child, which is a directory, not a bookie); read-only ones are under `<root>/available/readonly`.
// A bookie id resolves to a TCP address through the `bookie-rpc` endpoint of its registration payload
// (BookieServiceInfoFormat), falling back to parsing the id as host:port, as the Java resolver does.
import { ErrorCode, NereusError } from "@nereus/core";
import { ProtoReader } from "../protobuf/proto-reader.js";
import type { ZooKeeperCallOptions, ZooKeeperSession } from "../zookeeper/zookeeper-session.js";

/** Where to connect to a bookie. */
export interface BookieAddress {
  readonly host: string;
  readonly port: number;
}

const READONLY = "readonly";

/** Parses "host:port" (IPv6 hosts in brackets); `undefined` if it is not of that form. */
export function parseBookieId(id: string): BookieAddress | undefined {
  const at = id.lastIndexOf(":");
  if (at <= 0) return undefined;
  const port = Number(id.slice(at + 1));
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return undefined;
  const host = id.slice(0, at).replace(/^\[(.*)\]$/, "$1");
  return { host, port };
}

/** The `bookie-rpc` endpoint of a BookieServiceInfoFormat payload (endpoints:6 { id:1, port:2, host:3, protocol:4 }). */
export function parseBookieServiceInfo(bytes: Uint8Array): BookieAddress | undefined {
  const reader = new ProtoReader(bytes, "BookieServiceInfoFormat");
  for (let tag = reader.next(); tag !== undefined; tag = reader.next()) {
    if (tag.field !== 6) {
      reader.skip();
      continue;
    }
    const endpoint = reader.message("endpoint");
    let host: string | undefined;
    let port: number | undefined;
    let protocol: string | undefined;
    for (let inner = endpoint.next(); inner !== undefined; inner = endpoint.next()) {
      if (inner.field === 2) port = endpoint.int32();
      else if (inner.field === 3) host = endpoint.string();
      else if (inner.field === 4) protocol = endpoint.string();
      else endpoint.skip();
    }
    if (protocol === "bookie-rpc" && host !== undefined && host !== "" && port !== undefined && port > 0)
      return { host, port };
  }
  return undefined;
}

/**
 * Lists and resolves bookies of one cluster.
 *
 * Invariants: `writableBookies()` reflects ZooKeeper at call time (never cached); resolved addresses are cached
 * per bookie id (a bookie id's address does not change while it is registered).
 */
export class BookieRegistry {
  readonly #session: ZooKeeperSession;
  readonly #available: string;
  readonly #addresses = new Map<string, BookieAddress>();

  constructor(session: ZooKeeperSession, ledgersRoot: string) {
    this.#session = session;
    this.#available = `${ledgersRoot.endsWith("/") ? ledgersRoot.slice(0, -1) : ledgersRoot}/available`;
  }

  /** Ids of the bookies currently registered as writable. */
  async writableBookies(options: ZooKeeperCallOptions = {}): Promise<string[]> {
    const children = await this.#session.getChildren(this.#available, options);
    if (children === undefined) {
      throw new NereusError(
        ErrorCode.METADATA_UNAVAILABLE,
        `${this.#available} does not exist: no BookKeeper cluster at this ledgers root`,
        { retryable: true },
      );
    }
    return children.filter((child) => child !== READONLY).sort();
  }

  /** Ids of the bookies currently registered as read-only. */
  async readOnlyBookies(options: ZooKeeperCallOptions = {}): Promise<string[]> {
    return ((await this.#session.getChildren(`${this.#available}/${READONLY}`, options)) ?? []).sort();
  }

  /** The address of `bookieId`: its registered bookie-rpc endpoint, else the id parsed as host:port. */
  async resolve(bookieId: string, options: ZooKeeperCallOptions = {}): Promise<BookieAddress> {
    const cached = this.#addresses.get(bookieId);
    if (cached !== undefined) return cached;
    let resolved: BookieAddress | undefined;
    for (const path of [`${this.#available}/${bookieId}`, `${this.#available}/${READONLY}/${bookieId}`]) {
      const node = await this.#session.getData(path, options);
      if (node !== undefined && node.data.length > 0) {
        try {
          resolved = parseBookieServiceInfo(node.data);
        } catch {
          resolved = undefined; // Older bookies register without a payload or with another format.
        }
        if (resolved !== undefined) break;
      }
    }
    resolved ??= parseBookieId(bookieId);
    if (resolved === undefined) {
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_READ_FAILED,
        `bookie ${bookieId} has no registered endpoint and is not host:port`,
        {
          retryable: true,
          details: { bookieId },
        },
      );
    }
    this.#addresses.set(bookieId, resolved);
    return resolved;
  }
}
