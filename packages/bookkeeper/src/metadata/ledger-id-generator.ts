// Ledger id generation exactly as BookKeeper's hierarchical managers do it, so ids never collide with Java
// clients of the same cluster:
//   - short ids: create EPHEMERAL_SEQUENTIAL `<root>/idgen/ID-`, the 10-digit suffix is the id, delete the node;
//     an id ≥ 2^31-1 means the short space is exhausted;
//   - long ids (once `<root>/idgen-long` exists): the highest `<root>/idgen-long/HOB-<10 digits>` directory gives
//     the high 32 bits, an EPHEMERAL_SEQUENTIAL `.../HOB-xxxxxxxxxx/ID-` the low 31 bits; a full HOB directory
//     makes the next one.
// The sequence node's deletion is best effort (it is ephemeral anyway).
import { ErrorCode, NereusError } from "@nereus/core";
import type { ZooKeeperCallOptions, ZooKeeperSession } from "../zookeeper/zookeeper-session.js";

const INT32_MAX = 0x7fff_ffff;
const HOB_PREFIX = "HOB-";

function parseSequence(createdPath: string, prefix: string): number {
  const suffix = createdPath.slice(prefix.length);
  if (!createdPath.startsWith(prefix) || !/^\d+$/.test(suffix)) {
    throw new NereusError(
      ErrorCode.METADATA_INVARIANT_VIOLATION,
      `id generation node ${createdPath} does not extend ${prefix}`,
    );
  }
  return Number(suffix);
}

/**
 * Generates cluster-unique ledger ids through ZooKeeper sequence nodes.
 *
 * Invariants: every returned id was handed out by ZooKeeper's sequence counter exactly once (never reused, even
 * across clients); ids are non-negative int64; a failed call may have consumed an id (gaps are normal).
 */
export class ZooKeeperLedgerIdGenerator {
  readonly #session: ZooKeeperSession;
  readonly #root: string;

  constructor(session: ZooKeeperSession, ledgersRoot: string) {
    this.#session = session;
    this.#root = ledgersRoot;
  }

  /** A new ledger id. */
  async generate(options: ZooKeeperCallOptions = {}): Promise<bigint> {
    const longRoot = `${this.#root}/idgen-long`;
    if (!(await this.#session.exists(longRoot, options))) {
      const id = await this.#sequence(`${this.#root}/idgen/ID-`, options);
      if (id < INT32_MAX) return BigInt(id);
      await this.#session.create(longRoot, new Uint8Array(0), { ...options, createParents: true });
    }
    return this.#generateLong(longRoot, options);
  }

  async #sequence(prefix: string, options: ZooKeeperCallOptions): Promise<number> {
    const created = await this.#session.create(prefix, new Uint8Array(0), {
      ...options,
      mode: "ephemeralSequential",
      createParents: true,
    });
    if (!created.ok)
      throw new NereusError(ErrorCode.METADATA_UNAVAILABLE, `cannot create id generation node under ${prefix}`, {
        retryable: true,
      });
    const id = parseSequence(created.path, prefix);
    void this.#session.remove(created.path, -1).catch(() => undefined);
    return id;
  }

  async #generateLong(longRoot: string, options: ZooKeeperCallOptions): Promise<bigint> {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const children = (await this.#session.getChildren(longRoot, options)) ?? [];
      let high = 0;
      for (const child of children) {
        if (!child.startsWith(HOB_PREFIX)) continue;
        const value = Number(child.slice(HOB_PREFIX.length));
        if (Number.isInteger(value) && value > high) high = value;
      }
      if (high === 0) {
        await this.#session.create(`${longRoot}/${HOB_PREFIX}${"1".padStart(10, "0")}`, new Uint8Array(0), {
          ...options,
          createParents: true,
        });
        continue;
      }
      const hobPath = `${longRoot}/${HOB_PREFIX}${String(high).padStart(10, "0")}`;
      const low = await this.#sequence(`${hobPath}/ID-`, options);
      if (low < INT32_MAX) return (BigInt(high) << 32n) | BigInt(low);
      await this.#session.create(
        `${longRoot}/${HOB_PREFIX}${String(high + 1).padStart(10, "0")}`,
        new Uint8Array(0),
        options,
      );
    }
    throw new NereusError(ErrorCode.METADATA_UNAVAILABLE, "long ledger id generation did not converge", {
      retryable: true,
    });
  }
}
