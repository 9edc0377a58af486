// Wires the BookKeeper WAL of one process (docs/architecture.md §6): the BOOKKEEPER WAL writer, the BOOKKEEPER_ENTRY_RANGE reader
// and core's built-in completion coordinators (STABLE_HEAD, GENERATION_ZERO_VISIBLE), plus any admission hooks the
// composition root adds. Pass `storeOptions()` to `createStreamStore`.
//   BOOKKEEPER_WAL_ONLY          — complete: success at the stable head; reads from BookKeeper.
//   BOOKKEEPER_WAL_ASYNC_OBJECT  — the BookKeeper side is this runtime; the Object generations, their worker and
//                                  the lag admission hook come from @nereus/object-wal (pass the hook in
//                                  `admissionHooks`, and this runtime's `reader` to its worker as a source reader).
//   BOOKKEEPER_WAL_SYNC_OBJECT   — needs a REQUIRED_OBJECT_GENERATION coordinator from @nereus/object-wal.
// Does not own the client or the metadata store; `close()` seals the ledgers this process writes.
import {
  ErrorCode,
  GenerationZeroVisibleCoordinator,
  NereusError,
  StableHeadCoordinator,
  type AdmissionHook,
  type MetadataStore,
  type StoreProviders,
} from "@nereus/core";
import { StreamKeyspace } from "@nereus/core/internal";
import type { BookKeeperClient } from "../client/bookkeeper-client.js";
import type { DigestType } from "../digest/digest-type.js";
import { passwordBytes } from "../digest/master-key.js";
import {
  DEFAULT_ROLLOVER_POLICY,
  type BookKeeperWalContext,
  type LedgerRolloverPolicy,
} from "./bookkeeper-wal-context.js";
import { BookKeeperWalReader } from "./bookkeeper-wal-reader.js";
import { BookKeeperWalStats } from "./bookkeeper-wal-stats.js";
import { BookKeeperWalWriter } from "./bookkeeper-wal-writer.js";

export interface BookKeeperWalRuntimeOptions {
  readonly client: BookKeeperClient;
  /** The metadata store the stream store commits to (writer states, roots and protections live there too). */
  readonly metadata: MetadataStore;
  /** The stream store's cluster. */
  readonly cluster: string;
  /** Names the BookKeeper cluster inside targets (`BOOKKEEPER_ENTRY_RANGE.clusterAlias`). */
  readonly clusterAlias: string;
  /** Default 3/2/2. With 3 bookies, E=3 leaves no spare to replace a failed bookie: use E=2 or add bookies. */
  readonly ensembleSize?: number;
  readonly writeQuorumSize?: number;
  readonly ackQuorumSize?: number;
  /** Password of every ledger (default empty, as Pulsar). */
  readonly password?: string | Uint8Array;
  /** Entry digest (default CRC32C). */
  readonly digestType?: DigestType;
  readonly rollover?: Partial<LedgerRolloverPolicy>;
  /** Admission hooks to install with this runtime (e.g. object-wal's lag admission for BOOKKEEPER_WAL_ASYNC_OBJECT). */
  readonly admissionHooks?: readonly AdmissionHook[];
  /**
   * How long a writer whose takeover has not reached the stream head (it planned the same or a higher epoch but its
   * head CAS did not happen yet) holds off the writer the head names (default 30 s, the default session TTL).
   */
  readonly takeoverGraceMs?: number;
  /** Read handles the reader keeps open (default 1,024). */
  readonly maxOpenLedgers?: number;
  readonly clock?: () => number;
}

/** What `createStreamStore` needs from this runtime. */
export type BookKeeperWalStoreProviders = StoreProviders;

export interface BookKeeperWalRuntime extends BookKeeperWalStoreProviders, AsyncDisposable {
  readonly writer: BookKeeperWalWriter;
  readonly reader: BookKeeperWalReader;
  /** BookKeeper I/O and ledger lifecycle counters of this runtime. */
  readonly stats: BookKeeperWalStats;
  /** The provider lists, for `createStreamStore({ metadata, cluster, writerId, ...runtime.storeOptions() })`. */
  storeOptions(): BookKeeperWalStoreProviders;
  /** Idempotent: refuses new writes, waits for those in flight, seals this process's ledgers. */
  close(): Promise<void>;
}

/** Builds the BookKeeper WAL runtime of one process. Validates the options; no I/O until used. */
export function createBookKeeperWalRuntime(options: BookKeeperWalRuntimeOptions): BookKeeperWalRuntime {
  const ensembleSize = options.ensembleSize ?? 3;
  const writeQuorumSize = options.writeQuorumSize ?? 2;
  const ackQuorumSize = options.ackQuorumSize ?? 2;
  if (
    ![ensembleSize, writeQuorumSize, ackQuorumSize].every(
      (value) => Number.isInteger(value) && value >= 1 && value <= 255,
    ) ||
    ensembleSize < writeQuorumSize ||
    writeQuorumSize < ackQuorumSize
  ) {
    throw invalid(
      `quorums must satisfy 255 ≥ ensemble ≥ write quorum ≥ ack quorum ≥ 1 (got ${String(ensembleSize)}/${String(writeQuorumSize)}/${String(ackQuorumSize)})`,
    );
  }
  if (typeof options.clusterAlias !== "string" || options.clusterAlias.length === 0)
    throw invalid("clusterAlias must be a non-empty string");
  const rollover: LedgerRolloverPolicy = { ...DEFAULT_ROLLOVER_POLICY, ...options.rollover };
  for (const [name, value] of Object.entries(rollover)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw invalid(`rollover.${name} must be a positive safe integer, got ${String(value)}`);
  }
  const takeoverGraceMs = options.takeoverGraceMs ?? 30_000;
  if (!Number.isSafeInteger(takeoverGraceMs) || takeoverGraceMs < 0)
    throw invalid(`takeoverGraceMs must be a non-negative safe integer, got ${String(takeoverGraceMs)}`);
  const stats = new BookKeeperWalStats();
  const password = passwordBytes(options.password ?? "");
  const context: BookKeeperWalContext = {
    client: options.client,
    metadata: options.metadata,
    cluster: options.cluster,
    keyspace: new StreamKeyspace(options.cluster),
    clusterAlias: options.clusterAlias,
    quorums: { ensembleSize, writeQuorumSize, ackQuorumSize },
    password,
    digestType: options.digestType ?? "CRC32C",
    rollover,
    takeoverGraceMs,
    clock: options.clock ?? Date.now,
    stats,
  };
  const writer = new BookKeeperWalWriter(context);
  const reader = new BookKeeperWalReader({
    client: options.client,
    clusterAlias: options.clusterAlias,
    password,
    stats,
    ...(options.maxOpenLedgers === undefined ? {} : { maxOpenLedgers: options.maxOpenLedgers }),
  });
  const providers: BookKeeperWalStoreProviders = {
    walWriters: [writer],
    walReaders: [reader],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
    admissionHooks: [...(options.admissionHooks ?? [])],
  };
  let closed: Promise<void> | undefined;
  const runtime: BookKeeperWalRuntime = {
    ...providers,
    writer,
    reader,
    stats,
    storeOptions: () => providers,
    close: () => {
      closed ??= writer.close();
      return closed;
    },
    [Symbol.asyncDispose]: async () => {
      await runtime.close();
    },
  };
  return runtime;
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `BookKeeper WAL runtime: ${message}`, { retryable: false });
}
