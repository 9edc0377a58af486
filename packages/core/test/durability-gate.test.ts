// A WAL writer that hands its target over before the bytes are durable (`PersistedWrite.gate`): the head
// transaction carries the gate as `after`, the metadata store commits only once it opens, and a failed gate means
// the append was not committed. A tiny test writer delegates to the in-memory provider and attaches a gate the test
// opens or fails by hand.
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../src/errors/error-code.js";
import { NereusError } from "../src/errors/nereus-error.js";
import { definitelyNotApplied } from "../src/append/definitely-not-applied.js";
import { DurabilityGateWord, SharedDurabilityGates, awaitDurabilityGate } from "../src/spi/durability-gate.js";
import type { MetadataStore, TxnRequest } from "../src/spi/metadata-store.js";
import type {
  PersistedWrite,
  PreparedWrite,
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
import { manualGate, type ManualGate } from "../src/testing/manual-gate.js";
import type { MemoryWalProvider } from "../src/testing/memory-wal-provider.js";

/** Persists through the in-memory provider, then returns the target with the next gate the test queued. */
class GatedWriter implements WalWriter {
  readonly spiVersion = WAL_SPI_VERSION;
  readonly walKind = "OBJECT" as const;
  readonly gates: ManualGate[] = [];
  readonly #inner: MemoryWalProvider;

  constructor(inner: MemoryWalProvider) {
    this.#inner = inner;
  }

  prepare(request: WalWriteRequest): PreparedWrite {
    return this.#inner.prepare(request);
  }

  async persist(prepared: PreparedWrite, options?: WalIoOptions): Promise<PersistedWrite> {
    const persisted = await this.#inner.persist(prepared, options);
    const gate = manualGate();
    this.gates.push(gate);
    return { ...persisted, gate: gate.gate };
  }

  protect(
    persisted: PersistedWrite,
    commitId: string,
    metadata: MetadataStore,
    options?: WalIoOptions,
  ): Promise<TargetProtection> {
    return this.#inner.protect(persisted, commitId, metadata, options);
  }
}

const harnesses: AppendProtocolHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

async function setup() {
  const metadata = new InMemoryMetadataStore();
  const harness = new AppendProtocolHarness(metadata);
  harnesses.push(harness);
  const writer = new GatedWriter(harness.objectWal);
  const requests: TxnRequest[] = [];
  const txn = metadata.txn.bind(metadata);
  metadata.txn = (request, options) => {
    requests.push(request);
    return txn(request, options);
  };
  const store = harness.open({ walWriters: [writer, harness.bookkeeperWal], autoRecovery: false });
  const { streamId } = await store.createStream("gated", { profile: "OBJECT_WAL_SYNC_OBJECT" });
  return { harness, writer, store, streamId, requests };
}

async function until(condition: () => boolean): Promise<void> {
  for (let round = 0; round < 500 && !condition(); round++) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(condition()).toBe(true);
}

describe("a persisted write with a durability gate", () => {
  it("rides in the head transaction as `after`, and the append commits only once the gate opens", async () => {
    const { harness, writer, store, streamId, requests } = await setup();
    let settled = false;
    const append = store.append(streamId, opaqueBatch("a")).finally(() => (settled = true));
    await until(() => writer.gates.length === 1 && requests.some((request) => request.after !== undefined));
    const headTxn = requests.find((request) => request.after !== undefined);
    expect(headTxn?.after?.durable).toBe(writer.gates[0]?.promise);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    expect((await harness.head(streamId)).committedEndOffset).toBe(0);
    writer.gates[0]?.resolve();
    expect((await append).startOffset).toBe(0);
    expect((await harness.head(streamId)).committedEndOffset).toBe(1);
    expect((await store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["a"]);
  });

  it("a failed gate: PRIMARY_WAL_WRITE_FAILED, KNOWN_NOT_COMMITTED, nothing visible; the next append takes the same offset", async () => {
    const { harness, writer, store, streamId } = await setup();
    const failing = store.append(streamId, opaqueBatch("lost"));
    await until(() => writer.gates.length === 1);
    writer.gates[0]?.reject(new Error("fdatasync failed"));
    await expectAppendFailure(failing, { code: ErrorCode.PRIMARY_WAL_WRITE_FAILED, outcome: "KNOWN_NOT_COMMITTED" });
    expect((await harness.head(streamId)).committedEndOffset).toBe(0);
    expect(await harness.reachableCommits(streamId)).toHaveLength(0);
    const next = store.append(streamId, opaqueBatch("b"));
    await until(() => writer.gates.length === 2);
    writer.gates[1]?.resolve();
    expect((await next).startOffset).toBe(0);
    expect((await store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["b"]);
  });
});

describe("awaitDurabilityGate", () => {
  it("resolves when the gate opens and turns a failure into a definitely-not-applied PRIMARY_WAL_WRITE_FAILED", async () => {
    await expect(awaitDurabilityGate({ durable: Promise.resolve() }, "txn")).resolves.toBeUndefined();
    const failed = await awaitDurabilityGate({ durable: Promise.reject(new Error("disk gone")) }, "txn").catch(
      (error: unknown) => error,
    );
    expect(NereusError.hasCode(failed, ErrorCode.PRIMARY_WAL_WRITE_FAILED)).toBe(true);
    expect((failed as NereusError).message).toContain("disk gone");
    expect(definitelyNotApplied(failed)).toBe(true);
  });
});

describe("SharedDurabilityGates", () => {
  const view = (gates: SharedDurabilityGates): BigInt64Array => new BigInt64Array(gates.words);

  it("hands out increasing sequences; open never lowers the durable sequence and bumps the change counter", () => {
    const gates = new SharedDurabilityGates();
    expect([gates.nextSequence(), gates.nextSequence(), gates.nextSequence()]).toEqual([1, 2, 3]);
    gates.open(2);
    expect(view(gates)[DurabilityGateWord.durable]).toBe(2n);
    expect(view(gates)[DurabilityGateWord.changes]).toBe(1n);
    gates.open(1);
    expect(view(gates)[DurabilityGateWord.durable]).toBe(2n);
    expect(view(gates)[DurabilityGateWord.changes]).toBe(1n);
    gates.open(3);
    expect(view(gates)[DurabilityGateWord.durable]).toBe(3n);
    expect(view(gates)[DurabilityGateWord.failed]).toBe(0n);
  });

  it("fail marks the words failed once (what is already durable stays durable)", () => {
    const gates = new SharedDurabilityGates();
    gates.open(gates.nextSequence());
    gates.fail();
    gates.fail();
    expect(view(gates)[DurabilityGateWord.failed]).toBe(1n);
    expect(view(gates)[DurabilityGateWord.durable]).toBe(1n);
    expect(view(gates)[DurabilityGateWord.changes]).toBe(2n);
  });

  it("a thread waiting on the change counter wakes when a gate opens", async () => {
    const gates = new SharedDurabilityGates();
    const sequence = gates.nextSequence();
    // Atomics.waitAsync (ES2024) is in Node 20; the compiler's lib stops at ES2023.
    const waitAsync = (
      Atomics as unknown as {
        waitAsync: (
          array: BigInt64Array,
          index: number,
          value: bigint,
          timeoutMs: number,
        ) => { async: boolean; value: Promise<string> | string };
      }
    ).waitAsync;
    const waiting = waitAsync(view(gates), DurabilityGateWord.changes, 0n, 5_000);
    expect(waiting.async).toBe(true);
    gates.open(sequence);
    expect(await waiting.value).toBe("ok");
  });
});
