// Test harness of the append protocol: wires StreamStores over one MetadataStore (a fresh cluster name per harness,
// so tests can share a real etcd) with in-memory WAL providers (or the WAL providers a caller supplies, e.g. a real
// BookKeeper runtime) and the built-in completion coordinators, opens
// "processes" (stores) on the same state, and reads the durable state back for assertions (head, reachable
// commits, index entries). Test-only.
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { GenerationZeroVisibleCoordinator } from "../completion/generation-zero-visible-coordinator.js";
import { StableHeadCoordinator } from "../completion/stable-head-coordinator.js";
import type { AppendBatch } from "../domain/append-types.js";
import type { CommitIntent, OffsetIndexEntry } from "../domain/commit-records.js";
import type { StreamHead } from "../domain/stream-head.js";
import { AppendFailedError, type AppendOutcome } from "../errors/append-outcome.js";
import type { ErrorCode } from "../errors/error-code.js";
import { walkCommitChain } from "../commit-chain/walk-commit-chain.js";
import type { ReadTarget } from "../domain/read-target.js";
import type { CompletionCoordinator } from "../spi/completion.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { WalReader, WalWriter } from "../spi/wal.js";
import { createStreamStore } from "../stream-store/create-stream-store.js";
import { StreamKeyspace } from "../records/stream-keyspace.js";
import type { StreamStore } from "../stream-store/stream-store.js";
import type { StreamStoreOptions } from "../stream-store/stream-store-options.js";
import { MemoryWalProvider } from "./memory-wal-provider.js";

/** Persist faults the conformance suite injects. */
export type PersistFaultMode = "fail-before-persist" | "persist-then-lose-response";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What an expected append failure must look like. */
export interface ExpectedAppendFailure {
  readonly code: ErrorCode;
  readonly outcome: AppendOutcome;
  readonly retryable?: boolean;
}

/**
 * The WAL providers a harness wires into every store it opens. Must write and read both WAL kinds (OBJECT and
 * BOOKKEEPER) — combine a real provider with an in-memory one for the other kind. The optional members are
 * capabilities: tests that need one are registered only when it is present.
 */
export interface AppendProtocolWal {
  readonly walWriters: readonly WalWriter[];
  readonly walReaders: readonly WalReader[];
  /** Default: STABLE_HEAD and GENERATION_ZERO_VISIBLE. */
  readonly completionCoordinators?: readonly CompletionCoordinator[];
  /** Physical WAL I/O so far (only grows): proves a refusal came before any WAL I/O. */
  walIo(): number;
  /** `prepare` calls so far (only grows). */
  prepares?(): number;
  /** Makes the stored bytes of `target` (an OBJECT_SLICE or BOOKKEEPER_ENTRY_RANGE) read back differently, so its checksum must catch it. */
  corrupt?(target: ReadTarget): void | Promise<void>;
  /** Fault injection on the writer of OBJECT_WAL_SYNC_OBJECT: the next persist fails that way; `targetCount` counts stored targets. */
  readonly objectPersistFaults?: {
    add(mode: PersistFaultMode): void;
    targetCount(): number;
  };
}

/** The default WAL of a harness: the two in-memory reference providers, with every capability. */
export function memoryAppendProtocolWal(
  objectWal: MemoryWalProvider,
  bookkeeperWal: MemoryWalProvider,
): AppendProtocolWal {
  return {
    walWriters: [objectWal, bookkeeperWal],
    walReaders: [objectWal, bookkeeperWal],
    walIo: () => objectWal.stats.physicalIo + bookkeeperWal.stats.physicalIo,
    prepares: () => objectWal.stats.prepares + bookkeeperWal.stats.prepares,
    corrupt: (target) => (target.type === "OBJECT_SLICE" ? objectWal : bookkeeperWal).corrupt(target),
    objectPersistFaults: {
      add: (mode) => objectWal.faults.add({ op: "persist", mode }),
      targetCount: () => objectWal.targetCount,
    },
  };
}

/**
 * One isolated cluster on a metadata store, plus shared WALs (in-memory unless the caller supplies `wal`). Invariant: every store it opens uses the
 * same cluster, metadata and WAL providers, so a new store models a restarted (or second) process.
 */
export class AppendProtocolHarness implements AsyncDisposable {
  readonly metadata: MetadataStore;
  readonly cluster: string;
  readonly keyspace: StreamKeyspace;
  readonly objectWal = new MemoryWalProvider({ walKind: "OBJECT" });
  readonly bookkeeperWal = new MemoryWalProvider({ walKind: "BOOKKEEPER" });
  /** The WAL every store uses; `objectWal`/`bookkeeperWal` are wired only when no `wal` was supplied. */
  readonly wal: AppendProtocolWal;
  readonly #stores = new Set<StreamStore>();

  constructor(
    metadata: MetadataStore,
    cluster = `conformance-${randomBytes(6).toString("hex")}`,
    wal?: AppendProtocolWal,
  ) {
    this.metadata = metadata;
    this.cluster = cluster;
    this.keyspace = new StreamKeyspace(cluster);
    this.wal = wal ?? memoryAppendProtocolWal(this.objectWal, this.bookkeeperWal);
  }

  /** Options of a store with every built-in provider installed (override any of them). */
  options(overrides: Partial<StreamStoreOptions> = {}): StreamStoreOptions {
    return {
      metadata: this.metadata,
      cluster: this.cluster,
      writerId: "writer-a",
      walWriters: this.wal.walWriters,
      walReaders: this.wal.walReaders,
      completionCoordinators: this.wal.completionCoordinators ?? [
        new StableHeadCoordinator(),
        new GenerationZeroVisibleCoordinator(),
      ],
      ...overrides,
    };
  }

  /** Opens a store ("process"); closed by `dispose`. */
  open(overrides: Partial<StreamStoreOptions> = {}): StreamStore {
    const store = createStreamStore(this.options(overrides));
    this.#stores.add(store);
    return store;
  }

  /** Physical WAL I/O of the harness's providers so far. */
  walIo(): number {
    return this.wal.walIo();
  }

  /** The durable head, read directly from metadata. */
  async head(streamId: string): Promise<StreamHead> {
    const stored = await this.metadata.get(this.keyspace.headKey(streamId));
    if (stored === undefined) throw new Error(`no head for ${streamId}`);
    return this.keyspace.decodeHead(stored).head;
  }

  /** Every commit reachable from the head, newest first (validating the chain). */
  async reachableCommits(streamId: string): Promise<CommitIntent[]> {
    const head = await this.head(streamId);
    const commits: CommitIntent[] = [];
    const anchor = {
      commitId: head.lastCommitId,
      offsetEnd: head.committedEndOffset,
      commitVersion: head.commitVersion,
      cumulativeSize: head.cumulativeSize,
    };
    for await (const intent of walkCommitChain(this.metadata, this.keyspace, streamId, anchor)) commits.push(intent);
    return commits;
  }

  /** Offset index entries of the stream in key order. */
  async indexEntries(streamId: string): Promise<OffsetIndexEntry[]> {
    const page = await this.metadata.scan(this.keyspace.indexPrefix(streamId), { limit: 10_000 });
    return page.items.map((item) => this.keyspace.decodeIndex(item));
  }

  /** Whether the commit intent with this id exists (reachable or not). */
  async intentExists(streamId: string, commitId: string): Promise<boolean> {
    return (await this.metadata.get(this.keyspace.intentKey(streamId, commitId))) !== undefined;
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.#stores].map((store) => store.close()));
    this.#stores.clear();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}

/** A batch of opaque entries, one per text. */
export function opaqueBatch(...texts: string[]): AppendBatch {
  return {
    payloadFormat: "OPAQUE_RECORD_BATCH",
    entries: texts.map((text) => ({ payload: encoder.encode(text), recordCount: 1 })),
  };
}

/** A batch of ranged (Kafka-like) entries: `[text, recordCount]` pairs. */
export function rangedBatch(...entries: ReadonlyArray<readonly [string, number]>): AppendBatch {
  return {
    payloadFormat: "KAFKA_RECORD_BATCH",
    entries: entries.map(([text, recordCount]) => ({ payload: encoder.encode(text), recordCount })),
  };
}

/** UTF-8 text of a payload. */
export function text(payload: Uint8Array | undefined): string {
  return payload === undefined ? "<none>" : decoder.decode(payload);
}

/** Awaits `promise`, expects an `AppendFailedError` matching `expected`, and returns it. */
export async function expectAppendFailure(
  promise: Promise<unknown>,
  expected: ExpectedAppendFailure,
): Promise<AppendFailedError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(AppendFailedError.isAppendFailure(caught), `expected an AppendFailedError, got ${String(caught)}`).toBe(true);
  const failure = caught as AppendFailedError;
  expect({ code: failure.code, outcome: failure.outcome }).toEqual({ code: expected.code, outcome: expected.outcome });
  if (expected.retryable !== undefined) expect(failure.retryable).toBe(expected.retryable);
  if (failure.outcome === "KNOWN_NOT_COMMITTED") expect(failure.attemptId).toBeUndefined();
  else expect(failure.attemptId).toMatch(/^[0-9a-f]+\/\d+$/);
  return failure;
}
