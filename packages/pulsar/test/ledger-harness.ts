// Test fixture of the managed-ledger facade: a real StreamStore and ManagedLedgerFactory over core's in-memory
// metadata store, object store and WAL provider (all with fault injection), and a "restart" that builds new ones
// over the same stores. Test-only.
import {
  GenerationZeroVisibleCoordinator,
  StableHeadCoordinator,
  type StreamStore,
  type StreamStoreOptions,
  type TxnRequest,
  createStreamStore,
} from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { ManagedLedgerFactory, type ManagedLedgerFactoryOptions } from "../src/ledger/managed-ledger-factory.js";

export const CLUSTER = "pulsar-test";

/** True for the head commit of an append (a compared put of a stream head). */
export function isHeadCommit(request: unknown): boolean {
  const txn = request as TxnRequest;
  return txn.compares.length > 0 && txn.writes.some((write) => write.type === "put" && write.key.endsWith("/head"));
}

export class LedgerHarness {
  readonly metadata = new InMemoryMetadataStore();
  readonly objects = new InMemoryObjectStore();
  readonly wal = new MemoryWalProvider({ walKind: "OBJECT" });
  streams!: StreamStore;
  factory!: ManagedLedgerFactory;
  now = 1_700_000_000_000;
  readonly #storeOptions: Partial<StreamStoreOptions>;
  readonly #factoryOptions: Partial<ManagedLedgerFactoryOptions>;

  constructor(
    storeOptions: Partial<StreamStoreOptions> = {},
    factoryOptions: Partial<ManagedLedgerFactoryOptions> = {},
  ) {
    this.#storeOptions = storeOptions;
    this.#factoryOptions = factoryOptions;
    this.#open();
  }

  #open(): void {
    this.streams = createStreamStore({
      metadata: this.metadata,
      cluster: CLUSTER,
      writerId: "pulsar-test",
      walWriters: [this.wal],
      walReaders: [this.wal],
      completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
      clock: () => this.now,
      ...this.#storeOptions,
    });
    this.factory = new ManagedLedgerFactory({
      metadata: this.metadata,
      objects: this.objects,
      streams: this.streams,
      cluster: CLUSTER,
      defaultProfile: "OBJECT_WAL_SYNC_OBJECT",
      clock: () => this.now,
      ledgerLimits: { retryMinDelayMs: 1, retryMaxDelayMs: 5 },
      ...this.#factoryOptions,
    });
  }

  /** Closes factory and store and opens new ones over the same metadata, objects and WAL (a process restart). */
  async restart(): Promise<void> {
    await this.factory.close();
    await this.streams.close();
    this.#open();
  }

  async close(): Promise<void> {
    await this.factory.close();
    await this.streams.close();
  }
}
