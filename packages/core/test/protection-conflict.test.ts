// A head transaction whose head compare held but whose WAL protection compare failed: the provider's optional
// `classifyProtectionConflict` decides from the values the same failed transaction read back. A tiny test writer
// (delegating to the in-memory provider) protects its target with a compare on a per-stream "root" key, like the
// BookKeeper WAL's ledger root; the test moves that root between protection and the head CAS.
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../src/errors/error-code.js";
import type { KeyValue, MetadataStore, TxnRequest } from "../src/spi/metadata-store.js";
import type {
  PersistedWrite,
  PreparedWrite,
  ProtectionConflictVerdict,
  TargetProtection,
  WalIoOptions,
  WalWriteRequest,
  WalWriter,
} from "../src/spi/wal.js";
import { WAL_SPI_VERSION } from "../src/spi/wal.js";
import {
  AppendProtocolHarness,
  expectAppendFailure,
  opaqueBatch,
  text,
} from "../src/testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";
import type { MemoryWalProvider } from "../src/testing/memory-wal-provider.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A writer whose protection compares a per-stream root key that must read "ACTIVE". */
class RootedWriter implements WalWriter {
  readonly spiVersion = WAL_SPI_VERSION;
  readonly walKind = "OBJECT" as const;
  readonly classifyProtectionConflict: WalWriter["classifyProtectionConflict"];
  readonly classified: Array<ProtectionConflictVerdict | undefined> = [];
  readonly #inner: MemoryWalProvider;

  constructor(inner: MemoryWalProvider, withHook: boolean) {
    this.#inner = inner;
    this.classifyProtectionConflict = withHook
      ? (persisted: PersistedWrite, current: ReadonlyMap<string, KeyValue>): ProtectionConflictVerdict | undefined => {
          const root = current.get(rootKey(persisted.prepared.request.streamId));
          const verdict = root === undefined || decoder.decode(root.value) !== "ACTIVE" ? "FENCED" : "RETRY";
          this.classified.push(verdict);
          return verdict;
        }
      : undefined;
  }

  prepare(request: WalWriteRequest): PreparedWrite {
    return this.#inner.prepare(request);
  }

  persist(prepared: PreparedWrite, options?: WalIoOptions): Promise<PersistedWrite> {
    return this.#inner.persist(prepared, options);
  }

  async protect(
    persisted: PersistedWrite,
    commitId: string,
    metadata: MetadataStore,
    options: WalIoOptions = {},
  ): Promise<TargetProtection> {
    const inner = await this.#inner.protect(persisted, commitId, metadata, options);
    const key = rootKey(persisted.prepared.request.streamId);
    const root = await metadata.get(key, options.signal === undefined ? {} : { signal: options.signal });
    if (root === undefined) throw new Error(`no root for ${persisted.prepared.request.streamId}`);
    return { compares: [...inner.compares, { key, modRevision: root.modRevision }], writes: inner.writes };
  }
}

function rootKey(streamId: string): string {
  return `/test-wal/roots/${streamId}`;
}

async function putRoot(metadata: MetadataStore, streamId: string, value: string): Promise<void> {
  const result = await metadata.txn({
    compares: [],
    writes: [{ type: "put", key: rootKey(streamId), value: encoder.encode(value) }],
  });
  expect(result.succeeded).toBe(true);
}

const harnesses: AppendProtocolHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

/** A stream with one committed append; `moveRoot` (once armed) rewrites the root after the next protection. */
async function setup(withHook: boolean) {
  const metadata = new InMemoryMetadataStore();
  const harness = new AppendProtocolHarness(metadata);
  harnesses.push(harness);
  const writer = new RootedWriter(harness.objectWal, withHook);
  let moveTo: string | undefined;
  const store = harness.open({
    walWriters: [writer, harness.bookkeeperWal],
    autoRecovery: false,
    stepHooks: {
      afterProtection: async ({ streamId }) => {
        if (moveTo === undefined) return;
        const value = moveTo;
        moveTo = undefined;
        await putRoot(metadata, streamId, value);
      },
    },
  });
  const { streamId } = await store.createStream("protected", { profile: "OBJECT_WAL_SYNC_OBJECT" });
  await putRoot(metadata, streamId, "ACTIVE");
  const first = await store.append(streamId, opaqueBatch("a"));
  return { metadata, harness, writer, store, streamId, first, moveRootTo: (value: string) => (moveTo = value) };
}

describe("a lost protection compare under an unchanged head", () => {
  it("the provider reports FENCED: FENCED_APPEND, KNOWN_NOT_COMMITTED, not retryable; nothing visible", async () => {
    const { harness, writer, store, streamId, first, moveRootTo } = await setup(true);
    moveRootTo("SEALED");
    await expectAppendFailure(store.append(streamId, opaqueBatch("b")), {
      code: ErrorCode.FENCED_APPEND,
      outcome: "KNOWN_NOT_COMMITTED",
      retryable: false,
    });
    expect(writer.classified).toEqual(["FENCED"]);
    expect(await harness.head(streamId)).toMatchObject({ committedEndOffset: 1, lastCommitId: first.commitId });
    expect(await harness.reachableCommits(streamId)).toHaveLength(1);
    expect((await store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["a"]);
  });

  it("the provider reports RETRY: METADATA_CONDITION_FAILED, KNOWN_NOT_COMMITTED, retryable; a retry commits", async () => {
    const { writer, store, streamId, moveRootTo } = await setup(true);
    moveRootTo("ACTIVE");
    await expectAppendFailure(store.append(streamId, opaqueBatch("b")), {
      code: ErrorCode.METADATA_CONDITION_FAILED,
      outcome: "KNOWN_NOT_COMMITTED",
      retryable: true,
    });
    expect(writer.classified).toEqual(["RETRY"]);
    expect((await store.append(streamId, opaqueBatch("b"))).startOffset).toBe(1);
  });

  it("a writer without the hook keeps the default: METADATA_CONDITION_FAILED, retryable", async () => {
    const { store, streamId, moveRootTo } = await setup(false);
    moveRootTo("SEALED");
    await expectAppendFailure(store.append(streamId, opaqueBatch("b")), {
      code: ErrorCode.METADATA_CONDITION_FAILED,
      outcome: "KNOWN_NOT_COMMITTED",
      retryable: true,
    });
  });

  it("the success path is unchanged: one head transaction per warm append, the protection keys read only on failure", async () => {
    const { metadata, writer, store, streamId } = await setup(true);
    const requests: TxnRequest[] = [];
    const txn = metadata.txn.bind(metadata);
    metadata.txn = (request, options) => {
      requests.push(request);
      return txn(request, options);
    };
    await store.append(streamId, opaqueBatch("b"));
    expect(requests).toHaveLength(1);
    expect(requests[0]?.readOnFailure).toContain(rootKey(streamId));
    expect(writer.classified).toEqual([]);
  });
});
