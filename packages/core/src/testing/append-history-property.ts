// The append-history property suite (exported for every metadata stack): random interleavings of appends,
// injected faults, crashes, restarts, owner changes and zombie writers, checked against the protocol's invariants
// (dense committed ranges, nothing acknowledged lost or duplicated, exact bytes, monotone head fields).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { APPEND_STEPS, type AppendStep } from "../append/append-step-hooks.js";
import type { AppendBatch, AppendResult } from "../domain/append-types.js";
import type { StreamHead } from "../domain/stream-head.js";
import { AppendFailedError } from "../errors/append-outcome.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { TxnRequest } from "../spi/metadata-store.js";
import type { StreamStore } from "../stream-store/stream-store.js";
import { AppendProtocolHarness, text } from "./append-protocol-harness.js";
import type { AppendProtocolStack } from "./append-protocol-conformance.js";
import { FaultInjectingMetadataStore } from "./fault-injecting-metadata-store.js";

type Fault =
  | { readonly kind: "none" }
  | { readonly kind: "head-lost" }
  | { readonly kind: "head-failed" }
  | { readonly kind: "wal-failed" }
  | { readonly kind: "wal-lost" }
  | { readonly kind: "step-crash"; readonly step: AppendStep };

type Operation =
  | { readonly kind: "append"; readonly entries: ReadonlyArray<ReadonlyArray<number>>; readonly fault: Fault }
  | { readonly kind: "crash" }
  | { readonly kind: "restart" }
  | { readonly kind: "owner-change" }
  | { readonly kind: "zombie-append" };

const faultArbitrary: fc.Arbitrary<Fault> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Fault>({ kind: "none" }) },
  { weight: 1, arbitrary: fc.constant<Fault>({ kind: "head-lost" }) },
  { weight: 1, arbitrary: fc.constant<Fault>({ kind: "head-failed" }) },
  { weight: 1, arbitrary: fc.constant<Fault>({ kind: "wal-failed" }) },
  { weight: 1, arbitrary: fc.constant<Fault>({ kind: "wal-lost" }) },
  { weight: 2, arbitrary: fc.constantFrom(...APPEND_STEPS).map<Fault>((step) => ({ kind: "step-crash", step })) },
);

/** One burst: 1–4 concurrent appends, each 1–3 entries with 1–4 records per entry. */
const appendArbitrary: fc.Arbitrary<Operation> = fc.record({
  kind: fc.constant("append" as const),
  entries: fc.array(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }), {
    minLength: 1,
    maxLength: 4,
  }),
  fault: faultArbitrary,
});

const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 8, arbitrary: appendArbitrary },
  { weight: 1, arbitrary: fc.constant<Operation>({ kind: "crash" }) },
  { weight: 1, arbitrary: fc.constant<Operation>({ kind: "restart" }) },
  { weight: 1, arbitrary: fc.constant<Operation>({ kind: "owner-change" }) },
  { weight: 1, arbitrary: fc.constant<Operation>({ kind: "zombie-append" }) },
);

interface Acknowledged {
  readonly tags: readonly string[];
  readonly recordCounts: readonly number[];
  readonly result: AppendResult;
}

async function runHistory(
  metadata: FaultInjectingMetadataStore,
  harness: AppendProtocolHarness,
  operations: readonly Operation[],
): Promise<void> {
  let armedStep: AppendStep | undefined;
  const open = (writerId: string): StreamStore =>
    harness.open({
      writerId,
      autoRecovery: { minDelayMs: 1, maxDelayMs: 5 },
      groupCommit: { maxBytes: 4096, maxEntries: 6 },
      stepHooks: Object.fromEntries(
        APPEND_STEPS.map((step) => [
          step,
          () => {
            if (armedStep !== step) return;
            armedStep = undefined;
            throw new NereusError(ErrorCode.CANCELLED, `simulated crash at ${step}`);
          },
        ]),
      ),
    });
  let writers = 1;
  let current = open("writer-1");
  const zombies: StreamStore[] = [];
  const { streamId } = await current.createStream("history", { profile: "BOOKKEEPER_WAL_ONLY" });
  const headKey = harness.keyspace.headKey(streamId);
  const isHeadCas = (request: unknown): boolean =>
    (request as TxnRequest).writes.some((write) => write.key === headKey) &&
    (request as TxnRequest).readOnFailure !== undefined;
  const acknowledged: Acknowledged[] = [];
  const absent = new Set<string>();
  let nextTag = 0;
  let previous: StreamHead = await harness.head(streamId);

  const appendBurst = async (store: StreamStore, entries: ReadonlyArray<ReadonlyArray<number>>): Promise<void> => {
    const calls = entries.map((recordCounts) => {
      const tags = recordCounts.map(() => `t${String(nextTag++)}`);
      const batch: AppendBatch = {
        payloadFormat: "KAFKA_RECORD_BATCH",
        entries: recordCounts.map((recordCount, index) => ({
          payload: new TextEncoder().encode(tags[index]),
          recordCount,
        })),
      };
      const promise = store.append(streamId, batch);
      // Awaited below, in order: while an earlier call (or its recovery) is awaited, this one may already have
      // failed, and the runtime would report it unhandled meanwhile. The loop still sees its outcome.
      promise.catch(() => undefined);
      return { tags, recordCounts, promise };
    });
    for (const call of calls) {
      try {
        acknowledged.push({ tags: call.tags, recordCounts: call.recordCounts, result: await call.promise });
      } catch (error) {
        if (!AppendFailedError.isAppendFailure(error)) throw error;
        if (error.outcome === "KNOWN_NOT_COMMITTED") {
          for (const tag of call.tags) absent.add(tag);
          continue;
        }
        expect(error.attemptId).toBeDefined();
        try {
          acknowledged.push({
            tags: call.tags,
            recordCounts: call.recordCounts,
            result: await store.recoverAppend(streamId, error.attemptId ?? ""),
          });
        } catch (recoveryError) {
          if (!AppendFailedError.isAppendFailure(recoveryError)) throw recoveryError;
          expect(error.outcome).toBe("MAY_HAVE_COMMITTED");
          if (recoveryError.outcome === "KNOWN_NOT_COMMITTED") for (const tag of call.tags) absent.add(tag);
        }
      }
    }
  };

  for (const operation of operations) {
    switch (operation.kind) {
      case "append": {
        const fault = operation.fault;
        if (fault.kind === "head-lost")
          metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: isHeadCas });
        if (fault.kind === "head-failed")
          metadata.faults.add({ op: "txn", mode: "fail-before-apply", when: isHeadCas });
        if (fault.kind === "wal-failed")
          harness.bookkeeperWal.faults.add({ op: "persist", mode: "fail-before-persist" });
        if (fault.kind === "wal-lost")
          harness.bookkeeperWal.faults.add({ op: "persist", mode: "persist-then-lose-response" });
        if (fault.kind === "step-crash") armedStep = fault.step;
        await appendBurst(current, operation.entries);
        metadata.faults.clear();
        harness.bookkeeperWal.faults.clear();
        armedStep = undefined;
        break;
      }
      case "crash":
        zombies.push(current);
        current = open(`writer-${String(writers)}`);
        break;
      case "restart":
        await current.close();
        current = open(`writer-${String(writers)}`);
        break;
      case "owner-change":
        zombies.push(current);
        writers += 1;
        current = open(`writer-${String(writers)}`);
        await current.acquireSession(streamId, { preempt: true });
        break;
      case "zombie-append": {
        const zombie = zombies.at(-1);
        if (zombie !== undefined)
          await appendBurst(zombie, [[1]]).catch((error: unknown) => {
            if (!NereusError.hasCode(error, ErrorCode.STORAGE_CLOSED)) throw error;
          });
        break;
      }
    }
    const head = await harness.head(streamId);
    expect(head.committedEndOffset).toBeGreaterThanOrEqual(previous.committedEndOffset);
    expect(head.cumulativeSize).toBeGreaterThanOrEqual(previous.cumulativeSize);
    expect(head.commitVersion).toBeGreaterThanOrEqual(previous.commitVersion);
    expect(head.trimOffset).toBeGreaterThanOrEqual(previous.trimOffset);
    expect((head.session?.epoch ?? 0) >= (previous.session?.epoch ?? 0)).toBe(true);
    expect(head.lastCommitId === "").toBe(
      head.committedEndOffset === 0 && head.cumulativeSize === 0 && head.commitVersion === 0,
    );
    previous = head;
  }

  // The chain is dense and valid from the head down to offset 0 (the walk validates every link).
  const commits = await harness.reachableCommits(streamId);
  expect(commits.reduce((sum, commit) => sum + commit.recordCount, 0)).toBe(previous.committedEndOffset);
  // Read everything through a fresh process; entries are dense from 0 to the end.
  const reader = harness.open({ writerId: "reader" });
  const seen: Array<{ offset: number; recordCount: number; tag: string }> = [];
  for (let offset = 0; offset < previous.committedEndOffset;) {
    const page = await reader.read(streamId, offset);
    for (const entry of page.entries)
      seen.push({ offset: entry.offset, recordCount: entry.recordCount, tag: text(entry.payload) });
    offset = page.nextOffset;
  }
  let expectedOffset = 0;
  for (const entry of seen) {
    expect(entry.offset).toBe(expectedOffset);
    expectedOffset += entry.recordCount;
  }
  expect(expectedOffset).toBe(previous.committedEndOffset);
  const byTag = new Map<string, { offset: number; recordCount: number; tag: string }>();
  for (const entry of seen) {
    expect(byTag.has(entry.tag), `append entry ${entry.tag} is duplicated`).toBe(false);
    byTag.set(entry.tag, entry);
  }
  for (const tag of absent) expect(byTag.has(tag), `${tag} failed KNOWN_NOT_COMMITTED but is visible`).toBe(false);
  for (const { tags, recordCounts, result } of acknowledged) {
    let offset = result.startOffset;
    tags.forEach((tag, index) => {
      expect(byTag.get(tag), `acknowledged ${tag} lost or moved`).toEqual({
        offset,
        recordCount: recordCounts[index],
        tag,
      });
      offset += recordCounts[index] ?? 0;
    });
    expect(offset).toBe(result.endOffset);
    expect(
      commits.some(
        (commit) =>
          commit.commitId === result.commitId &&
          commit.offsetStart <= result.startOffset &&
          result.endOffset <= commit.offsetEnd,
      ),
    ).toBe(true);
  }
}

/** Options of {@link describeAppendHistoryProperty}. */
export interface AppendHistoryPropertyOptions {
  /** Random histories to run (default 120; fewer against slow real services). */
  readonly numRuns?: number;
  /** Longest history (default 24 operations). */
  readonly maxOperations?: number;
  /** Per-test timeout in ms (default 120,000). */
  readonly timeoutMs?: number;
}

/**
 * The append-protocol property over one metadata stack: random histories of appends (single and group-committed
 * bursts), injected faults (head CAS response lost or failed, WAL write failed or lost, a crash at any step
 * boundary), process crashes, restarts, owner changes and zombie appends. Checks after every step that head fields
 * only move forward, and after every history that committed ranges are dense, no acknowledged append is lost or
 * duplicated, every acknowledged range reads back its exact bytes, and KNOWN_NOT_COMMITTED appends never appear.
 * Faults are injected by wrapping the stack's store in a {@link FaultInjectingMetadataStore}, so any store works.
 */
export function describeAppendHistoryProperty(
  name: string,
  createStack: () => Promise<AppendProtocolStack>,
  options: AppendHistoryPropertyOptions = {},
): void {
  describe(`append histories (property): ${name}`, () => {
    it(
      "keep committed ranges dense, never lose or duplicate an acknowledged append, and only move the head forward",
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(operationArbitrary, { minLength: 1, maxLength: options.maxOperations ?? 24 }),
            async (operations) => {
              const stack = await createStack();
              const metadata = new FaultInjectingMetadataStore(stack.metadata);
              const harness = new AppendProtocolHarness(metadata);
              try {
                await runHistory(metadata, harness, operations);
              } finally {
                await harness.dispose();
                await stack.cleanup?.();
              }
            },
          ),
          { numRuns: options.numRuns ?? 120 },
        );
      },
      options.timeoutMs ?? 120_000,
    );
  });
}
