// Commit pipelining: several append groups of one stream in flight at once. WAL writes overlap; head CASes stay
// strictly ordered; a group whose predecessor did not commit is handed back and runs again (never guessed, never
// duplicated); results reach callers in commit order. Most cases run on a store without `orderedTxns` (each CAS
// waits for the answer to the one ahead); the last block covers the speculative CAS of stores with it.
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../src/errors/error-code.js";
import type { OperationOptions, TxnRequest, TxnResult } from "../src/spi/metadata-store.js";
import type { StreamStoreOptions } from "../src/stream-store/stream-store-options.js";
import { AppendProtocolHarness, expectAppendFailure, opaqueBatch } from "../src/testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";

const harnesses: AppendProtocolHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

/** Opens a store on `harness` without automatic recovery or group commit: every append is a group of its own. */
function openUngrouped(
  harness: AppendProtocolHarness,
  options: Partial<StreamStoreOptions>,
): ReturnType<AppendProtocolHarness["open"]> {
  return harness.open({ autoRecovery: false, groupCommit: false, ...options });
}

/** Holds every WAL write at `afterWalWrite` until released; records the order WAL writes and head CASes happen. */
async function gatedStream(overrides: Partial<StreamStoreOptions> = {}, orderedTxns = false) {
  const metadata = new InMemoryMetadataStore({ orderedTxns });
  const harness = new AppendProtocolHarness(metadata);
  harnesses.push(harness);
  const events: string[] = [];
  const held: Array<() => void> = [];
  let gating = false;
  const store = openUngrouped(harness, {
    ...overrides,
    stepHooks: {
      afterWalWrite: async (context) => {
        events.push(`wal ${String(context.attemptIds.length)}`);
        if (!gating) return;
        await new Promise<void>((resolve) => held.push(resolve));
      },
      beforeHeadCommit: (context) => {
        events.push(`cas ${context.commitIntent?.offsetStart ?? "?"}`);
      },
    },
  });
  const { streamId } = await store.createStream("pipelined", { profile: "OBJECT_WAL_SYNC_OBJECT" });
  await store.append(streamId, opaqueBatch("first"));
  events.length = 0;
  const headKey = harness.keyspace.headKey(streamId);
  const isHeadCas = (request: unknown): boolean =>
    (request as TxnRequest).writes.some((write) => write.key === headKey) &&
    (request as TxnRequest).readOnFailure !== undefined;
  const waitForHeld = async (count: number): Promise<void> => {
    for (let spin = 0; held.length < count; spin++) {
      if (spin > 10_000) throw new Error(`only ${String(held.length)} of ${String(count)} WAL writes reached the gate`);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  const releaseAll = (): void => {
    gating = false;
    for (const release of held.splice(0)) release();
  };
  return {
    harness,
    metadata,
    store,
    streamId,
    events,
    isHeadCas,
    gate: () => {
      gating = true;
    },
    waitForHeld,
    releaseAll,
  };
}

const text = (payload: Uint8Array): string => new TextDecoder().decode(payload);

describe("commit pipelining", () => {
  it("writes the WAL of several groups before the first head CAS and commits them in order at dense offsets", async () => {
    const { store, streamId, events, gate, waitForHeld, releaseAll } = await gatedStream({ pipelineDepth: 4 });
    gate();
    const appends = ["b", "c", "d", "e"].map((name) => store.append(streamId, opaqueBatch(name)));
    await waitForHeld(4);
    expect(events).toEqual(["wal 1", "wal 1", "wal 1", "wal 1"]);
    releaseAll();
    const results = await Promise.all(appends);
    expect(results.map((result) => result.startOffset)).toEqual([1, 2, 3, 4]);
    expect(events.filter((event) => event.startsWith("cas"))).toEqual(["cas 1", "cas 2", "cas 3", "cas 4"]);
    const read = await store.read(streamId, 0);
    expect(read.entries.map((entry) => text(entry.payload))).toEqual(["first", "b", "c", "d", "e"]);
  });

  it("never runs more than pipelineDepth groups at once; the rest wait and merge", async () => {
    const { store, streamId, gate, waitForHeld, releaseAll, events } = await gatedStream({
      pipelineDepth: 2,
      groupCommit: { maxBytes: 1 << 20, maxEntries: 100 },
    });
    gate();
    const appends = [store.append(streamId, opaqueBatch("b"))];
    await waitForHeld(1);
    appends.push(store.append(streamId, opaqueBatch("c")));
    await waitForHeld(2);
    appends.push(...["d", "e", "f"].map((name) => store.append(streamId, opaqueBatch(name))));
    for (let turn = 0; turn < 50; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(events).toEqual(["wal 1", "wal 1"]);
    releaseAll();
    const results = await Promise.all(appends);
    expect(results.map((result) => result.startOffset)).toEqual([1, 2, 3, 4, 5]);
    // d, e and f waited for a free slot and went out as one group.
    expect(events.filter((event) => event.startsWith("wal"))).toEqual(["wal 1", "wal 1", "wal 3"]);
  });

  it("pipelineDepth 1 runs one group at a time", async () => {
    const { store, streamId, gate, waitForHeld, releaseAll, events } = await gatedStream({ pipelineDepth: 1 });
    gate();
    const appends = ["b", "c"].map((name) => store.append(streamId, opaqueBatch(name)));
    await waitForHeld(1);
    for (let turn = 0; turn < 50; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(events).toEqual(["wal 1"]);
    releaseAll();
    expect((await Promise.all(appends)).map((result) => result.startOffset)).toEqual([1, 2]);
  });

  for (const orderedTxns of [false, true]) {
    it(`a predecessor that fails before its CAS: the groups behind it (their CASes applying nothing) are handed back and commit right after, with no gap (orderedTxns ${String(orderedTxns)})`, async () => {
      const { metadata, store, streamId, isHeadCas, gate, waitForHeld, releaseAll, harness } = await gatedStream(
        { pipelineDepth: 4 },
        orderedTxns,
      );
      metadata.faults.add({ op: "txn", mode: "fail-before-apply", when: isHeadCas });
      gate();
      const failing = store.append(streamId, opaqueBatch("b"));
      const behind = ["c", "d"].map((name) => store.append(streamId, opaqueBatch(name)));
      await waitForHeld(3);
      releaseAll();
      await expectAppendFailure(failing, { code: ErrorCode.METADATA_UNAVAILABLE, outcome: "KNOWN_NOT_COMMITTED" });
      const results = await Promise.all(behind);
      expect(results.map((result) => [result.startOffset, result.endOffset])).toEqual([
        [1, 2],
        [2, 3],
      ]);
      const read = await store.read(streamId, 0);
      expect(read.entries.map((entry) => text(entry.payload))).toEqual(["first", "c", "d"]);
      expect((await harness.reachableCommits(streamId)).map((intent) => intent.offsetStart)).toEqual([2, 1, 0]);
    });
  }

  it("an explicit expectedStartOffset planned on a projection that did not happen fails KNOWN_NOT_COMMITTED (OFFSET_CONFLICT)", async () => {
    const { metadata, store, streamId, isHeadCas, gate, waitForHeld, releaseAll } = await gatedStream({
      pipelineDepth: 4,
    });
    metadata.faults.add({ op: "txn", mode: "fail-before-apply", when: isHeadCas });
    gate();
    const failing = store.append(streamId, opaqueBatch("b"), { expectedStartOffset: 1 });
    const behind = store.append(streamId, opaqueBatch("c"), { expectedStartOffset: 2 });
    await waitForHeld(2);
    releaseAll();
    await expectAppendFailure(failing, { code: ErrorCode.METADATA_UNAVAILABLE, outcome: "KNOWN_NOT_COMMITTED" });
    await expectAppendFailure(behind, { code: ErrorCode.OFFSET_CONFLICT, outcome: "KNOWN_NOT_COMMITTED" });
    expect((await store.append(streamId, opaqueBatch("again"), { expectedStartOffset: 1 })).startOffset).toBe(1);
  });

  it("a predecessor whose CAS response is lost suspends the lane; the groups behind it never send a CAS until recovery, then commit exactly once after it", async () => {
    const { metadata, store, streamId, isHeadCas, gate, waitForHeld, releaseAll, events } = await gatedStream({
      pipelineDepth: 4,
    });
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: isHeadCas });
    gate();
    const lost = store.append(streamId, opaqueBatch("b"));
    const behind = ["c", "d"].map((name) => store.append(streamId, opaqueBatch(name)));
    await waitForHeld(3);
    releaseAll();
    const failure = await expectAppendFailure(lost, {
      code: ErrorCode.METADATA_UNAVAILABLE,
      outcome: "MAY_HAVE_COMMITTED",
    });
    for (let turn = 0; turn < 50; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(events.filter((event) => event.startsWith("cas"))).toEqual(["cas 1"]);
    const recovered = await store.recoverAppend(streamId, failure.attemptId ?? "");
    expect(recovered.startOffset).toBe(1);
    const results = await Promise.all(behind);
    expect(results.map((result) => result.startOffset)).toEqual([2, 3]);
    const read = await store.read(streamId, 0);
    expect(read.entries.map((entry) => text(entry.payload))).toEqual(["first", "b", "c", "d"]);
  });

  it("a handed-back append whose deadline passes while it waits fails KNOWN_NOT_COMMITTED and is not written later", async () => {
    const { metadata, store, streamId, isHeadCas, gate, waitForHeld, releaseAll } = await gatedStream({
      pipelineDepth: 4,
    });
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: isHeadCas });
    gate();
    const lost = store.append(streamId, opaqueBatch("b"));
    const impatient = store.append(streamId, opaqueBatch("c"), { timeoutMs: 200 });
    await waitForHeld(2);
    releaseAll();
    const failure = await expectAppendFailure(lost, {
      code: ErrorCode.METADATA_UNAVAILABLE,
      outcome: "MAY_HAVE_COMMITTED",
    });
    await expectAppendFailure(impatient, { code: ErrorCode.TIMEOUT, outcome: "KNOWN_NOT_COMMITTED" });
    await store.recoverAppend(streamId, failure.attemptId ?? "");
    expect((await store.append(streamId, opaqueBatch("later"))).startOffset).toBe(2);
    const read = await store.read(streamId, 0);
    expect(read.entries.map((entry) => text(entry.payload))).toEqual(["first", "b", "later"]);
  });

  it("delivers results in commit order even when a later group finishes first", async () => {
    const metadata = new InMemoryMetadataStore();
    const harness = new AppendProtocolHarness(metadata);
    harnesses.push(harness);
    let slowFirst: (() => void) | undefined;
    let firstReached: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (firstReached = resolve));
    let armed = false;
    const store = openUngrouped(harness, {
      pipelineDepth: 4,
      stepHooks: {
        afterHeadCommit: async () => {
          if (!armed) return;
          armed = false;
          firstReached();
          await new Promise<void>((resolve) => (slowFirst = resolve));
        },
      },
    });
    const { streamId } = await store.createStream("ordered", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    armed = true;
    const order: string[] = [];
    const first = store.append(streamId, opaqueBatch("a")).then(() => order.push("a"));
    const second = store.append(streamId, opaqueBatch("b")).then(() => order.push("b"));
    await reached;
    for (let turn = 0; turn < 50; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    slowFirst?.();
    await Promise.all([first, second]);
    expect(order).toEqual(["a", "b"]);
  });

  it("a lane operation (trim) waits for every running group", async () => {
    const { store, streamId, gate, waitForHeld, releaseAll } = await gatedStream({ pipelineDepth: 4 });
    gate();
    const appends = ["b", "c"].map((name) => store.append(streamId, opaqueBatch(name)));
    await waitForHeld(2);
    let trimmed = false;
    const trim = store.trim(streamId, 3).then(() => (trimmed = true));
    for (let turn = 0; turn < 50; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(trimmed).toBe(false);
    releaseAll();
    await Promise.all([...appends, trim]);
    expect((await store.getHead(streamId)).trimOffset).toBe(3);
  });

  it("rejects a pipelineDepth outside [1, 64] before any I/O", () => {
    const harness = new AppendProtocolHarness(new InMemoryMetadataStore());
    harnesses.push(harness);
    expect(() => harness.open({ pipelineDepth: 0 })).toThrow(/pipelineDepth/);
    expect(() => harness.open({ pipelineDepth: 65 })).toThrow(/pipelineDepth/);
  });
});

/** `inner`, with the answers of txns held (the txns themselves apply when made) while `holding`. */
function holdingAnswers(inner: InMemoryMetadataStore) {
  const held: Array<() => void> = [];
  const control = { holding: false, held };
  const store = new Proxy(inner, {
    get(target, property) {
      if (property === "txn") {
        return (request: TxnRequest, options?: OperationOptions): Promise<TxnResult> => {
          const answer = target.txn(request, options);
          if (!control.holding) return answer;
          return new Promise<TxnResult>((resolve, reject) => held.push(() => void answer.then(resolve, reject)));
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, control };
}

describe("commit pipelining on a store that applies txns in order (speculative head CAS)", () => {
  it("sends the CAS of each group right behind the one ahead, before that one's answer, compared on its head value", async () => {
    const inner = new InMemoryMetadataStore();
    const { store: metadata, control } = holdingAnswers(inner);
    const harness = new AppendProtocolHarness(metadata);
    harnesses.push(harness);
    const held: Array<() => void> = [];
    let gating = true;
    const store = openUngrouped(harness, {
      pipelineDepth: 4,
      stepHooks: {
        afterWalWrite: async () => {
          if (gating) await new Promise<void>((resolve) => held.push(resolve));
        },
      },
    });
    gating = false;
    const { streamId } = await store.createStream("speculative", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    await store.append(streamId, opaqueBatch("first"));
    gating = true;
    const appends = ["b", "c", "d"].map((name) => store.append(streamId, opaqueBatch(name)));
    for (let spin = 0; held.length < 3; spin++) {
      if (spin > 10_000) throw new Error("the WAL writes did not reach the gate");
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    control.holding = true;
    gating = false;
    for (const release of held.splice(0)) release();
    // With every answer held, all three CASes applied: each was sent behind the one ahead without waiting for it.
    for (let spin = 0; (await harness.head(streamId)).committedEndOffset < 4; spin++) {
      if (spin > 10_000) throw new Error(`head stuck at ${String((await harness.head(streamId)).committedEndOffset)}`);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    control.holding = false;
    for (const release of control.held.splice(0)) release();
    const results = await Promise.all(appends);
    expect(results.map((result) => result.startOffset)).toEqual([1, 2, 3]);
    const read = await store.read(streamId, 0);
    expect(read.entries.map((entry) => text(entry.payload))).toEqual(["first", "b", "c", "d"]);
    expect((await harness.reachableCommits(streamId)).map((intent) => intent.offsetStart)).toEqual([3, 2, 1, 0]);
  });

  it("a predecessor whose CAS answer is lost after it applied: the groups behind it commit on its head; recovery finds it committed", async () => {
    const { metadata, store, streamId, isHeadCas, gate, waitForHeld, releaseAll } = await gatedStream(
      { pipelineDepth: 4 },
      true,
    );
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: isHeadCas });
    gate();
    const lost = store.append(streamId, opaqueBatch("b"));
    const behind = ["c", "d"].map((name) => store.append(streamId, opaqueBatch(name)));
    await waitForHeld(3);
    releaseAll();
    const failure = await expectAppendFailure(lost, {
      code: ErrorCode.METADATA_UNAVAILABLE,
      outcome: "MAY_HAVE_COMMITTED",
    });
    const results = await Promise.all(behind);
    expect(results.map((result) => result.startOffset)).toEqual([2, 3]);
    const recovered = await store.recoverAppend(streamId, failure.attemptId ?? "");
    expect(recovered.startOffset).toBe(1);
    const read = await store.read(streamId, 0);
    expect(read.entries.map((entry) => text(entry.payload))).toEqual(["first", "b", "c", "d"]);
  });
});
