// Deadlines inside a group commit: a member that gives up while the merged attempt is in flight cannot be taken
// out of bytes already written, so it fails MAY_HAVE_COMMITTED with its own attempt id and recovers its own range
// once the group settles; a member that gives up while still queued leaves cleanly (KNOWN_NOT_COMMITTED).
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../src/errors/error-code.js";
import { AppendProtocolHarness, expectAppendFailure, opaqueBatch } from "../src/testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";

const harnesses: AppendProtocolHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

describe("group commit deadlines", () => {
  it("a member that times out mid-flight gets MAY_HAVE_COMMITTED and recovers its own range; the others succeed", async () => {
    const harness = new AppendProtocolHarness(new InMemoryMetadataStore());
    harnesses.push(harness);
    const gates: Array<{ reached: () => void; release: Promise<void> }> = [];
    // Merging needs the lane busy with one group at a time (no pipelining).
    const store = harness.open({
      autoRecovery: false,
      pipelineDepth: 1,
      stepHooks: {
        afterWalWrite: async () => {
          const gate = gates.shift();
          if (gate === undefined) return;
          gate.reached();
          await gate.release;
        },
      },
    });
    const { streamId } = await store.createStream("group-deadlines", { profile: "BOOKKEEPER_WAL_ONLY" });
    let releaseBlocker: () => void = () => undefined;
    let releaseGroup: () => void = () => undefined;
    const blockerReached = new Promise<void>((resolve) =>
      gates.push({ reached: resolve, release: new Promise((done) => (releaseBlocker = done)) }),
    );
    const groupReached = new Promise<void>((resolve) =>
      gates.push({ reached: resolve, release: new Promise((done) => (releaseGroup = done)) }),
    );
    const blocker = store.append(streamId, opaqueBatch("blocker"));
    await blockerReached;
    const impatient = store.append(streamId, opaqueBatch("impatient"), { timeoutMs: 50 });
    const patient = store.append(streamId, opaqueBatch("patient"));
    releaseBlocker();
    await blocker;
    await groupReached;
    const leaver = expectAppendFailure(store.append(streamId, opaqueBatch("leaver"), { timeoutMs: 30 }), {
      code: ErrorCode.TIMEOUT,
      outcome: "KNOWN_NOT_COMMITTED",
    });
    const failure = await expectAppendFailure(impatient, { code: ErrorCode.TIMEOUT, outcome: "MAY_HAVE_COMMITTED" });
    await leaver;
    releaseGroup();
    const patientResult = await patient;
    const recovered = await store.recoverAppend(streamId, failure.attemptId ?? "");
    expect(recovered).toMatchObject({ startOffset: 1, endOffset: 2, commitId: patientResult.commitId });
    expect(patientResult).toMatchObject({ startOffset: 2, endOffset: 3 });
    expect((await store.read(streamId, 0)).entries.map((entry) => new TextDecoder().decode(entry.payload))).toEqual([
      "blocker",
      "impatient",
      "patient",
    ]);
  });
});
