// Ledger metadata in ZooKeeper, as BookKeeper's hierarchical ledger managers keep it: one znode per ledger at the
// layout's path, its bytes in format 3, its znode version as the compare-and-set token. Creation is idempotent
// by cToken (a create retried after a lost response recognises its own metadata); updates are CAS; deletes also
// prune the emptied hierarchy directories, as the Java manager does.
import { ErrorCode, NereusError } from "@nereus/core";
import type { ZooKeeperCallOptions, ZooKeeperSession } from "../zookeeper/zookeeper-session.js";
import { parseLedgerLayout, type LedgerLayout } from "./ledger-layout.js";
import type { LedgerMetadata } from "./ledger-metadata.js";
import { decodeLedgerMetadata, encodeLedgerMetadata } from "./ledger-metadata-serde.js";
import { ledgerPath } from "./ledger-path.js";

const LEDGER_LEAF = /^L\d{4}$/;
const DIGITS = /^\d{2,4}$/;
/** Digit directories above a leaf: 2 in the hierarchical layout, 4 in the long one. */
const MAX_DIRECTORY_DEPTH = 4;

/** Metadata plus the znode facts that go with it. */
export interface VersionedLedgerMetadata {
  readonly metadata: LedgerMetadata;
  /** Znode version: pass it to `write` to compare-and-set. */
  readonly version: number;
  /** Creation time: the stored ctime if any, else the znode's. */
  readonly ctimeMs: number;
}

export type CreateLedgerMetadataResult =
  | { readonly ok: true; readonly version: number }
  | { readonly ok: false; readonly reason: "exists"; readonly current: VersionedLedgerMetadata | undefined };

export type WriteLedgerMetadataResult =
  | { readonly ok: true; readonly version: number }
  | { readonly ok: false; readonly current: VersionedLedgerMetadata | undefined };

/**
 * Reads and writes ledger metadata znodes under one ledgers root.
 *
 * Invariants: `write` changes the znode only if it is still at `expectedVersion`; a lost race returns the current
 * value (or `undefined` if the ledger was deleted) and never overwrites; `create` never overwrites an existing
 * ledger, and reports success for an existing znode only when its cToken equals the one being created.
 */
export class ZooKeeperLedgerMetadataStore {
  readonly #session: ZooKeeperSession;
  readonly #root: string;
  #layout: Promise<LedgerLayout> | undefined;

  constructor(session: ZooKeeperSession, ledgersRoot: string) {
    this.#session = session;
    this.#root = ledgersRoot.endsWith("/") ? ledgersRoot.slice(0, -1) : ledgersRoot;
  }

  /** The ledgers root, e.g. "/ledgers". */
  get ledgersRoot(): string {
    return this.#root;
  }

  /** The cluster's layout from `<root>/LAYOUT` (hierarchical when absent, the BookKeeper default). Cached. */
  layout(options: ZooKeeperCallOptions = {}): Promise<LedgerLayout> {
    if (this.#layout === undefined) {
      const loading = this.#session
        .getData(`${this.#root}/LAYOUT`, options)
        .then((node) =>
          node === undefined ? ("hierarchical" as const) : parseLedgerLayout(new TextDecoder().decode(node.data)),
        );
      loading.catch(() => {
        if (this.#layout === loading) this.#layout = undefined;
      });
      this.#layout = loading;
    }
    return this.#layout;
  }

  /** The znode path of `ledgerId`. */
  async path(ledgerId: bigint, options: ZooKeeperCallOptions = {}): Promise<string> {
    return ledgerPath(this.#root, ledgerId, await this.layout(options));
  }

  /** Creates the metadata of a new ledger (parents created as needed). */
  async create(
    ledgerId: bigint,
    metadata: LedgerMetadata,
    options: ZooKeeperCallOptions = {},
  ): Promise<CreateLedgerMetadataResult> {
    const path = await this.path(ledgerId, options);
    const created = await this.#session.create(path, encodeLedgerMetadata(metadata), {
      ...options,
      createParents: true,
    });
    if (created.ok) return { ok: true, version: 0 };
    const current = await this.read(ledgerId, options);
    if (current !== undefined && metadata.cToken !== undefined && current.metadata.cToken === metadata.cToken) {
      return { ok: true, version: current.version };
    }
    return { ok: false, reason: "exists", current };
  }

  /** The metadata of `ledgerId`, or `undefined` when the ledger does not exist. */
  async read(ledgerId: bigint, options: ZooKeeperCallOptions = {}): Promise<VersionedLedgerMetadata | undefined> {
    const path = await this.path(ledgerId, options);
    const node = await this.#session.getData(path, options);
    if (node === undefined) return undefined;
    let metadata: LedgerMetadata;
    try {
      metadata = decodeLedgerMetadata(node.data);
    } catch (cause) {
      if (NereusError.is(cause)) {
        throw new NereusError(cause.code, `ledger ${String(ledgerId)} at ${path}: ${cause.message}`, {
          cause,
          details: { ...cause.details, path },
        });
      }
      throw cause;
    }
    return { metadata, version: node.version, ctimeMs: metadata.ctimeMs ?? node.ctimeMs };
  }

  /** Compare-and-set update of the metadata of `ledgerId`. */
  async write(
    ledgerId: bigint,
    metadata: LedgerMetadata,
    expectedVersion: number,
    options: ZooKeeperCallOptions = {},
  ): Promise<WriteLedgerMetadataResult> {
    const path = await this.path(ledgerId, options);
    const written = await this.#session.setData(path, encodeLedgerMetadata(metadata), expectedVersion, options);
    if (written.ok) return { ok: true, version: written.version };
    return { ok: false, current: written.reason === "noNode" ? undefined : await this.read(ledgerId, options) };
  }

  /**
   * Every ledger id under the ledgers root, by walking the layout's digit directories (`00/0000/L0001`, or the long
   * layout's five levels); the root's other children (`LAYOUT`, `idgen`, `available`, ...) are skipped. Ledgers
   * created or deleted during the walk may or may not be listed.
   */
  async *listLedgerIds(options: ZooKeeperCallOptions = {}): AsyncGenerator<bigint> {
    yield* this.#walk(this.#root, "", 0, options);
  }

  async *#walk(path: string, digits: string, depth: number, options: ZooKeeperCallOptions): AsyncGenerator<bigint> {
    const children = (await this.#session.getChildren(path, options)) ?? [];
    for (const child of children.sort()) {
      if (depth > 0 && LEDGER_LEAF.test(child)) yield BigInt(`${digits}${child.slice(1)}`);
      else if (depth < MAX_DIRECTORY_DEPTH && DIGITS.test(child)) {
        yield* this.#walk(`${path}/${child}`, `${digits}${child}`, depth + 1, options);
      }
    }
  }

  /**
   * Deletes the metadata of `ledgerId` (at `version`, or any version when omitted) and prunes emptied parent
   * directories. Returns false when the ledger did not exist; a version conflict is METADATA_CONDITION_FAILED.
   */
  async delete(ledgerId: bigint, options: ZooKeeperCallOptions & { version?: number } = {}): Promise<boolean> {
    const path = await this.path(ledgerId, options);
    const removed = await this.#session.remove(path, options.version ?? -1, options);
    if (!removed.ok) {
      if (removed.reason === "noNode") return false;
      throw new NereusError(
        ErrorCode.METADATA_CONDITION_FAILED,
        `ledger ${String(ledgerId)} metadata changed before delete`,
        {
          details: { ledgerId: String(ledgerId), reason: removed.reason },
        },
      );
    }
    let parent = path.slice(0, path.lastIndexOf("/"));
    while (parent.length > this.#root.length && parent.startsWith(`${this.#root}/`)) {
      const pruned = await this.#session
        .remove(parent, -1, options)
        .catch(() => ({ ok: false as const, reason: "notEmpty" as const }));
      if (!pruned.ok) break;
      parent = parent.slice(0, parent.lastIndexOf("/"));
    }
    return true;
  }
}
