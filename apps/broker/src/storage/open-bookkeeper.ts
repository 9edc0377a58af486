// The BookKeeper side of the storage stack, opened only when `storage.bookkeeper` is configured: a BookKeeper client
// on the cluster's ZooKeeper, checked at start-up — ZooKeeper must list the writable bookies within
// `startupTimeoutMs`, and there must be at least `ensembleSize` of them — and the BookKeeper WAL runtime over it
// (the WAL writer and the BOOKKEEPER_ENTRY_RANGE reader of the three BookKeeper profiles). Each failed check is a
// one-line StartupError naming the ZooKeeper, the ledgers root and what was missing. `close()` seals the ledgers
// this broker writes, then closes the client.
import {
  type BookKeeperClient,
  type BookKeeperWalRuntime,
  createBookKeeperClient,
  createBookKeeperWalRuntime,
} from "@nereus/bookkeeper";
import type { MetadataStore } from "@nereus/core";
import type { BookKeeperConfig } from "../config/bookkeeper-config.js";
import { StartupError, reasonOf } from "../errors/startup-error.js";

/** The opened BookKeeper client and WAL runtime. */
export interface OpenedBookKeeper {
  readonly client: BookKeeperClient;
  readonly runtime: BookKeeperWalRuntime;
  /** For the start-up log line (no password). */
  readonly summary: Readonly<Record<string, unknown>>;
  /** Seals this broker's ledgers, then closes the client (idempotent). */
  close(): Promise<void>;
}

/** Where the cluster is, for messages: "ZooKeeper zk:2181 (ledgers root /ledgers)". */
function whereIs(spec: BookKeeperConfig): string {
  return `ZooKeeper ${spec.zooKeeper} (ledgers root ${spec.ledgersRoot})`;
}

/** The writable bookies, within the start-up bound; a StartupError when ZooKeeper does not list them. */
async function writableBookies(client: BookKeeperClient, spec: BookKeeperConfig): Promise<string[]> {
  const deadline = AbortSignal.timeout(spec.startupTimeoutMs);
  try {
    return await client.writableBookies({ signal: deadline });
  } catch (error) {
    const reason = deadline.aborted
      ? `no answer within ${String(spec.startupTimeoutMs)} ms (storage.bookkeeper.startupTimeoutMs)`
      : reasonOf(error);
    throw new StartupError(`cannot list the BookKeeper bookies from ${whereIs(spec)}: ${reason}`, { cause: error });
  }
}

/** Opens and checks the BookKeeper side for `cluster`; throws StartupError (having closed the client) when unusable. */
export async function openBookKeeper(
  spec: BookKeeperConfig,
  metadata: MetadataStore,
  cluster: string,
): Promise<OpenedBookKeeper> {
  const client = createBookKeeperClient({
    zooKeeperConnectString: spec.zooKeeper,
    ledgersRoot: spec.ledgersRoot,
    zooKeeperSessionTimeoutMs: spec.zooKeeperSessionTimeoutMs,
    connectTimeoutMs: spec.connectTimeoutMs,
    requestTimeoutMs: spec.requestTimeoutMs,
  });
  let bookies: string[];
  try {
    bookies = await writableBookies(client, spec);
    if (bookies.length < spec.ensembleSize) {
      throw new StartupError(
        `BookKeeper at ${whereIs(spec)} has ${String(bookies.length)} writable bookie(s), fewer than the ensemble size ${String(spec.ensembleSize)} (storage.bookkeeper.ensembleSize)`,
      );
    }
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  const runtime = createBookKeeperWalRuntime({
    client,
    metadata,
    cluster,
    clusterAlias: spec.clusterAlias,
    ensembleSize: spec.ensembleSize,
    writeQuorumSize: spec.writeQuorum,
    ackQuorumSize: spec.ackQuorum,
    password: spec.password,
    digestType: spec.digestType,
    rollover: spec.ledgerRollover,
  });
  let closed: Promise<void> | undefined;
  return {
    client,
    runtime,
    summary: {
      bookkeeper: spec.zooKeeper,
      bookkeeperLedgersRoot: spec.ledgersRoot,
      bookkeeperQuorums: `${String(spec.ensembleSize)}/${String(spec.writeQuorum)}/${String(spec.ackQuorum)}`,
      bookkeeperDigest: spec.digestType,
      bookies: bookies.length,
    },
    close() {
      closed ??= (async () => {
        try {
          await runtime.close();
        } finally {
          await client.close();
        }
      })();
      return closed;
    },
  };
}
