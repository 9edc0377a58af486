// Test support for the BookKeeper WAL integration tests: a client per "process" on a set of real bookies, WAL
// runtimes over a shared metadata store, and raw bookie access to overwrite the stored bytes of a target (to prove
// reads verify the range checksum instead of returning wrong data).
import { randomBytes } from "node:crypto";
import type { BookKeeperEntryRangeTarget, MetadataStore, ReadEntry, ReadTarget, StreamStore } from "@nereus/core";
import type { RunningServices } from "@nereus/test-services";
import { BookieClient } from "../../src/client/bookie-client.js";
import { createBookKeeperClient, type BookKeeperClient } from "../../src/client/bookkeeper-client.js";
import { createDigestManager } from "../../src/digest/digest-manager.js";
import { packageEntry } from "../../src/digest/entry-codec.js";
import { deriveMasterKey } from "../../src/digest/master-key.js";
import { BookieRegistry } from "../../src/metadata/bookie-registry.js";
import { ZooKeeperLedgerMetadataStore } from "../../src/metadata/ledger-metadata-store.js";
import { ZooKeeperSession } from "../../src/zookeeper/zookeeper-session.js";
import {
  createBookKeeperWalRuntime,
  type BookKeeperWalRuntime,
  type BookKeeperWalRuntimeOptions,
} from "../../src/wal/create-bookkeeper-wal-runtime.js";
import { encodeEntryFrame } from "../../src/wal/entry-frame.js";

export const TEST_PASSWORD = "nereus-test";
export const TEST_ALIAS = "bk-test";

/** Clients, runtimes and raw bookie access on one set of bookies; `close()` releases everything it made. */
export class BookKeeperWalKit {
  readonly services: RunningServices;
  readonly #clients: BookKeeperClient[] = [];
  readonly #runtimes: BookKeeperWalRuntime[] = [];
  readonly #session: ZooKeeperSession;
  readonly rawBookies: BookieClient;

  constructor(services: RunningServices) {
    this.services = services;
    this.#session = new ZooKeeperSession(services.zookeeper.connectString);
    this.rawBookies = new BookieClient(new BookieRegistry(this.#session, services.bookkeeper.zkLedgersRoot));
  }

  /** A new client (one per simulated process). */
  client(requestTimeoutMs = 5_000): BookKeeperClient {
    const client = createBookKeeperClient({
      zooKeeperConnectString: this.services.zookeeper.connectString,
      ledgersRoot: this.services.bookkeeper.zkLedgersRoot,
      requestTimeoutMs,
    });
    this.#clients.push(client);
    return client;
  }

  /** A WAL runtime with its own client, over `metadata` and `cluster` (E=3 Qw=2 Qa=2 unless overridden). */
  runtime(
    metadata: MetadataStore,
    cluster: string,
    overrides: Partial<BookKeeperWalRuntimeOptions> = {},
  ): BookKeeperWalRuntime {
    const runtime = createBookKeeperWalRuntime({
      client: overrides.client ?? this.client(),
      metadata,
      cluster,
      clusterAlias: TEST_ALIAS,
      ensembleSize: 3,
      writeQuorumSize: 2,
      ackQuorumSize: 2,
      password: TEST_PASSWORD,
      ...overrides,
    });
    this.#runtimes.push(runtime);
    return runtime;
  }

  /**
   * Makes every read of `target` return other bytes with valid entry digests, so only the range checksum can
   * notice. Bookies keep the first copy of an entry id, so instead of overwriting replicas this forges each entry
   * on the ensemble bookie outside its write set and rotates the ledger's (single-segment, E=3 Qw=2) ensemble in
   * ZooKeeper so that bookie comes first in every write set of the range.
   */
  async corrupt(target: ReadTarget): Promise<void> {
    if (target.type !== "BOOKKEEPER_ENTRY_RANGE") throw new Error("not a BookKeeper target");
    const range: BookKeeperEntryRangeTarget = target;
    const ledgerId = BigInt(range.ledgerId);
    const store = new ZooKeeperLedgerMetadataStore(this.#session, this.services.bookkeeper.zkLedgersRoot);
    const current = await store.read(ledgerId);
    const metadata = current?.metadata;
    const segment = metadata?.segments[0];
    if (
      current === undefined ||
      metadata === undefined ||
      segment === undefined ||
      metadata.segments.length !== 1 ||
      metadata.ensembleSize !== 3 ||
      metadata.writeQuorumSize !== 2
    ) {
      throw new Error(`corrupt() supports single-segment E=3 Qw=2 ledgers only (ledger ${range.ledgerId})`);
    }
    const digest = createDigestManager(metadata.digestType, TEST_PASSWORD);
    const masterKey = deriveMasterKey(TEST_PASSWORD);
    const old = segment.ensemble;
    for (let entryId = range.firstEntryId; entryId < range.firstEntryId + range.entryCount; entryId++) {
      const outside = old[(entryId + 2) % 3] as string;
      const forged = encodeEntryFrame(1, new TextEncoder().encode(`forged-${String(entryId)}`));
      const body = packageEntry({ ledgerId, entryId, lastAddConfirmed: entryId - 1, length: 0 }, forged, digest);
      await this.rawBookies.addEntry(outside, { ledgerId, entryId, masterKey, body });
    }
    const rotated = [old[2], old[0], old[1]] as string[];
    const written = await store.write(
      ledgerId,
      { ...metadata, segments: [{ firstEntryId: segment.firstEntryId, ensemble: rotated }] },
      current.version,
    );
    if (!written.ok) throw new Error(`ledger ${range.ledgerId} metadata changed while corrupting it`);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.#runtimes.map((runtime) => runtime.close()));
    await Promise.allSettled(this.#clients.map((client) => client.close()));
    await this.rawBookies.close();
    await this.#session.close();
  }
}

/** A fresh cluster name (tests share one metadata store or one BookKeeper cluster). */
export function freshCluster(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString("hex")}`;
}

/** Every entry of a stream from `from` to its end (a read returns at most 64 committed ranges: page through). */
export async function readAll(store: StreamStore, streamId: string, from = 0): Promise<ReadEntry[]> {
  const entries: ReadEntry[] = [];
  for (let offset = from; ;) {
    const page = await store.read(streamId, offset, { maxRecords: 10_000 });
    entries.push(...page.entries);
    if (page.endOfStream) return entries;
    offset = page.nextOffset;
  }
}
