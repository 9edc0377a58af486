// Fault matrix of the head CAS (the linearization point) on the in-memory store: fail-before-apply, applied with
// the response lost, never applied with the response lost (hang until the deadline), a lost CAS whose stored
// intent conflicts, and a compatible head change between planning and sending. Each case asserts the outcome
// and retryability, the head end, intent reachability, index presence and read visibility, and what
// recoverAppend proves.
import { afterEach, describe, expect, it } from "vitest";
import type { AppendResult } from "../src/domain/append-types.js";
import { ErrorCode } from "../src/errors/error-code.js";
import {
  AppendProtocolHarness,
  expectAppendFailure,
  opaqueBatch,
  text,
} from "../src/testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";
import type { TxnRequest } from "../src/spi/metadata-store.js";

const harnesses: AppendProtocolHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

/** A stream with one committed append ("a" at offset 0) and a helper to target its next head CAS. */
async function setup(overrides: Parameters<AppendProtocolHarness["open"]>[0] = {}) {
  const metadata = new InMemoryMetadataStore();
  const harness = new AppendProtocolHarness(metadata);
  harnesses.push(harness);
  const store = harness.open({ autoRecovery: false, ...overrides });
  const { streamId } = await store.createStream("faults", { profile: "OBJECT_WAL_SYNC_OBJECT" });
  const first = await store.append(streamId, opaqueBatch("a"));
  const headKey = harness.keyspace.headKey(streamId);
  const isHeadCas = (request: unknown): boolean =>
    (request as TxnRequest).writes.some((write) => write.key === headKey) &&
    (request as TxnRequest).readOnFailure !== undefined;
  return { metadata, harness, store, streamId, first, isHeadCas };
}

describe("head CAS fault matrix", () => {
  it("fail-before-apply: KNOWN_NOT_COMMITTED, retriable, nothing visible; a retry commits at the same offset", async () => {
    const { metadata, harness, store, streamId, first, isHeadCas } = await setup();
    metadata.faults.add({ op: "txn", mode: "fail-before-apply", when: isHeadCas });
    await expectAppendFailure(store.append(streamId, opaqueBatch("b")), {
      code: ErrorCode.METADATA_UNAVAILABLE,
      outcome: "KNOWN_NOT_COMMITTED",
      retryable: true,
    });
    expect(await harness.head(streamId)).toMatchObject({ committedEndOffset: 1, lastCommitId: first.commitId });
    expect(await harness.reachableCommits(streamId)).toHaveLength(1);
    expect(await harness.indexEntries(streamId)).toHaveLength(1);
    expect((await store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["a"]);
    expect((await store.append(streamId, opaqueBatch("b"))).startOffset).toBe(1);
  });

  it("applied, response lost: MAY_HAVE_COMMITTED; later appends wait and fail KNOWN_NOT_COMMITTED at their deadline; recovery returns the original result", async () => {
    const { metadata, harness, store, streamId, isHeadCas } = await setup();
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: isHeadCas });
    const failure = await expectAppendFailure(store.append(streamId, opaqueBatch("b1", "b2")), {
      code: ErrorCode.METADATA_UNAVAILABLE,
      outcome: "MAY_HAVE_COMMITTED",
      retryable: false,
    });
    // Durable state: the commit happened (the response was lost, not the write).
    const head = await harness.head(streamId);
    expect(head.committedEndOffset).toBe(3);
    expect((await harness.reachableCommits(streamId))[0]?.offsetStart).toBe(1);
    expect(await harness.indexEntries(streamId)).toHaveLength(2);
    // The lane is suspended: B and C never guess an offset; they fail at their deadline with no WAL I/O.
    const walBefore = harness.walIo();
    const txnsBefore = metadata.stats.txns;
    const waiting = [
      store.append(streamId, opaqueBatch("c"), { timeoutMs: 30 }),
      store.append(streamId, opaqueBatch("d"), { timeoutMs: 40 }),
    ];
    for (const pending of waiting)
      await expectAppendFailure(pending, { code: ErrorCode.TIMEOUT, outcome: "KNOWN_NOT_COMMITTED", retryable: true });
    expect(harness.walIo()).toBe(walBefore);
    expect(metadata.stats.txns).toBe(txnsBefore);
    // Recovery finds the commit through its replay marker and returns exactly the original result (no WAL I/O).
    const recovered = await store.recoverAppend(streamId, failure.attemptId ?? "");
    expect(harness.walIo()).toBe(walBefore);
    expect(recovered).toMatchObject({
      startOffset: 1,
      endOffset: 3,
      commitVersion: 2,
      commitId: head.lastCommitId,
      generation: 0,
    });
    expect(await store.recoverAppend(streamId, failure.attemptId ?? "")).toEqual(recovered);
    // The lane is released.
    expect((await store.append(streamId, opaqueBatch("e"))).startOffset).toBe(3);
    expect((await store.read(streamId, 0)).entries.map((entry) => text(entry.payload))).toEqual(["a", "b1", "b2", "e"]);
  });

  it("not applied, response lost (deadline while in flight): recovery proves absence, fences a late apply and releases the lane", async () => {
    const { metadata, harness, store, streamId, first, isHeadCas } = await setup();
    metadata.faults.add({ op: "txn", mode: "hang-until-aborted", when: isHeadCas });
    const failure = await expectAppendFailure(store.append(streamId, opaqueBatch("b"), { timeoutMs: 50 }), {
      code: ErrorCode.METADATA_UNAVAILABLE,
      outcome: "MAY_HAVE_COMMITTED",
    });
    const before = await metadata.get(harness.keyspace.headKey(streamId));
    expect(harness.keyspace.decodeHead(before ?? never()).head).toMatchObject({
      committedEndOffset: 1,
      lastCommitId: first.commitId,
    });
    const proof = await expectAppendFailure(store.recoverAppend(streamId, failure.attemptId ?? ""), {
      code: ErrorCode.METADATA_UNAVAILABLE,
      outcome: "KNOWN_NOT_COMMITTED",
      retryable: true,
    });
    expect(proof.message).toContain("proven not committed");
    // The head was rewritten unchanged at a newer revision, so the lost request (which compared the old one) can never apply.
    const after = await metadata.get(harness.keyspace.headKey(streamId));
    expect(after?.modRevision).toBeGreaterThan(before?.modRevision ?? Infinity);
    expect(after?.value).toEqual(before?.value);
    expect(await harness.reachableCommits(streamId)).toHaveLength(1);
    expect((await store.append(streamId, opaqueBatch("b"))).startOffset).toBe(1);
  });

  it("recovery while metadata is still failing stays MAY_HAVE_COMMITTED (same attempt id) and keeps the lane suspended", async () => {
    const { metadata, store, streamId, isHeadCas } = await setup();
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: isHeadCas });
    const failure = await expectAppendFailure(store.append(streamId, opaqueBatch("b")), {
      code: ErrorCode.METADATA_UNAVAILABLE,
      outcome: "MAY_HAVE_COMMITTED",
    });
    metadata.faults.add({ op: "getMany", mode: "fail-before-apply", times: 2 });
    const again = await expectAppendFailure(store.recoverAppend(streamId, failure.attemptId ?? ""), {
      code: ErrorCode.METADATA_UNAVAILABLE,
      outcome: "MAY_HAVE_COMMITTED",
    });
    expect(again.attemptId).toBe(failure.attemptId);
    await expectAppendFailure(store.append(streamId, opaqueBatch("c"), { timeoutMs: 20 }), {
      code: ErrorCode.TIMEOUT,
      outcome: "KNOWN_NOT_COMMITTED",
    });
    await expectAppendFailure(store.recoverAppend(streamId, failure.attemptId ?? ""), {
      code: ErrorCode.METADATA_UNAVAILABLE,
      outcome: "MAY_HAVE_COMMITTED",
    });
    expect((await store.recoverAppend(streamId, failure.attemptId ?? "")).startOffset).toBe(1);
  });

  it("concurrent recoverAppend calls share one recovery (single flight)", async () => {
    const recoveryCost = async (callers: number): Promise<number> => {
      const { metadata, store, streamId, isHeadCas } = await setup();
      metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: isHeadCas });
      const failure = await expectAppendFailure(store.append(streamId, opaqueBatch("b")), {
        code: ErrorCode.METADATA_UNAVAILABLE,
        outcome: "MAY_HAVE_COMMITTED",
      });
      metadata.stats.reset();
      const results = await Promise.all(
        Array.from({ length: callers }, () => store.recoverAppend(streamId, failure.attemptId ?? "")),
      );
      expect(new Set(results.map((result) => result.commitId)).size).toBe(1);
      return metadata.stats.roundTrips;
    };
    const single = await recoveryCost(1);
    expect(single).toBeGreaterThan(0);
    expect(await recoveryCost(4)).toBe(single);
  });

  it("automatic recovery releases a suspended lane without anyone calling recoverAppend", async () => {
    // Without merging, "c" is its own group: pipelined behind "b", handed back when "b" is suspended, run again.
    const { metadata, store, streamId, isHeadCas } = await setup({
      autoRecovery: { minDelayMs: 1, maxDelayMs: 20 },
      groupCommit: false,
    });
    metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: isHeadCas });
    const lost = store.append(streamId, opaqueBatch("b"));
    const queued = store.append(streamId, opaqueBatch("c"));
    const failure = await expectAppendFailure(lost, {
      code: ErrorCode.METADATA_UNAVAILABLE,
      outcome: "MAY_HAVE_COMMITTED",
    });
    expect((await queued).startOffset).toBe(2);
    expect((await store.recoverAppend(streamId, failure.attemptId ?? "")).startOffset).toBe(1);
  });

  it("a merged group whose CAS response is lost fails every member MAY_HAVE_COMMITTED with its own attempt id; each recovers its own range", async () => {
    // One group at a time, and the blocker held after its WAL write until the four appends queued behind it, so
    // those four merge into one group.
    let holdBlocker: { reached: () => void; release: Promise<void> } | undefined;
    const { metadata, store, streamId, isHeadCas } = await setup({
      pipelineDepth: 1,
      stepHooks: {
        afterWalWrite: async () => {
          const hold = holdBlocker;
          holdBlocker = undefined;
          hold?.reached();
          await hold?.release;
        },
      },
    });
    let headCases = 0;
    metadata.faults.add({
      op: "txn",
      mode: "apply-then-lose-response",
      when: (request) => isHeadCas(request) && ++headCases === 2,
    });
    let release: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => {
      holdBlocker = { reached: resolve, release: new Promise<void>((done) => (release = done)) };
    });
    const blocker = store.append(streamId, opaqueBatch("blocker"));
    await reached;
    const members = ["m0", "m1", "m2", "m3"].map((name) => store.append(streamId, opaqueBatch(name, `${name}-2`)));
    release();
    expect((await blocker).startOffset).toBe(1);
    const failures = [];
    for (const member of members)
      failures.push(
        await expectAppendFailure(member, { code: ErrorCode.METADATA_UNAVAILABLE, outcome: "MAY_HAVE_COMMITTED" }),
      );
    expect(new Set(failures.map((failure) => failure.attemptId)).size).toBe(failures.length);
    const recovered: AppendResult[] = [];
    for (const failure of failures) recovered.push(await store.recoverAppend(streamId, failure.attemptId ?? ""));
    const offsets = recovered.map((result) => [result.startOffset, result.endOffset]);
    const base = recovered[0]?.startOffset ?? 0;
    expect(offsets).toEqual([0, 1, 2, 3].map((index) => [base + 2 * index, base + 2 * index + 2]));
    expect(new Set(recovered.map((result) => result.commitId)).size).toBe(1);
  });

  it("a conflicting intent already stored under the commit id is METADATA_INVARIANT_VIOLATION and is never overwritten", async () => {
    const ref: { harness?: AppendProtocolHarness } = {};
    let armed = false;
    const { harness, store, streamId, first } = await setup({
      stepHooks: {
        afterProtection: async (context) => {
          if (!armed || context.commitIntent === undefined || ref.harness === undefined) return;
          armed = false;
          const forged = { ...context.commitIntent, writerId: "someone-else" };
          const key = ref.harness.keyspace.intentKey(context.streamId, context.commitIntent.commitId);
          await ref.harness.metadata.txn({
            compares: [],
            writes: [{ type: "put", key, value: ref.harness.keyspace.encodeIntent(forged) }],
          });
        },
      },
    });
    ref.harness = harness;
    armed = true;
    const failure = await expectAppendFailure(store.append(streamId, opaqueBatch("b")), {
      code: ErrorCode.METADATA_INVARIANT_VIOLATION,
      outcome: "KNOWN_NOT_COMMITTED",
      retryable: false,
    });
    expect(failure.message).toContain("different content");
    expect((await harness.head(streamId)).lastCommitId).toBe(first.commitId);
  });

  it("an identical intent already stored is reused, and a compatible head change (trim) is retried inside the same append", async () => {
    const ref: { harness?: AppendProtocolHarness } = {};
    let trimmer: (() => Promise<unknown>) | undefined;
    let reuse = false;
    const { harness, store, streamId, metadata } = await setup({
      stepHooks: {
        afterProtection: async (context) => {
          if (!reuse || context.commitIntent === undefined || ref.harness === undefined) return;
          reuse = false;
          const key = ref.harness.keyspace.intentKey(context.streamId, context.commitIntent.commitId);
          await ref.harness.metadata.txn({
            compares: [],
            writes: [{ type: "put", key, value: ref.harness.keyspace.encodeIntent(context.commitIntent) }],
          });
        },
        beforeHeadCommit: async () => {
          const trim = trimmer;
          trimmer = undefined;
          await trim?.();
        },
      },
    });
    ref.harness = harness;
    reuse = true;
    const other = harness.open({ writerId: "trimmer" });
    trimmer = () => other.trim(streamId, 1);
    metadata.stats.reset();
    const result = await store.append(streamId, opaqueBatch("b"));
    expect(result.startOffset).toBe(1);
    expect(await harness.head(streamId)).toMatchObject({
      trimOffset: 1,
      committedEndOffset: 2,
      lastCommitId: result.commitId,
    });
    expect((await harness.reachableCommits(streamId)).map((intent) => intent.commitId)[0]).toBe(result.commitId);
  });
});

function never(): never {
  throw new Error("expected a value");
}
